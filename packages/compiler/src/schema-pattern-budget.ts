import { ecmaPatternError, type JsonValue } from "@obelisk/core";
import { MAX_PATTERN_PROGRAM, PROGRAM_HINT, quotedPattern, UnsupportedPattern } from "./linear-reg-exp.js";
import { patternProgramSize } from "./pattern-program-size.js";
import { firstPattern } from "./schema-patterns.js";

/**
 * The most RE2 instructions the distinct patterns of one plan schema may compile to together (each one
 * is held to `MAX_PATTERN_PROGRAM`): ~60 ms of re2js and ~2 MB kept (decision 0106). zod's email, uuid,
 * iso datetime, ipv6 and the other string formats with a pattern come to 2,038 together.
 */
export const MAX_SCHEMA_PATTERN_PROGRAM = 25_000;

/**
 * Throws `UnsupportedPattern` for the pattern of a plan's schema that brings the sum of its distinct
 * patterns' programs (`patternProgramSize`; ajv compiles a pattern written twice once) over
 * `MAX_SCHEMA_PATTERN_PROGRAM`; one linear scan per pattern, before ajv compiles any. Patterns JavaScript
 * refuses, and one over `MAX_PATTERN_PROGRAM` alone, are left to ajv's compile (`linearRegExp` refuses them).
 */
export function refuseLargePatterns(schema: JsonValue): void {
  const seen = new Set<string>();
  let total = 0;
  const found = firstPattern(schema, (source) => {
    if (seen.has(source) || ecmaPatternError(source) !== undefined) return false;
    seen.add(source);
    const size = patternProgramSize(source);
    if (size > MAX_PATTERN_PROGRAM) return false; // refused alone by ajv's compile (\`linearRegExp\`)
    total += size;
    return total > MAX_SCHEMA_PATTERN_PROGRAM;
  });
  if (found === undefined) return;
  const budget = MAX_SCHEMA_PATTERN_PROGRAM.toLocaleString("en-US");
  const message =
    `the schema's patterns compile to about ${total.toLocaleString("en-US")} RE2 instructions together, over the ` +
    `${budget} one schema may use (the sum passes it at ${quotedPattern(found.source)}): ${PROGRAM_HINT}`;
  throw new UnsupportedPattern(found.source, undefined, message);
}
