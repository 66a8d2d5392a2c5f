import type { Diagnostic, JsonObject, JsonValue, Limits, Mutable, OutputMethod } from "@obelisk/core";
import {
  appendPointer,
  DEFAULT_LIMITS,
  didYouMean,
  isOutputMethod,
  MAX_TIMER_MS,
  OUTPUT_METHODS,
} from "@obelisk/core";
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

/** The meta-properties of a call, checked for type (absent ones undefined). */
export interface CallMeta {
  readonly outputMethod: OutputMethod;
  readonly description: string | undefined;
  readonly rerun: boolean;
  readonly timeoutMs: number | undefined;
  readonly retry: Partial<Omit<RetryPolicy, "shouldRetry">> | undefined;
  readonly hasOutput: boolean;
  readonly output: JsonValue | undefined;
}

/** Each `_retry` field and how it is typed (also the plan JSON Schema's `_retry`). */
export const RETRY_FIELDS: Readonly<Record<string, "count" | "ms" | "factor" | "boolean">> = {
  attempts: "count",
  backoffMs: "ms",
  factor: "factor",
  maxDelayMs: "ms",
  jitter: "boolean",
};

/** The kind of a `_retry` (or tool `retry`) field, or undefined for an unknown one (own keys only: not `constructor`). */
export function retryFieldKind(key: string): (typeof RETRY_FIELDS)[string] | undefined {
  return Object.hasOwn(RETRY_FIELDS, key) ? RETRY_FIELDS[key] : undefined;
}

/** Whether a `_retry` (or tool `retry`) field's value has its kind: a whole count ≥ 1, ms ≥ 0, a factor ≥ 1. */
export function retryFieldOk(kind: "count" | "ms" | "factor" | "boolean", value: unknown): boolean {
  if (kind === "boolean") return typeof value === "boolean";
  if (typeof value !== "number" || !Number.isFinite(value)) return false;
  if (kind === "count") return Number.isInteger(value) && value >= 1;
  return kind === "factor" ? value >= 1 : value >= 0;
}

/** The limit a plan's `_retry` field is held to (SPEC §11: a plan cannot keep a run and its thread busy). */
function retryFieldLimit(key: string, limits: RetryLimits): number | undefined {
  if (key === "attempts") return limits.maxRetryAttempts;
  return key === "backoffMs" || key === "maxDelayMs" ? limits.maxRetryDelayMs : undefined;
}

/** The limits `checkCallMeta` applies. */
export type RetryLimits = Pick<Limits, "maxRetryAttempts" | "maxRetryDelayMs">;

function checkRetry(
  value: unknown,
  pointer: string,
  out: Diagnostic[],
  callId: string | undefined,
  limits: RetryLimits,
): boolean {
  if (!isPlainObject(value)) {
    const attempts = typeof value === "number" && Number.isInteger(value) && value > 0 ? value : 3;
    const hint = `write an object, e.g. "_retry": { "attempts": ${attempts}, "backoffMs": 500 } (its fields: ${Object.keys(RETRY_FIELDS).join(", ")})`;
    out.push(makeDiagnostic("CALL_SHAPE", "_retry must be an object", pointer, { callId, hint }));
    return false;
  }
  let ok = true;
  for (const [key, field] of Object.entries(value)) {
    const kind = retryFieldKind(key);
    const at = appendPointer(pointer, key);
    if (kind === undefined) {
      const hint = didYouMean(key, Object.keys(RETRY_FIELDS));
      out.push(makeDiagnostic("CALL_SHAPE", `unknown _retry field "${key}"`, at, { callId, hint }));
      ok = false;
    } else if (!retryFieldOk(kind, field)) {
      out.push(makeDiagnostic("CALL_SHAPE", `_retry.${key} has an invalid value`, at, { callId }));
      ok = false;
    } else {
      const limit = retryFieldLimit(key, limits);
      if (limit !== undefined && (field as number) > limit) {
        const setting = key === "attempts" ? "maxRetryAttempts" : "maxRetryDelayMs";
        const message = `_retry.${key} is ${field}, more than the limit of ${limit}`;
        out.push(
          makeDiagnostic("PLAN_LIMIT", message, at, { callId, hint: `lower it, or raise ${setting}` }),
        );
        ok = false;
      }
    }
  }
  return ok;
}

