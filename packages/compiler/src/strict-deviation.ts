import type { StrictSchemaLimits } from "./strict-schema-rules.js";

/**
 * Why the strict plan schema differs from the full one at some place, and how: `wider` (it accepts what the
 * tool refuses — the compiler still refuses it), `narrower` (a plan the tool accepts cannot be written
 * there, except as a reference), `over-limit` (strict mode may refuse the whole schema).
 */
export const STRICT_DEVIATION_REASONS = {
  /** A validation keyword strict mode lacks was dropped (`keyword` names it). */
  "keyword-dropped": { effect: "wider" },
  /** A tuple's positions became one item schema: any item may stand at any position. */
  tuple: { effect: "wider" },
  /** An object takes keys besides its named properties: only the named ones can be written. */
  "open-object": { effect: "narrower" },
  /** A schema takes any value (no type, or an unresolved `$ref`): an object in it can only be `{}`. */
  "any-value": { effect: "narrower" },
  /**
   * An optional property whose schema takes any value without naming `null`: its `null` means absent, so a
   * `null` value can only come through a reference.
   */
  "null-absent": { effect: "narrower" },
  /** The whole schema is over one of the documented size limits (`limit` names it). */
  "size-limit": { effect: "over-limit" },
} as const;

/** A reason in `STRICT_DEVIATION_REASONS`. */
export type StrictDeviationReason = keyof typeof STRICT_DEVIATION_REASONS;

/** One place where the strict plan schema could not say what the full plan schema says. */
export interface StrictSchemaDeviation {
  /**
   * The tool whose schema it is in. A `size-limit` names the tool of the deepest object (`maxObjectDepth`)
   * or of the largest enum (`maxEnumValues`, `maxLargeEnumLength`); it has none for the whole schema's
   * counts (`maxProperties`, `maxStringLength`) or where Obelisk's own part of the schema decides.
   */
  readonly tool?: string;
  /** Which of the tool's schemas `pointer` points into. */
  readonly schema?: "input" | "output" | "outputPath";
  /** JSON Pointer into that schema (`""` its root, or the whole plan schema for a `size-limit` without tool). */
  readonly pointer: string;
  /** Why: see `STRICT_DEVIATION_REASONS`. */
  readonly reason: StrictDeviationReason;
  /** The keyword dropped (`keyword-dropped`). */
  readonly keyword?: string;
  /** The limit passed (`size-limit`). */
  readonly limit?: keyof StrictSchemaLimits;
  /** What it means, in words. */
  readonly message: string;
}

/** The deviations without repeats (a subschema reached twice, through a `$ref` and in place, is noted once). */
export function uniqueDeviations(deviations: readonly StrictSchemaDeviation[]): StrictSchemaDeviation[] {
  const seen = new Set<string>();
  return deviations.filter((d) => {
    const key = JSON.stringify([d.tool, d.schema, d.pointer, d.reason, d.keyword, d.limit]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
