import { cutText } from "@obelisk/core";
import type { RecordedError } from "@obelisk/state";

/** How a failed attempt goes on, by its policy's `shouldRetry` answer (`RetryAnswer`). */
export type RetryVerdict =
  /** No retry: the call ends with the attempt's error. */
  | { readonly kind: "stop" }
  /** Retry after `delayMs` (the one asked for), or after the policy's backoff when undefined. */
  | { readonly kind: "retry"; readonly delayMs: number | undefined }
  /** An answer whose delay is not one (`delayMs` as given): the call fails `USAGE`. */
  | { readonly kind: "refused"; readonly delayMs: unknown };

/** No retry. */
export const STOP: RetryVerdict = Object.freeze({ kind: "stop" });

/** A retry after the policy's backoff. */
export const RETRY_AFTER_BACKOFF: RetryVerdict = Object.freeze({ kind: "retry", delayMs: undefined });

/**
 * Reads what `shouldRetry` answered, once: `true` is a retry after the backoff; `{ retry: true, delayMs }` a
 * retry after `delayMs` as it is, or none when it is above `maxDelayMs` (a retry sooner than asked would
 * only meet the same refusal); a `delayMs` that is not a finite number, 0 or more, is refused. Anything
 * else is no, and so is an answer whose fields throw when read (as a predicate that throws is).
 */
export function readRetryAnswer(answer: unknown, maxDelayMs: number): RetryVerdict {
  if (answer === true) return RETRY_AFTER_BACKOFF;
  if (typeof answer !== "object" || answer === null) return STOP;
  try {
    const { retry, delayMs } = answer as { readonly retry?: unknown; readonly delayMs?: unknown };
    if (retry !== true) return STOP;
    if (delayMs === undefined) return RETRY_AFTER_BACKOFF;
    if (typeof delayMs !== "number" || !Number.isFinite(delayMs) || delayMs < 0)
      return { kind: "refused", delayMs };
    return delayMs > maxDelayMs ? STOP : { kind: "retry", delayMs };
  } catch {
    return STOP;
  }
}

/** The longest part of the failed attempt's message a refusal repeats. */
const MAX_ATTEMPT_MESSAGE_CHARS = 200;

/**
 * The error of a call whose `shouldRetry` asked for a delay that is not one: `USAGE`, naming the tool, the
 * value and the attempt, with the message of the attempt's own error (the call is not retried).
 */
export function refusedDelay(
  toolName: string,
  delayMs: unknown,
  failed: RecordedError,
  attempt: number,
): RecordedError {
  const cause = cutText(failed.message, MAX_ATTEMPT_MESSAGE_CHARS);
  return {
    name: "ObeliskError",
    code: "USAGE",
    message:
      `tool "${toolName}": retry.shouldRetry answered delayMs ${shown(delayMs)} after attempt ${attempt}: a delay ` +
      `must be a finite number of ms, 0 or more (leave it out for the policy's backoff); attempt ${attempt} ` +
      `failed with: ${cause}`,
  };
}

/** A value as the message shows it: numbers as JavaScript writes them (`NaN`, `-1`), strings quoted, else the type. */
function shown(value: unknown): string {
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return JSON.stringify(cutText(value, 40));
  if (typeof value === "bigint") return `${value}n`;
  if (value === null) return "null";
  const type = Array.isArray(value) ? "array" : typeof value;
  return `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
}
