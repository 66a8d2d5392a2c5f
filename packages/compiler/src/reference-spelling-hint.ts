import type { JsonObject, KindTable, Limits, Reference } from "@obelisk/core";
import { getAtPath, parseReference } from "@obelisk/core";
import type { CompileContext } from "./compiled-plan.js";
import { isPlainObject } from "./to-json-schema.js";

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const DOT = 0x2e;
const OPEN_BRACKET = 0x5b;

/** What the spelling checks read: the kinds and depth limit, and (bare spellings) the known context. */
export interface SpellingOptions {
  readonly kinds: KindTable;
  readonly limits: Pick<Limits, "maxPathDepth">;
  readonly context?: CompileContext | undefined;
  readonly planInputSchema?: JsonObject | undefined;
  /** The call's tool (undefined: not registered), for `context.mayRead`. */
  readonly tool?: string | undefined;
}

/** The names of each kind table (a list, walked without an iterator), made once per table. */
const KIND_NAMES = new WeakMap<KindTable, readonly string[]>();

/** The kind names of `kinds`, in table order. */
export function kindNamesOf(kinds: KindTable): readonly string[] {
  let names = KIND_NAMES.get(kinds);
  if (names === undefined) {
    names = [...kinds.keys()];
    KIND_NAMES.set(kinds, names);
  }
  return names;
}

/**
 * True when `text` holds one of the kind `names` at `start`, followed by `.` or `[`. Nothing allocated,
 * and for the common string only one `charCodeAt` per kind (the character a kind would end at is tested
 * before the kind itself).
 */
export function kindAt(text: string, start: number, names: readonly string[]): boolean {
  for (let index = 0; index < names.length; index++) {
    const kind = names[index] as string;
    const end = start + kind.length;
    // In bounds first: charCodeAt past the end (NaN) takes a slow path.
    if (end >= text.length) continue;
    const next = text.charCodeAt(end);
    if ((next === DOT || next === OPEN_BRACKET) && text.startsWith(kind, start)) return true;
  }
  return false;
}

/** The reference `†` + `text[from, to)` when that is exactly one reference of a known kind. */
function referenceIn(
  text: string,
  from: number,
  to: number,
  options: SpellingOptions,
): Reference | undefined {
  if (!kindAt(text, from, kindNamesOf(options.kinds))) return undefined;
  const parsed = parseReference(`†${text.slice(from, to)}`, options.kinds, options.limits);
  return parsed.ok ? parsed.value : undefined;
}

/**
 * The hint for a literal that spells a reference with `$` (SPEC §2 rule 7 accepts `$tool_output.<id>`,
 * which invites `$state.x`) or as a JavaScript template (`${input.x}`); `dollar` is the first `$`.
 * - the whole string `$<reference>`, `$.<reference>` (JSONPath) or `${<reference>}`: `did you mean "†<reference>"?`;
 * - `${<reference>}` inside longer text: the template slot `{†<reference>}`.
 * Only when the rest is exactly one reference of a known kind: `$5`, `${amount}`, `US$ 12` and
 * `$state.go('home')` inside text are left alone. Undefined otherwise.
 */
export function dollarSpellingHint(
  text: string,
  dollar: number,
  options: SpellingOptions,
): string | undefined {
  if (dollar === 0) {
    const braced = text.charCodeAt(1) === OPEN_BRACE;
    const whole = braced
      ? text.charCodeAt(text.length - 1) === CLOSE_BRACE
        ? referenceIn(text, 2, text.length - 1, options)
        : undefined
      : referenceIn(text, text.charCodeAt(1) === DOT ? 2 : 1, text.length, options); // `$.state.x`: JSONPath
    if (whole !== undefined) return `did you mean ${JSON.stringify(whole.text)}?`;
  }
  // Each slot is looked at once, from its `${` to the first `}` (linear in the text, however many slots).
  for (let open = text.indexOf("${", dollar); open !== -1; ) {
    const close = text.indexOf("}", open + 2);
    if (close === -1) return undefined;
    const reference = referenceIn(text, open + 2, close, options);
    if (reference !== undefined)
      return `inside text write "{${reference.text}}" (a template slot), not "${text.slice(open, close + 1)}"`;
    open = text.indexOf("${", close + 1);
  }
  return undefined;
}

/**
 * True when the known context holds data at the reference (not what the plan writes: that comes later) that
 * `parameter` may read: a host kind it may not read (`context.mayRead`) is not looked at (decision 0082).
 */
function knownData(reference: Reference, options: SpellingOptions, parameter: string): boolean {
  const context = options.context;
  if (context === undefined) return false;
  const path = reference.path;
  switch (reference.kind) {
    case "input":
      if (context.input !== undefined) return getAtPath(context.input, path).found;
      return [options.planInputSchema, context.inputSchema].some((schema) => declares(schema, path[0]));
    case "state":
      return context.state !== undefined && getAtPath(context.state, path).found;
    case "calls":
      return typeof path[0] === "string" && context.callOutputs?.has(path[0]) === true;
    default: {
      if (context.mayRead?.(reference.kind, options.tool, parameter) === false) return false;
      const value = context.extraKinds?.[reference.kind];
      return value !== undefined && getAtPath(value, path).found;
    }
  }
}

/** True when `schema` names `key` among its own top-level `properties` (an open schema declares nothing). */
function declares(schema: JsonObject | undefined, key: string | number | undefined): boolean {
  const properties = schema?.properties;
  return typeof key === "string" && isPlainObject(properties) && Object.hasOwn(properties, key);
}

/** True when some part of the known context could make a bare spelling known data. */
export function hasKnownData(options: SpellingOptions): boolean {
  const context = options.context;
  if (context === undefined) return false;
  return (
    context.input !== undefined ||
    context.state !== undefined ||
    context.callOutputs !== undefined ||
    context.extraKinds !== undefined ||
    context.inputSchema !== undefined ||
    options.planInputSchema !== undefined
  );
}

/**
 * The hint for a whole string `<kind>.<path>` without the dagger (`input.userName`) whose path holds data
 * in the known context (the run's input or the properties its schema names, the thread's state, stored
 * call outputs, a host kind's value): `did you mean "†input.userName"?`. Anything else is left alone, so
 * `input.txt` stays a file name unless the input really has a `txt`. The caller tests `kindAt` first;
 * `parameter` is the call's parameter that holds the text (what `context.mayRead` is asked about).
 */
export function bareSpellingHint(
  text: string,
  options: SpellingOptions,
  parameter: string,
): string | undefined {
  const reference = referenceIn(text, 0, text.length, options);
  if (reference === undefined || !knownData(reference, options, parameter)) return undefined;
  return `did you mean ${JSON.stringify(reference.text)}?`;
}
