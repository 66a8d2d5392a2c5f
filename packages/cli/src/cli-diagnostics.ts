import {
  type Diagnostic,
  isJsonObject,
  type JsonValue,
  type Limits,
  parsePointer,
  pointerFromPath,
  resolvePointer,
  type SourceMap,
  type SourcePosition,
} from "@obelisk/core";
import type { ValidationResult } from "obelisk";
import { limitHint } from "./limits-option.js";
import type { ParsedInput } from "./parse-input.js";

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

/** A diagnostic as the CLI prints it: the engine's, and for an input that breaks a schema, where it is. */
export type CliDiagnostic = Diagnostic & { readonly input?: InputLocation };

const BREAKS = " breaks ";
/** What an input breaks, as the engine names it after "breaks". */
const SCHEMAS = ["inputSchema:", "the Input message's schema:", "the input schema option:"];

/**
 * The input location (a pointer into the input's value) named by an input diagnostic's message: `input
 * breaks <schema>: …` (the value itself) or `input at <pointer> breaks <schema>: …`. A key may itself hold
 * " breaks ": the split before a schema's name whose pointer is in the value is the one.
 */
function instancePointer(message: string, value: unknown): string | undefined {
  if (message.startsWith(`input${BREAKS}`)) return "";
  if (!message.startsWith("input at /")) return undefined;
  const rest = message.slice("input at ".length);
  let first: string | undefined;
  for (let at = rest.indexOf(BREAKS); at >= 0; at = rest.indexOf(BREAKS, at + 1)) {
    const after = rest.slice(at + BREAKS.length);
    if (!SCHEMAS.some((schema) => after.startsWith(schema))) continue;
    const pointer = rest.slice(0, at);
    first ??= pointer;
    if (resolvePointer(value, pointer).found) return pointer;
  }
  return first;
}

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
 * Where in `--input` an input that breaks the plan's `inputSchema` (`/inputSchema/…`) or an Input message's
 * schema (`""`) is wrong (the engine's PARAM_INVALID names it in its message), or undefined for any other
 * diagnostic.
 */
function inputLocation(diagnostic: Diagnostic, input: ParsedInput): InputLocation | undefined {
  const { code, pointer, message } = diagnostic;
  if (code !== "PARAM_INVALID" || !(pointer === "" || pointer.startsWith("/inputSchema"))) return undefined;
  const isMessage = isInputMessage(input.value);
  const value = isMessage ? (input.value.input ?? {}) : input.value;
  const instance = instancePointer(message, value);
  if (instance === undefined) return undefined;
  const inInput = isMessage ? `/input${instance}` : instance;
  const position = locate(input.sourceMap(), inInput);
  return {
    source: input.inline ? "inline" : "file",
    ...(input.inline ? {} : { file: input.name }),
    pointer: inInput,
    line: position?.line ?? 1,
    column: position?.column ?? 1,
  };
}

/**
 * The validation as the CLI prints it (text and json alike): a PLAN_LIMIT hint also says how to change the
 * limit with `--limits`, and a PARAM_INVALID of an input that breaks a schema says where in `--input` it is
 * (`input`). Nothing else changes.
 */
export function forCli<T extends Pick<ValidationResult, "diagnostics">>(
  result: T,
  input: ParsedInput | undefined,
  limits: Limits,
): T {
  const diagnostics = result.diagnostics.map((diagnostic): CliDiagnostic => {
    if (diagnostic.code === "PLAN_LIMIT")
      return { ...diagnostic, hint: limitHint(diagnostic.hint, diagnostic.message, limits) };
    const location = input === undefined ? undefined : inputLocation(diagnostic, input);
    return location === undefined ? diagnostic : { ...diagnostic, input: location };
  });
  return { ...result, diagnostics };
}
