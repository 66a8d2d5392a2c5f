import {
  type Diagnostic,
  isJsonObject,
  type JsonValue,
  type Limits,
  parsePointer,
  pointerFromPath,
  type SourceMap,
  type SourcePosition,
} from "@obelisk/core";
import type { EngineDiagnostic, ValidationResult } from "obelisk";
import { limitHint } from "./limits-option.js";
import type { ParsedInput } from "./parse-input.js";
import { shellWord } from "./shell-word.js";

/**
 * Where in `--input` the problem of a diagnostic about the input is (json: the diagnostic's `input` field;
 * its `pointer` stays the engine's, into the plan: the `inputSchema` keyword the input breaks, or `""`).
 */
export interface InputLocation {
  /** `inline` for JSON given on the command line, `file` for a file. */
  readonly source: "inline" | "file";
  /** The file, as given to `--input` (a file only). */
  readonly file?: string;
  /** JSON Pointer into the input as given (for an Input message, below `/input`). */
  readonly pointer: string;
  /** 1-based line in the input's text. */
  readonly line: number;
  /** 1-based column in the input's text. */
  readonly column: number;
}

/**
 * A diagnostic as the CLI prints it: the engine's, for an input that breaks a schema where it is (`input`),
 * and in json where its `pointer` is in the plan's text (`line`, `column`: see `withPlanPositions`).
 */
export type CliDiagnostic = Diagnostic & {
  readonly input?: InputLocation;
  /** 1-based line of `pointer` (or of its nearest located ancestor) in the plan file. */
  readonly line?: number;
  /** 1-based column of it. */
  readonly column?: number;
};

/** The position of a pointer, or of its nearest located ancestor (a missing key: its object). */
export function locate(sourceMap: SourceMap | undefined, pointer: string): SourcePosition | undefined {
  const segments = parsePointer(pointer);
  for (let length = segments.length; length >= 0; length--) {
    const position = sourceMap?.positionOf(pointerFromPath(segments.slice(0, length)));
    if (position !== undefined) return position;
  }
  return undefined;
}

/** True for an Input message (`{ "type": "input", "input": … }`): the input is its `input`. */
function isInputMessage(value: JsonValue): value is { type: "input"; input?: JsonValue } {
  if (!isJsonObject(value)) return false;
  return value.type === "input" && Object.hasOwn(value, "input");
}

/**
 * Where in `--input` an input that breaks the plan's `inputSchema` or an Input message's schema is wrong:
 * the engine's `inputPointer` (into the input, so below `/input` in an Input message), located in the text;
 * undefined for a diagnostic without one.
 */
function inputLocation(instance: string | undefined, input: ParsedInput): InputLocation | undefined {
  if (instance === undefined) return undefined;
  const inInput = isInputMessage(input.value) ? `/input${instance}` : instance;
  const position = locate(input.sourceMap(), inInput);
  return {
    source: input.inline ? "inline" : "file",
    ...(input.inline ? {} : { file: input.name }),
    pointer: inInput,
    line: position?.line ?? 1,
    column: position?.column ?? 1,
  };
}

/** The `†input` reference a REF_UNRESOLVED names (`nothing writes †input.userName and …`). */
const MISSING_INPUT = /^nothing writes (†input(?:\.[^\s.[\]]+|\[[^\]]*\])+)/;

/** The input's top-level key a reference reads (`userName` of `†input.userName`, `a b` of `†input["a b"]`). */
function topKey(reference: string): string | undefined {
  const rest = reference.slice("†input".length);
  const dotted = /^\.([^\s.[\]]+)/.exec(rest);
  if (dotted !== null) return dotted[1];
  const bracketed = /^\[("(?:[^"\\]|\\.)*")\]/.exec(rest);
  if (bracketed === null) return undefined;
  try {
    const key: unknown = JSON.parse(bracketed[1] ?? "");
    return typeof key === "string" ? key : undefined;
  } catch {
    return undefined;
  }
}

/** How the hint of a diagnostic that blames a missing `--input` starts (see {@link blamesMissingInput}). */
const NO_INPUT_GIVEN = "no --input was given";

