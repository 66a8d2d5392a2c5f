/** Configurable limits on untrusted input (SPEC §11). Exceeding one is a `PLAN_LIMIT` diagnostic, never a crash. */
export interface Limits {
  /** Maximum size of a plan document, in bytes (UTF-8). Default 16 MiB. */
  readonly maxDocumentBytes: number;
  /** Maximum number of calls in a plan. Default 100,000. */
  readonly maxCalls: number;
  /** Maximum nesting depth of a plan document (objects and arrays). Default 64. */
  readonly maxDepth: number;
  /** Maximum length of any string in a plan, in characters. Default 1,000,000. */
  readonly maxStringLength: number;
  /** Maximum number of segments in one reference or output path. Default 32. */
  readonly maxPathDepth: number;
  /** Maximum size of one value written or stored (tool output, `state set`), in bytes of JSON. Default 64 MiB. */
  readonly maxValueBytes: number;
  /**
   * Maximum `_retry.attempts` a plan may ask for. Default 10. A tool's own `retry` policy is not held to it
   * (trusted configuration); it is capped at 1000 attempts at registration (decision 0014).
   */
  readonly maxRetryAttempts: number;
  /** Maximum `_retry.backoffMs` and `_retry.maxDelayMs` a plan may ask for, in ms. Default 60,000. */
  readonly maxRetryDelayMs: number;
  /**
   * Maximum number of targets in one `_outputPath`, over all its `||` alternatives and `&&` fan-outs.
   * Default 1,000: a value is checked against every other target of its call, and written to each.
   */
  readonly maxOutputTargets: number;
  /**
   * Maximum number of writer links in a plan: each distinct reference text the plan reads counts one per
   * call that writes a path overlapping it (readers of one text share its links). Default 1,000,000: it
   * bounds what validating and scheduling a plan cost (n readers of distinct elements of a path k calls
   * write need n × k).
   */
  readonly maxWriterLinks: number;
}

/** Safe defaults for every limit. */
export const DEFAULT_LIMITS: Limits = {
  maxDocumentBytes: 16 * 1024 * 1024,
  maxCalls: 100_000,
  maxDepth: 64,
  maxStringLength: 1_000_000,
  maxPathDepth: 32,
  maxValueBytes: 64 * 1024 * 1024,
  maxRetryAttempts: 10,
  maxRetryDelayMs: 60_000,
  maxOutputTargets: 1_000,
  maxWriterLinks: 1_000_000,
};

/**
 * Limits as callers give them: any of them, each left out or `undefined` for its default (so that an
 * `exactOptionalPropertyTypes` consumer may pass `{ maxCalls: maybeN }`). `Partial<Limits>` is one.
 */
export type LimitOverrides = { readonly [Name in keyof Limits]?: Limits[Name] | undefined };

/** Fills unspecified limits with their defaults (a limit given as `undefined` is unspecified). */
export function resolveLimits(partial: LimitOverrides = {}): Limits {
  const limits: { -readonly [Name in keyof Limits]: Limits[Name] } = { ...DEFAULT_LIMITS };
  for (const name of Object.keys(DEFAULT_LIMITS) as (keyof Limits)[]) {
    const value = partial[name];
    if (value !== undefined) limits[name] = value;
  }
  return limits;
}
