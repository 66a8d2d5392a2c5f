import { createRequire } from "node:module";
import type { RegExpEngine } from "ajv/dist/types/index.js";
import type { RE2JS } from "re2js";

const require = createRequire(import.meta.url);
let engine: typeof RE2JS | undefined;

/** re2js, loaded on the first pattern (most plans have none; importing it costs every process 20-50 ms). */
function re2(): typeof RE2JS {
  engine ??= (require("re2js") as typeof import("re2js")).RE2JS;
  return engine;
}

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
      const RE2 = re2();
      compiled = RE2.compile(RE2.translateRegExp(pattern));
    } catch (error) {
      throw new UnsupportedPattern(pattern, error);
    }
    // ajv keys its compiled patterns by `toString()`: one key per source pattern.
    return { test: (text: string) => compiled.test(text), toString: () => `re2:${pattern}` };
  },
  { code: "linearRegExp" },
);
