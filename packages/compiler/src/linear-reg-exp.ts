import { createRequire } from "node:module";
import { ecmaPatternError, withEcmaClasses } from "@obelisk/core";
import type { RegExpEngine } from "ajv/dist/types/index.js";
import type { RE2JS } from "re2js";
import { patternProgramSize } from "./pattern-program-size.js";

const require = createRequire(import.meta.url);
let engine: typeof RE2JS | undefined;

/** re2js, loaded on the first pattern (most schemas have none; importing it costs every process 20-50 ms). */
function re2(): typeof RE2JS {
  engine ??= (require("re2js") as typeof import("re2js")).RE2JS;
  return engine;
}

/**
 * Thrown when a pattern cannot be compiled to a linear-time matcher: RE2 cannot run it (backreferences,
 * lookaround), or it is not a valid ECMA-262 `u`-flag regular expression at all (stop 40: RE2 would take
 * `\-` or a lone `]` with a meaning of its own).
 */
export class UnsupportedPattern extends Error {
  /** The pattern as written in the schema. */
  readonly pattern: string;

  /** `invalid`: why JavaScript refuses the pattern (`ecmaPatternError`), when it does. */
  constructor(pattern: string, cause: unknown, invalid?: string) {
    super(
      invalid ??
        `pattern ${JSON.stringify(pattern)} is not supported (${cause instanceof Error ? cause.message : String(cause)}); ` +
          "patterns in plan input schemas run on a linear-time engine (RE2 syntax: no backreferences or lookaround)",
      { cause },
    );
    this.name = "UnsupportedPattern";
    this.pattern = pattern;
  }
}

/**
 * The most RE2 instructions one pattern of a plan's schema may compile to (`patternProgramSize`): re2js
 * takes ~25 ms and keeps ~0.7 MB for 10,000 (decision 0106); RE2's own limit, 1,398,101, took 6 s and 389 MB.
 */
export const MAX_PATTERN_PROGRAM = 10_000;

/** What a pattern over a program budget is told: how to make it smaller. */
export const PROGRAM_HINT =
  "shorten the repeat counts (RE2 writes a{1000} out as 1,000 instructions) or bound lengths with maxLength";

/** The first 60 characters of a pattern, quoted (a refused pattern may be kilobytes long). */
export function quotedPattern(pattern: string): string {
  return JSON.stringify(pattern.length > 60 ? `${pattern.slice(0, 60)}…` : pattern);
}

/**
 * A pattern compiled by re2js (ECMA-262 syntax translated, with ECMA-262's `.`, `\s`, `\S` and surrogate
 * pairs: stops 39, 40); throws `UnsupportedPattern` when JavaScript refuses it with the `u` flag (JSON
 * Schema's meaning), RE2 cannot run it, or (`budget`) it would compile to more instructions than that.
 */
function compileLinear(pattern: string, budget = Number.POSITIVE_INFINITY): RE2JS {
  const invalid = ecmaPatternError(pattern);
  if (invalid !== undefined) throw new UnsupportedPattern(pattern, undefined, invalid);
  const size = patternProgramSize(pattern);
  if (size > budget) {
    const count = `${size.toLocaleString("en-US")} RE2 instructions, over the ${budget.toLocaleString("en-US")} one pattern may use`;
    throw new UnsupportedPattern(
      pattern,
      undefined,
      `the pattern ${quotedPattern(pattern)} compiles to about ${count}: ${PROGRAM_HINT}`,
    );
  }
  try {
    const RE2 = re2();
    return RE2.compile(RE2.translateRegExp(withEcmaClasses(pattern)));
  } catch (error) {
    throw new UnsupportedPattern(pattern, error);
  }
}

/** A pattern compiled by re2js, or undefined when RE2 cannot run it (or JavaScript refuses it). */
function linearMatcher(pattern: string): RE2JS | undefined {
  try {
    return compileLinear(pattern);
  } catch {
    return undefined;
  }
}

/** Whether a pattern runs on the linear-time engine (RE2 syntax: no backreferences or lookaround). */
export function runsInLinearTime(pattern: string): boolean {
  return linearMatcher(pattern) !== undefined;
}

/** The matcher ajv calls: `test`, and `toString` (ajv keys its compiled patterns by it: one key per pattern). */
function asAjvPattern(compiled: RE2JS, pattern: string): { test(text: string): boolean; toString(): string } {
  return { test: (text: string) => compiled.test(text), toString: () => `re2:${pattern}` };
}

/**
 * ajv's `code.regExp` for schemas that come with a plan: JSON Schema patterns (ECMA-262 syntax, translated)
 * run on re2js, a pure-JS port of RE2 whose matching time is linear in the input (no catastrophic
 * backtracking, bug B10); a pattern RE2 cannot run is refused, and so is one that would compile to over
 * `MAX_PATTERN_PROGRAM` instructions (decision 0106). The `u` flag is implied: RE2 matches code points.
 */
export const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string) => asAjvPattern(compileLinear(pattern, MAX_PATTERN_PROGRAM), pattern),
  { code: "linearRegExp" },
);

/**
 * ajv's `code.regExp` for a host's tool schemas: the schema is trusted but the values it checks come from
 * plans, so patterns run on re2js too (a 30-character near-match of `^([A-Z]+)+$` took V8 ~30 s, blocking
 * every thread). A pattern RE2 cannot run (backreferences, lookaround) keeps JavaScript's engine: refusing
 * it would break a registry that worked; the registry warns about it (`REGISTRY_BACKTRACKING_PATTERN`).
 * One JavaScript refuses throws there too (the registry refused it first: `invalidPattern`).
 */
export const toolRegExp: RegExpEngine = Object.assign(
  (pattern: string, flags: string) => {
    const compiled = linearMatcher(pattern);
    return compiled === undefined ? new RegExp(pattern, flags) : asAjvPattern(compiled, pattern);
  },
  { code: "toolRegExp" },
);