/**
 * The `--input` a plan needs, in the form a user fills in (`{"userName": …}`: every top-level key the
 * refused `†input` references read), from the REF_UNRESOLVED diagnostics of a validation with no input;
 * `{…}` when they name no key (the input schema's own refusal).
 */
export function missingInputForm(diagnostics: readonly Diagnostic[]): string {
  return inputForm(new Set(missingInputKeys(diagnostics).values()));
}

function inputForm(keys: ReadonlySet<string>): string {
  const form = [...keys].map((key) => `${JSON.stringify(key)}: …`).join(", ");
  return `{${form === "" ? "…" : form}}`;
}

/** The top-level input key each REF_UNRESOLVED of a `†input` path that no input holds reads. */
function missingInputKeys(diagnostics: readonly Diagnostic[]): Map<Diagnostic, string> {
  const keys = new Map<Diagnostic, string>();
  for (const diagnostic of diagnostics) {
    // (not "the input schema allows no value at this path": no input would hold it)
    if (diagnostic.code !== "REF_UNRESOLVED" || !diagnostic.hint?.startsWith("the run's input has no value"))
      continue;
    const reference = MISSING_INPUT.exec(diagnostic.message)?.[1];
    const key = reference === undefined ? undefined : topKey(reference);
    if (key !== undefined) keys.set(diagnostic, key);
  }
  return keys;
}

/**
 * The hints of the diagnostics a missing `--input` causes: the REF_UNRESOLVED of `†input` paths (the
 * engine's `the run's input has no value there` read as if an input was given, review s39) and the empty
 * input's refusal by the plan's `inputSchema` (review s41 r2 #2). They say none was given, with the form
 * that gives one (`--input '{"userName": …}'`, every key the plan reads at the top).
 */
function missingInputHints(diagnostics: readonly EngineDiagnostic[]): Map<Diagnostic, string> {
  const keys = missingInputKeys(diagnostics);
  const hint = `${NO_INPUT_GIVEN}, so the run's input is empty: give it, e.g. --input ${shellWord(inputForm(new Set(keys.values())))} (or --input <file.json>)`;
  const blamed = [...keys.keys(), ...diagnostics.filter((d) => d.inputPointer !== undefined)];
  return new Map(blamed.map((diagnostic) => [diagnostic, hint]));
}

/** True for a diagnostic (as {@link forCli} gives it) that a missing `--input` causes. */
export function blamesMissingInput(diagnostic: Diagnostic): boolean {
  return diagnostic.hint?.startsWith(NO_INPUT_GIVEN) === true;
}

/**
 * The validation as the CLI prints it (text and json alike): a PLAN_LIMIT hint also says how to change the
 * limit with `--limits`, a PARAM_INVALID of an input that breaks a schema says where in `--input` it is
 * (`input`, in place of the engine's `inputPointer`), and, for a command that takes `--input` (`takesInput`)
 * given none, a `†input` path nothing holds says no `--input` was given. Nothing else changes.
 */
export function forCli<T extends Pick<ValidationResult, "diagnostics">>(
  result: T,
  input: ParsedInput | undefined,
  limits: Limits,
  takesInput = false,
): T {
  const noInput =
    takesInput && input === undefined ? missingInputHints(result.diagnostics) : new Map<Diagnostic, string>();
  const diagnostics = result.diagnostics.map((engineDiagnostic: EngineDiagnostic): CliDiagnostic => {
    const { inputPointer, ...diagnostic } = engineDiagnostic;
    const missing = noInput.get(engineDiagnostic);
    if (missing !== undefined) return { ...diagnostic, hint: missing };
    if (diagnostic.code === "PLAN_LIMIT")
      return { ...diagnostic, hint: limitHint(diagnostic.hint, diagnostic.message, limits) };
    const location = input === undefined ? undefined : inputLocation(inputPointer, input);
    return location === undefined ? diagnostic : { ...diagnostic, input: location };
  });
  return { ...result, diagnostics };
}
