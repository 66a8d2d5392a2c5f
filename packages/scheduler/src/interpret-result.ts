import { type CompiledCall, isBranchResult, type RegisteredTool, schemaIssueText } from "@obelisk/compiler";
import {
  DEFAULT_LIMITS,
  type JsonValue,
  MAX_VALUE_DEPTH,
  type ToJsonValueResult,
  toJsonValue,
} from "@obelisk/core";
import type { RecordedError } from "@obelisk/state";

/** The options of a tool output's copy without a size limit of the run (one object for every call). */
const REMEMBER = Object.freeze({ remember: true });

/** A tool result ready to be written, or why the call failed. */
export type Interpreted =
  | { readonly ok: true; readonly alternative: number; readonly value: JsonValue }
  | { readonly ok: false; readonly error: RecordedError };

const failure = (code: string, message: string, data?: RecordedError["data"]): Interpreted => ({
  ok: false,
  error:
    data === undefined
      ? { name: "ObeliskError", code, message }
      : { name: "ObeliskError", code, message, data },
});

/** Where a call's output goes: its `_outputPath` as written, else its stored output `†calls.<id>`. */
const destination = (call: CompiledCall): string => call.outputPath?.text ?? `†calls.${call.id}`;

/** The start of `toJsonValue`'s refusal of a value nested deeper than `MAX_VALUE_DEPTH`. */
const TOO_DEEP = `nested deeper than ${MAX_VALUE_DEPTH} levels`;

/**
 * Why the output (`parsed`: its zod output schema's parse) could not be copied, as the call's error: over the
 * value limit, `OUTPUT_TOO_LARGE` naming the tool, the destination, `limits.maxValueBytes` and what to do,
 * with `data: { pointer, maxBytes }` (the pointer where the limit was passed); nested deeper than
 * `MAX_VALUE_DEPTH`, `OUTPUT_WRITE_FAILED` as a write a level too deep is (decision 0094): one code for the
 * depth a stored value may have, however far past it the output goes (decision 0113); else `OUTPUT_NOT_JSON`.
 */
function copyRefused(
  call: CompiledCall,
  tool: RegisteredTool,
  json: Extract<ToJsonValueResult, { ok: false }>,
  maxBytes: number | undefined,
  parsed: boolean,
): Interpreted {
  const output = `tool "${tool.name}"'s output`;
  const what = parsed ? `the zod output schema's parse of ${output}` : output;
  if (json.code === "OUTPUT_TOO_LARGE") {
    const limit = maxBytes ?? DEFAULT_LIMITS.maxValueBytes;
    return failure(
      json.code,
      `${what} for ${destination(call)} is larger than ${limit} bytes of JSON (limits.maxValueBytes bounds each value a call writes): return less (a page, a summary, or parts written by several calls), or raise the limit`,
      { pointer: json.pointer, maxBytes: limit },
    );
  }
  if (json.code === "OUTPUT_NOT_JSON" && json.message.startsWith(TOO_DEEP))
    return failure(
      "OUTPUT_WRITE_FAILED",
      `${what} for ${destination(call)} is ${json.message}, the most a stored value may nest (MAX_VALUE_DEPTH): a reader could not take it; return it less nested`,
      { pointer: json.pointer, maxDepth: MAX_VALUE_DEPTH },
    );
  // (not JSON: the message as it was; the zod parse's says it is the parse's)
  return failure(
    json.code,
    parsed ? `the zod output schema's parse of the result: ${json.message}` : json.message,
  );
}

/** Longer than the JSON of any finite number, boolean or null (`-1.7976931348623157e+308` is 24 bytes). */
const PRIMITIVE_JSON_BYTES = 32;

/** Marks a value {@link primitiveJson} leaves to `toJsonValue`. */
const NOT_PRIMITIVE: unique symbol = Symbol("not primitive");

/**
 * What `toJsonValue` makes of a finite number, a boolean, null or undefined (null), without its copy
 * machinery, when the size limit cannot refuse them (`-0` becomes `0`); NOT_PRIMITIVE for anything else.
 */
function primitiveJson(raw: unknown, maxBytes: number | undefined): JsonValue | typeof NOT_PRIMITIVE {
  if (maxBytes !== undefined && maxBytes < PRIMITIVE_JSON_BYTES) return NOT_PRIMITIVE;
  if (raw === undefined || raw === null) return null;
  if (typeof raw === "boolean") return raw;
  if (typeof raw === "number" && Number.isFinite(raw)) return raw === 0 ? 0 : raw;
  return NOT_PRIMITIVE;
}

