import { createRequire } from "node:module";
import { appendPointer, ecmaPatternError, type JsonObject, withEcmaClasses } from "@obelisk/core";
import type { RegExpEngine } from "ajv/dist/types/index.js";
import type { RE2JS } from "re2js";

const require = createRequire(import.meta.url);
let engine: typeof RE2JS | undefined;

/** re2js, loaded on the first pattern (most state schemas have none). */
function re2(): typeof RE2JS {
  engine ??= (require("re2js") as typeof import("re2js")).RE2JS;
  return engine;
}

/** Thrown (through ajv's compile) for a pattern JavaScript refuses with the `u` flag: `ecmaPatternError`'s message. */
class InvalidStatePattern extends Error {
  /** The pattern as written in the schema. */
  readonly pattern: string;

  constructor(pattern: string, message: string) {
    super(message);
    this.name = "InvalidStatePattern";
    this.pattern = pattern;
  }
}

/** Where `pattern` is written in `schema` (a `pattern` value or a `patternProperties` key), or undefined. */
function patternPointer(schema: JsonObject, pattern: string): string | undefined {
  const stack: [unknown, string, string | undefined][] = [[schema, "", undefined]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, pointer, nodeKey] = next;
    if (typeof node !== "object" || node === null) continue;
    const entries = Object.entries(node);
    for (const [key, value] of entries)
      if ((key === "pattern" && value === pattern) || (nodeKey === "patternProperties" && key === pattern))
        return appendPointer(pointer, key);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, value] = entries[i] as [string, unknown];
      stack.push([value, appendPointer(pointer, key), key]);
    }
  }
  return undefined;
}

/**
 * The message of `USAGE` for an error thrown while compiling `schema`: for a pattern JavaScript refuses,
 * where it is and why (stop 40); otherwise the error's message.
 */
export function stateSchemaProblem(schema: JsonObject, error: unknown): string {
  if (!(error instanceof InvalidStatePattern))
    return `invalid stateSchema: ${error instanceof Error ? error.message : String(error)}`;
  const pointer = patternPointer(schema, error.pattern);
  return `invalid stateSchema${pointer === undefined ? "" : ` at ${pointer}`}: ${error.message}`;
}

/**
 * ajv's `code.regExp` for a `stateSchema` (decision 0057, Amended): the schema is the host's, but the values
 * it checks come from plans, so a pattern runs on re2js (ECMA-262 syntax translated, linear in the input);
 * one RE2 cannot run (backreferences, lookaround) keeps JavaScript's engine, as for tool schemas. The
 * compiler's `toolRegExp` does the same; state does not depend on the compiler, so this is its copy. A
 * pattern JavaScript refuses with the `u` flag is refused (stop 40), though RE2 might take it (`\-`, `]`).
 */
export const stateRegExp: RegExpEngine = Object.assign(
  (pattern: string, flags: string) => {
    const invalid = ecmaPatternError(pattern);
    if (invalid !== undefined) throw new InvalidStatePattern(pattern, invalid);
    let compiled: RE2JS;
    try {
      const RE2 = re2();
      compiled = RE2.compile(RE2.translateRegExp(withEcmaClasses(pattern)));
    } catch {
      return new RegExp(pattern, flags);
    }
    // ajv keys its compiled patterns by `toString`: one key per pattern
    return { test: (text: string) => compiled.test(text), toString: () => `re2:${pattern}` };
  },
  { code: "stateRegExp" },
);
