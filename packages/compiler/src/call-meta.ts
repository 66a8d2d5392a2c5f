import type { Diagnostic, JsonObject, JsonValue, OutputMethod } from "@obelisk/core";
import { appendPointer, didYouMean, isOutputMethod, OUTPUT_METHODS } from "@obelisk/core";
import { makeDiagnostic } from "./make-diagnostic.js";
import { isPlainObject } from "./to-json-schema.js";
import type { RetryPolicy } from "./tool-definition.js";

/** Every meta-property of a call (SPEC §4). */
export const META_KEYS: readonly string[] = [
  "_tool",
  "_id",
  "_outputPath",
  "_outputMethod",
  "_description",
  "_output",
  "_rerun",
  "_timeoutMs",
  "_retry",
];
const META_SET = new Set(META_KEYS);
/** The longest `_timeoutMs` a timer can hold (2^31 − 1 ms). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** The meta-properties of a call, checked for type. */
export interface CallMeta {
  readonly outputMethod: OutputMethod;
  readonly description?: string;
  readonly rerun: boolean;
  readonly timeoutMs?: number;
  readonly retry?: Partial<RetryPolicy>;
  readonly hasOutput: boolean;
  readonly output?: JsonValue;
}

const RETRY_FIELDS: Readonly<Record<string, "count" | "ms" | "factor" | "boolean">> = {
  attempts: "count",
  backoffMs: "ms",
  factor: "factor",
  maxDelayMs: "ms",
  jitter: "boolean",
};

function retryFieldOk(kind: "count" | "ms" | "factor" | "boolean", value: unknown): boolean {
  if (kind === "boolean") return typeof value === "boolean";
  if (typeof value !== "number" || !Number.isFinite(value)) return false;
  if (kind === "count") return Number.isInteger(value) && value >= 1;
  return kind === "factor" ? value >= 1 : value >= 0;
}

function checkRetry(value: unknown, pointer: string, out: Diagnostic[], callId: string | undefined): boolean {
  if (!isPlainObject(value)) {
    out.push(makeDiagnostic("CALL_SHAPE", "_retry must be an object", pointer, { callId }));
    return false;
  }
  let ok = true;
  for (const [key, field] of Object.entries(value)) {
    const kind = RETRY_FIELDS[key];
    const at = appendPointer(pointer, key);
    if (kind === undefined) {
      const hint = didYouMean(key, Object.keys(RETRY_FIELDS));
      out.push(makeDiagnostic("CALL_SHAPE", `unknown _retry field "${key}"`, at, { callId, hint }));
      ok = false;
    } else if (!retryFieldOk(kind, field)) {
      out.push(makeDiagnostic("CALL_SHAPE", `_retry.${key} has an invalid value`, at, { callId }));
      ok = false;
    }
  }
  return ok;
}

/**
 * Checks the meta-properties of a call (everything but `_tool`, `_id` and `_outputPath`, checked elsewhere):
 * unknown `_` keys (META_UNKNOWN), `_outputMethod` (OUTPUT_METHOD_INVALID), and the types of `_rerun`,
 * `_timeoutMs`, `_retry`, `_description` (CALL_SHAPE at the key).
 */
export function checkCallMeta(
  raw: JsonObject,
  pointer: string,
  callId: string | undefined,
  out: Diagnostic[],
): CallMeta {
  let meta: { -readonly [K in keyof CallMeta]: CallMeta[K] } = {
    outputMethod: "set",
    rerun: false,
    hasOutput: false,
  };
  for (const [key, value] of Object.entries(raw)) {
    if (!key.startsWith("_")) continue;
    const at = appendPointer(pointer, key);
    if (!META_SET.has(key)) {
      const hint = didYouMean(key, META_KEYS) ?? "parameters cannot start with _";
      out.push(makeDiagnostic("META_UNKNOWN", `unknown meta-property "${key}"`, at, { callId, hint }));
      continue;
    }
    meta = { ...meta, ...checkMetaValue(key, value, at, callId, out) };
  }
  return meta;
}

function checkMetaValue(
  key: string,
  value: JsonValue,
  at: string,
  callId: string | undefined,
  out: Diagnostic[],
) {
  const shape = (message: string) => {
    out.push(makeDiagnostic("CALL_SHAPE", message, at, { callId }));
    return {};
  };
  switch (key) {
    case "_outputMethod":
      if (isOutputMethod(value)) return { outputMethod: value };
      out.push(
        makeDiagnostic("OUTPUT_METHOD_INVALID", `unknown _outputMethod ${JSON.stringify(value)}`, at, {
          callId,
          hint:
            (typeof value === "string" ? didYouMean(value, Object.keys(OUTPUT_METHODS)) : undefined) ??
            `one of ${Object.keys(OUTPUT_METHODS).join(", ")}`,
        }),
      );
      return {};
    case "_rerun":
      return typeof value === "boolean" ? { rerun: value } : shape("_rerun must be true or false");
    case "_timeoutMs":
      // At most 2^31 − 1 ms (~24.8 days): a timer cannot hold more (Node fires it after 1 ms, bug B11).
      return typeof value === "number" && value > 0 && value <= MAX_TIMEOUT_MS
        ? { timeoutMs: value }
        : shape(`_timeoutMs must be a positive number of ms, at most ${MAX_TIMEOUT_MS}`);
    case "_description":
      return typeof value === "string" ? { description: value } : shape("_description must be a string");
    case "_retry":
      return checkRetry(value, at, out, callId) ? { retry: value as Partial<RetryPolicy> } : {};
    case "_output":
      return { hasOutput: true, output: value };
    default:
      return {};
  }
}
