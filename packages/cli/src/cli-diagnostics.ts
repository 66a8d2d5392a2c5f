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

/**
 * The validation as the CLI prints it (text and json alike): a PLAN_LIMIT hint also says how to change the
 * limit with `--limits`, and a PARAM_INVALID of an input that breaks a schema says where in `--input` it is
 * (`input`, in place of the engine's `inputPointer`). Nothing else changes.
 */
export function forCli<T extends Pick<ValidationResult, "diagnostics">>(
  result: T,
  input: ParsedInput | undefined,
  limits: Limits,
): T {
  const diagnostics = result.diagnostics.map(
    ({ inputPointer, ...diagnostic }: EngineDiagnostic): CliDiagnostic => {
      if (diagnostic.code === "PLAN_LIMIT")
        return { ...diagnostic, hint: limitHint(diagnostic.hint, diagnostic.message, limits) };
      const location = input === undefined ? undefined : inputLocation(inputPointer, input);
      return location === undefined ? diagnostic : { ...diagnostic, input: location };
    },
  );
  return { ...result, diagnostics };
}
