import { ANNOTATION_KEYWORDS } from "./annotation-keywords.js";

/**
 * The JSON Schema subset OpenAI's strict structured outputs take (`strict: true`), as this package reads
 * it (decision 0028): OpenAI's "Structured model outputs" guide, section "Supported schemas", 2026 text.
 * Every schema has a `type` (one name), an `anyOf`, or a `$ref` into the root's `$defs`; an object lists all
 * its properties in `required` with `additionalProperties: false`; the root is an object, not an `anyOf`.
 */

/** The string formats strict mode documents. Another `format` is dropped (the compiler still checks it). */
export const STRICT_FORMATS: ReadonlySet<string> = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);

/**
 * Validation keywords strict mode lacks. Dropped where a tool's schema has them: the strict schema then
 * accepts more than the tool does, and the compiler still refuses what breaks them (`PARAM_INVALID`).
 */
export const DROPPED_KEYWORDS: ReadonlySet<string> = new Set([
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "minLength",
  "maxLength",
  "uniqueItems",
  "contains",
  "minContains",
  "maxContains",
  "propertyNames",
  "minProperties",
  "maxProperties",
  "unevaluatedItems",
]);

/**
 * Keywords that only annotate or locate (the 2020-12 meta-data vocabulary, and the core and content ones a
 * strict schema leaves out without changing what it accepts): never reported when left out.
 */
export const STRICT_SILENT_KEYWORDS: ReadonlySet<string> = new Set([
  ...ANNOTATION_KEYWORDS,
  "$comment",
  "$schema",
  "$id",
  "$anchor",
  "$dynamicAnchor",
  "$defs",
  "definitions",
  "contentMediaType",
  "contentEncoding",
  "contentSchema",
]);

/** The size limits strict mode documents for one schema. */
export interface StrictSchemaLimits {
  /** Object properties in the whole schema, `$defs` included (default 5,000). */
  readonly maxProperties: number;
  /** Levels of nested object schemas, the root being 1 (default 10). */
  readonly maxObjectDepth: number;
  /** Characters of all property names, `$defs` names, `enum` values and `const` values together (default 120,000). */
  readonly maxStringLength: number;
  /** `enum` values in the whole schema (default 1,000). */
  readonly maxEnumValues: number;
  /** Characters of one string `enum`'s values, when it has more than `largeEnumSize` of them (default 15,000). */
  readonly maxLargeEnumLength: number;
  /** The number of values above which `maxLargeEnumLength` applies to a string `enum` (default 250). */
  readonly largeEnumSize: number;
}

/** OpenAI's documented limits (2026 text; the 2024 launch allowed 100 properties and 5 levels). */
export const DEFAULT_STRICT_SCHEMA_LIMITS: StrictSchemaLimits = {
  maxProperties: 5000,
  maxObjectDepth: 10,
  maxStringLength: 120_000,
  maxEnumValues: 1000,
  maxLargeEnumLength: 15_000,
  largeEnumSize: 250,
};

/**
 * True when strict mode takes `source` as a `pattern`: a valid regular expression (`u` flag, as ajv
 * compiles it) with groups `(…)` and `(?:…)` only — no lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`, which
 * strict mode refuses), named group, backreference (`\1`, `\k<…>`) or Unicode property escape (`\p{…}`).
 * The last three strict mode does not document: refused to be safe (the pattern is then dropped).
 */
export function isStrictPattern(source: string): boolean {
  try {
    new RegExp(source, "u");
  } catch {
    return false;
  }
  let inClass = false;
  for (let i = 0; i < source.length; i += 1) {
    const char = source[i];
    if (char === "\\") {
      const next = source[i + 1] ?? "";
      if (!inClass && /[1-9kpP]/.test(next)) return false;
      if (inClass && /[pP]/.test(next)) return false;
      i += 1;
    } else if (inClass) {
      if (char === "]") inClass = false;
    } else if (char === "[") inClass = true;
    else if (char === "(" && source[i + 1] === "?" && source[i + 2] !== ":") return false;
  }
  return true;
}
