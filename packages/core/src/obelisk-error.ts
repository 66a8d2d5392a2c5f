import type { ObeliskCode } from "./diagnostic-codes.js";

const MARKER = Symbol.for("obelisk.error");

/** The one error class Obelisk throws (misuse, THREAD_BUSY, PLAN_NOT_APPROVED, …). Check with `ObeliskError.is()`. */
export class ObeliskError extends Error {
  /** Stable code. */
  readonly code: ObeliskCode;
  /** Extra structured data (e.g. diagnostics of an invalid plan). */
  readonly data: unknown;
  /** Hint for the user, when there is one. */
  readonly hint: string | undefined;

  /** Creates an error with a stable code. */
  constructor(
    code: ObeliskCode,
    message: string,
    options: { cause?: unknown; data?: unknown; hint?: string } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ObeliskError";
    this.code = code;
    this.data = options.data;
    this.hint = options.hint;
    Object.defineProperty(this, MARKER, { value: true });
  }

  /** True for any ObeliskError, even one from another copy of the package. */
  static is(value: unknown): value is ObeliskError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}
