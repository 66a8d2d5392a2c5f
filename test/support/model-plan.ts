import type { JsonValue } from "@obelisk/core";

/**
 * The restricted plan language of the model-based property test (model-run.property.test.ts): the plan as
 * data, its JSON rendering, and the tools' behaviour — a pure function of the tool's name and its arguments.
 */

/** A path below a kind: names and non-negative or negative indices. */
export type Path = readonly (string | number)[];

/** One reference: `†state.a.b`, `†input.o.k[1]`, `†calls.c3`. */
export interface Ref {
  readonly kind: "state" | "input" | "calls";
  readonly path: Path;
}

/** `a && b || c`: alternatives (`||`) of gates (`&&`) of references. */
export type Expression = readonly (readonly Ref[])[];

/** How `||` and `&&` are written: SPEC §2 accepts `<|>` and `*>`, and whitespace around operators. */
export type Spelling = 0 | 1 | 2;
const OPERATORS: readonly (readonly [string, string])[] = [
  [" || ", " && "],
  ["||", "&&"],
  [" <|> ", " *> "],
];

export type Param =
  | { readonly type: "literal"; readonly value: JsonValue }
  /** `††text`: the literal string `†text` (SPEC §2 rule 3). */
  | { readonly type: "escaped"; readonly text: string }
  | { readonly type: "expression"; readonly expression: Expression; readonly spelling: Spelling }
  /** `$tool_output.<id>`: the whole-value alias of `†calls.<id>` (SPEC §2 rule 7). */
  | { readonly type: "alias"; readonly id: string }
  /** Text parts (a `{†` in them is written `{††`, rule 3) and references in braces. */
  | { readonly type: "template"; readonly parts: readonly (string | Ref)[] }
  /** `{ "deep": [ <inner> ] }`: a reference below the top of a parameter. */
  | { readonly type: "nested"; readonly inner: Param };

/** `deny`: the engine's `confirm` hook rejects the call (SPEC §7). */
export type Act = "ok" | "b0" | "b1" | "b2" | "throw" | "maybe" | "deny";
/** `falsy`: `null`, `false`, `""` or `0`, values that exist all the same (SPEC §2). */
export type Shape = "num" | "str" | "obj" | "arr" | "falsy";
export type Method = "set" | "merge" | "assign" | "push" | "concat";

export interface Output {
  /** `||` alternatives, each a list of `&&` targets (paths below `†state`). */
  readonly alternatives: readonly (readonly Path[])[];
  readonly method: Method;
  /** `_outputMethod` written even when it is the default `set`. */
  readonly explicitMethod: boolean;
  readonly spelling: Spelling;
}

export interface ModelCall {
  readonly id: string;
  /** `gamma` is latent (no `run`): its value is the call's `_output`, or it is deferred without one. */
  readonly tool: "alpha" | "beta" | "gamma";
  /** Parameters, `act` and `shape` (literals the tool reads) included. */
  readonly params: Readonly<Record<string, Param>>;
  readonly output?: Output;
  readonly rerun: boolean;
  readonly latentOutput?: JsonValue;
}

const NAME = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

function pathText(path: Path): string {
  return path
    .map((segment) =>
      typeof segment === "number"
        ? `[${segment}]`
        : NAME.test(segment)
          ? `.${segment}`
          : `[${JSON.stringify(segment)}]`,
    )
    .join("");
}

export function refText(ref: Ref): string {
  return `†${ref.kind}${pathText(ref.path)}`;
}

function expressionText(refs: readonly (readonly Ref[])[], spelling: Spelling): string {
  const [or, and] = OPERATORS[spelling] as readonly [string, string];
  return refs.map((gate) => gate.map(refText).join(and)).join(or);
}

export function outputPathText(output: Output): string {
  const refs = output.alternatives.map((targets) => targets.map((path): Ref => ({ kind: "state", path })));
  return expressionText(refs, output.spelling);
}

function paramJson(param: Param): JsonValue {
  switch (param.type) {
    case "literal":
      return param.value;
    case "escaped":
      return `††${param.text}`;
    case "expression":
      return expressionText(param.expression, param.spelling);
    case "alias":
      return `$tool_output.${param.id}`;
    case "template":
      return param.parts
        .map((part) => (typeof part === "string" ? part.replaceAll("{†", "{††") : `{${refText(part)}}`))
        .join("");
    case "nested":
      return { deep: [paramJson(param.inner)] };
  }
}

/** The call as a plan document holds it. */
export function callJson(call: ModelCall): Record<string, JsonValue> {
  const json: Record<string, JsonValue> = { _tool: call.tool, _id: call.id };
  for (const [name, param] of Object.entries(call.params)) json[name] = paramJson(param);
  if (call.output !== undefined) {
    json._outputPath = outputPathText(call.output);
    if (call.output.explicitMethod || call.output.method !== "set") json._outputMethod = call.output.method;
  }
  if (call.rerun) json._rerun = true;
  if (call.latentOutput !== undefined) json._output = call.latentOutput;
  return json;
}

/** JSON text with object keys sorted (one text per value, whatever the key order). */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** What a tool does with its arguments: return a value, pick an alternative, or throw. */
export type Behaviour =
  | { readonly kind: "return"; readonly value: JsonValue }
  | { readonly kind: "branch"; readonly alternative: number; readonly value: JsonValue }
  /** `code`: the error's own `code` property, when it has one (a number, as an HTTP status would be). */
  | { readonly kind: "throw"; readonly message: string; readonly code?: number };

function hash(text: string): number {
  let h = 2_166_136_261;
  for (let index = 0; index < text.length; index += 1) h = Math.imul(h ^ text.charCodeAt(index), 16_777_619);
  return h >>> 0;
}

function shaped(shape: unknown, h: number): JsonValue {
  switch (shape) {
    case "num":
      return h % 1000;
    case "obj":
      // keys not in sorted order: a template writes objects with sorted keys (docs/plan-language.md)
      return { n: { [`x${h % 4}`]: h % 100 }, k: `v${h % 3}`, h: h % 1000 };
    case "arr":
      return [h % 1000, `a${h % 5}`];
    case "falsy":
      return ([null, false, "", 0] as const)[h % 4] ?? null;
    default:
      return `s${h % 997}`;
  }
}

/** The tools' behaviour: a deterministic function of the tool's name and its arguments (no id, no time). */
export function behaviour(tool: string, args: Readonly<Record<string, unknown>>): Behaviour {
  const h = hash(`${tool}:${canonical(args)}`);
  const value = shaped(args.shape, h);
  switch (args.act) {
    case "b0":
    case "b1":
    case "b2":
      return { kind: "branch", alternative: Number(String(args.act).slice(1)), value };
    case "throw":
      return h % 2 === 0
        ? { kind: "throw", message: `boom ${h % 1000}` }
        : { kind: "throw", message: "gone", code: 404 };
    case "maybe":
      return h % 3 === 0 ? { kind: "throw", message: `maybe ${h % 1000}` } : { kind: "return", value };
    default:
      return { kind: "return", value };
  }
}

/** Two paths overlap when they are equal or one is a prefix of the other (SPEC §3). */
export function overlaps(a: Path, b: Path): boolean {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

/** Every target of a call's output, all alternatives. */
export function targetsOf(call: ModelCall): Path[] {
  return call.output?.alternatives.flat() ?? [];
}
