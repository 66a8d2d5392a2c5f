import type { RegExpEngine } from "ajv/dist/types/index.js";
import { RE2JS } from "re2js";

/** Thrown when a pattern cannot be compiled to a linear-time matcher (backreferences, lookaround, bad syntax). */
export class UnsupportedPattern extends Error {
  /** The pattern as written in the schema. */
  readonly pattern: string;

  constructor(pattern: string, cause: unknown) {
    super(
      `pattern ${JSON.stringify(pattern)} is not supported (${cause instanceof Error ? cause.message : String(cause)}); ` +
        "patterns in plan input schemas run on a linear-time engine (RE2 syntax: no backreferences or lookaround)",
      { cause },
    );
    this.name = "UnsupportedPattern";
    this.pattern = pattern;
  }
}

/**
 * ajv's `code.regExp` for schemas that come with a plan: JSON Schema patterns (ECMA-262 syntax, translated)
 * run on re2js, a pure-JS port of RE2 whose matching time is linear in the input (no catastrophic
 * backtracking, bug B10). The `u` flag is implied: RE2 matches code points.
 */
export const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string) => {
    let compiled: RE2JS;
    try {
      compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
    } catch (error) {
      throw new UnsupportedPattern(pattern, error);
    }
    // ajv keys its compiled patterns by `toString()`: one key per source pattern.
    return { test: (text: string) => compiled.test(text), toString: () => `re2:${pattern}` };
  },
  { code: "linearRegExp" },
);