/** Why a `branch()` name or index picks nothing, with the names the tool declares (a typo shows at once). */
function unknownAlternative(tool: RegisteredTool, alternative: number | string): string {
  const given = `unknown alternative ${JSON.stringify(alternative)}`;
  if (typeof alternative !== "string") return `${given}: an index is a whole number from 0`;
  const names = tool.outcomes;
  if (names === undefined || names.length === 0)
    return `${given}: tool "${tool.name}" declares no outcomes (pick by index, or declare outcomes)`;
  return `${given}: tool "${tool.name}" declares ${names.map((name) => JSON.stringify(name)).join(", ")}`;
}

/** The alternative chosen by a `branch()` result: an index or one of the tool's `outcomes`. */
function chooseAlternative(
  call: CompiledCall,
  tool: RegisteredTool,
  alternative: number | string,
): number | string {
  const count = call.outputPath?.alternatives.length ?? 1;
  const index = typeof alternative === "number" ? alternative : (tool.outcomes?.indexOf(alternative) ?? -1);
  if (!Number.isInteger(index) || index < 0) return unknownAlternative(tool, alternative);
  if (index >= count) return `alternative ${index} does not exist: the output path has ${count}`;
  return index;
}

/**
 * Interprets what a tool returned (or a latent call's `_output`): a `branch()` result picks the alternative
 * (BRANCH_INVALID when it does not exist), anything else writes the first. `undefined` counts as `null`.
 * The value must be JSON (OUTPUT_NOT_JSON / OUTPUT_TOO_LARGE); values for the first alternative are
 * checked against the tool's output schema (OUTPUT_INVALID).
 */
export function interpretResult(
  call: CompiledCall,
  tool: RegisteredTool,
  returned: unknown,
  maxBytes: number | undefined,
): Interpreted {
  let alternative = 0;
  let raw = returned;
  if (isBranchResult(returned)) {
    const chosen = chooseAlternative(call, tool, returned.alternative);
    if (typeof chosen === "string") return failure("BRANCH_INVALID", chosen);
    alternative = chosen;
    raw = returned.value;
  }
  let value = primitiveJson(raw, maxBytes);
  if (value === NOT_PRIMITIVE) {
    // remembered: the store's copy of the record, the writes and the stored output takes this one as is
    const json = toJsonValue(
      raw === undefined ? null : raw,
      maxBytes === undefined ? REMEMBER : { remember: true, maxBytes },
    );
    if (!json.ok) return copyRefused(call, tool, json, maxBytes, false);
    value = json.value;
  }
  if (alternative === 0) return checkedOutput(call, tool, value, maxBytes);
  return { ok: true, alternative, value };
}

/**
 * The first alternative's value checked against the tool's output schema (OUTPUT_INVALID); for a zod output,
 * zod's parse of it is the value written (decision 0052), which must be JSON too (OUTPUT_NOT_JSON, naming
 * the parse, when a transform made something else).
 */
function checkedOutput(
  call: CompiledCall,
  tool: RegisteredTool,
  value: JsonValue,
  maxBytes: number | undefined,
): Interpreted {
  const parsed = tool.parseOutput?.(value);
  const issues = parsed === undefined ? tool.validateOutput(value) : parsed.ok ? [] : parsed.issues;
  const first = issues[0];
  if (first !== undefined) {
    // worded as validate and PARAM_INVALID word it (a format's name, not zod's email regex: decision 0101)
    const problem = schemaIssueText(first, tool.outputSchema ?? {});
    return failure(
      "OUTPUT_INVALID",
      `output${first.instancePath ? ` at ${first.instancePath}` : ""}: ${problem}`,
    );
  }
  if (parsed === undefined || !parsed.ok || parsed.value === value)
    return { ok: true, alternative: 0, value };
  const json = toJsonValue(
    parsed.value === undefined ? null : parsed.value,
    maxBytes === undefined ? REMEMBER : { remember: true, maxBytes },
  );
  if (!json.ok) return copyRefused(call, tool, json, maxBytes, true);
  return { ok: true, alternative: 0, value: json.value };
}

/** The value written to the failure branch for an error (SPEC §3). */
export function errorValue(error: RecordedError): JsonValue {
  return {
    name: error.name,
    message: error.message,
    ...(error.code === undefined ? {} : { code: error.code }),
    ...(error.data === undefined ? {} : { data: error.data }),
  };
}
