import { ObeliskError } from "../index.js";

const codeOfError = (error: unknown): string => (ObeliskError.is(error) ? error.code : "not an ObeliskError");

/** The ObeliskError code `work` (a promise, or a function run now) rejects or throws with; undefined if it succeeds. */
export async function codeOf(work: Promise<unknown> | (() => unknown)): Promise<string | undefined> {
  try {
    await (typeof work === "function" ? work() : work);
    return undefined;
  } catch (error) {
    return codeOfError(error);
  }
}

/** The ObeliskError code a synchronous `work` throws with; undefined if it returns. */
export function thrownCode(work: () => unknown): string | undefined {
  try {
    work();
    return undefined;
  } catch (error) {
    return codeOfError(error);
  }
}

/**
 * The ObeliskError a synchronous `work` throws, of `code` when given (another error is rethrown; fails the
 * test when it returns).
 */
export function thrownError(work: () => unknown, code?: string): ObeliskError {
  try {
    work();
  } catch (error) {
    if (ObeliskError.is(error) && (code === undefined || error.code === code)) return error;
    throw error;
  }
  throw new Error("nothing was thrown");
}

/** The ObeliskError `promise` rejects with (fails the test when it resolves or rejects with another error). */
export async function rejectionOf(promise: Promise<unknown>): Promise<ObeliskError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!ObeliskError.is(error)) throw new Error(`expected an ObeliskError, got ${String(error)}`);
  return error;
}