/**
 * Checks the meta-properties of a call (everything but `_tool`, `_id` and `_outputPath`, checked elsewhere):
 * unknown `_` keys (META_UNKNOWN), `_outputMethod` (OUTPUT_METHOD_INVALID), and the types of `_rerun`,
 * `_timeoutMs`, `_description`, `_retry` (CALL_SHAPE).
 */
export function checkCallMeta(
  raw: JsonObject,
  pointer: string,
  callId: string | undefined,
  out: Diagnostic[],
  limits: RetryLimits = DEFAULT_LIMITS,
): CallMeta {
  // Most calls set no meta-property beyond these three: they share the defaults (a new object otherwise).
  let meta: Mutable<CallMeta> | undefined;
  for (const key in raw) {
    if (key.charCodeAt(0) !== 0x5f || !Object.hasOwn(raw, key)) continue;
    if (key === "_tool" || key === "_id" || key === "_outputPath") continue;
    meta ??= { ...DEFAULT_META };
    const value = raw[key] as JsonValue;
    switch (key) {
      case "_outputMethod":
        if (isOutputMethod(value)) meta.outputMethod = value;
        else invalidMethod(value, appendPointer(pointer, key), callId, out);
        break;
      case "_rerun":
        if (typeof value === "boolean") meta.rerun = value;
        else shape("_rerun must be true or false", pointer, key, callId, out);
        break;
      case "_timeoutMs":
        // At most 2^31 − 1 ms (~24.8 days): a timer cannot hold more (Node fires it after 1 ms, bug B11).
        if (typeof value === "number" && value > 0 && value <= MAX_TIMER_MS) meta.timeoutMs = value;
        else
          shape(
            `_timeoutMs must be a positive number of ms, at most ${MAX_TIMER_MS}`,
            pointer,
            key,
            callId,
            out,
          );
        break;
      case "_description":
        if (typeof value === "string") meta.description = value;
        else shape("_description must be a string", pointer, key, callId, out);
        break;
      case "_retry":
        if (checkRetry(value, appendPointer(pointer, key), out, callId, limits))
          meta.retry = value as Partial<Omit<RetryPolicy, "shouldRetry">>;
        break;
      case "_output":
        meta.hasOutput = true;
        meta.output = value;
        break;
      default: {
        const hint = didYouMean(key, META_KEYS) ?? "parameters cannot start with _";
        const at = appendPointer(pointer, key);
        out.push(makeDiagnostic("META_UNKNOWN", `unknown meta-property "${key}"`, at, { callId, hint }));
      }
    }
  }
  return meta ?? DEFAULT_META;
}

/** The meta of a call that sets none (shared, frozen). */
const DEFAULT_META: CallMeta = Object.freeze({
  outputMethod: "set",
  description: undefined,
  rerun: false,
  timeoutMs: undefined,
  retry: undefined,
  hasOutput: false,
  output: undefined,
});

function shape(message: string, pointer: string, key: string, callId: string | undefined, out: Diagnostic[]) {
  out.push(makeDiagnostic("CALL_SHAPE", message, appendPointer(pointer, key), { callId }));
}

function invalidMethod(value: JsonValue, at: string, callId: string | undefined, out: Diagnostic[]): void {
  out.push(
    makeDiagnostic("OUTPUT_METHOD_INVALID", `unknown _outputMethod ${JSON.stringify(value)}`, at, {
      callId,
      hint:
        (typeof value === "string" ? didYouMean(value, Object.keys(OUTPUT_METHODS)) : undefined) ??
        `one of ${Object.keys(OUTPUT_METHODS).join(", ")}`,
    }),
  );
}
