import { didYouMean, ObeliskError } from "@obelisk/core";
import { RETRY_FIELDS, retryFieldKind, retryFieldOk } from "./call-meta.js";
import { isPlainObject } from "./to-json-schema.js";
import type { RetryPolicy } from "./tool-definition.js";

/**
 * Most attempts a tool's own retry policy may give (decision record 0014). Higher than a plan's
 * `maxRetryAttempts` (default 10): the tool's author, not the plan, chooses it; bounded so that a policy
 * always ends (`Infinity`, or `Number.MAX_SAFE_INTEGER` as "forever", retried until the run was aborted).
 */
const MAX_TOOL_RETRY_ATTEMPTS = 1000;

/** The field of a tool's retry policy that a plan's `_retry` has not: a predicate, not JSON. */
const SHOULD_RETRY = "shouldRetry";

/** What each field of a tool's retry policy must be, for the USAGE message. */
const EXPECTED: Readonly<Record<string, string>> = {
  count: `a whole number from 1 to ${MAX_TOOL_RETRY_ATTEMPTS}`,
  ms: "a finite number of ms, 0 or more",
  factor: "a finite number, 1 or more",
  boolean: "true or false",
};

/**
 * Checks a tool's `retry` policy with the rules of a plan's `_retry` (`call-meta.ts`: known fields, each of
 * its kind, finite) and `attempts` at most MAX_TOOL_RETRY_ATTEMPTS; throws USAGE naming the tool and the
 * field; `shouldRetry`, the tool's own, must be a function; a field given as `undefined` is left out (its
 * default). Delays are not bounded: one longer than a timer holds waits 2^31 − 1 ms (decision record 0006).
 */
export function checkToolRetry(retry: unknown, what: string): Partial<RetryPolicy> {
  if (retry === undefined) return {};
  if (!isPlainObject(retry)) throw new ObeliskError("USAGE", `${what}: retry must be an object`);
  const given: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(retry)) {
    // a field given as undefined is left out (its default), as `exactOptionalPropertyTypes` callers may pass
    if (value === undefined) continue;
    if (key === SHOULD_RETRY) {
      if (typeof value !== "function")
        throw new ObeliskError("USAGE", `${what}: retry.shouldRetry must be a function, not ${shown(value)}`);
      given[key] = value;
      continue;
    }
    const kind = retryFieldKind(key);
    if (kind === undefined) {
      const fields = [...Object.keys(RETRY_FIELDS), SHOULD_RETRY];
      const hint = didYouMean(key, fields) ?? `one of ${fields.join(", ")}`;
      throw new ObeliskError("USAGE", `${what}: unknown field retry.${key} (${hint})`, { hint });
    }
    const ok =
      retryFieldOk(kind, value) && (kind !== "count" || (value as number) <= MAX_TOOL_RETRY_ATTEMPTS);
    if (!ok)
      throw new ObeliskError("USAGE", `${what}: retry.${key} must be ${EXPECTED[kind]}, not ${shown(value)}`);
    given[key] = value;
  }
  // a copy: the policy checked is the one used, whatever the host does to its object afterwards
  return Object.freeze(given) as Partial<RetryPolicy>;
}

/** A value as the message shows it (`NaN`, `Infinity`, `"3"`, `10n`, …; long texts cut). */
function shown(value: unknown): string {
  if (typeof value === "bigint") return `${value}n`; // JSON.stringify throws on it
  const text = typeof value === "number" ? String(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
