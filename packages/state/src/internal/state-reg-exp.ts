import { createRequire } from "node:module";
import { withEcmaClasses } from "@obelisk/core";
import type { RegExpEngine } from "ajv/dist/types/index.js";
import type { RE2JS } from "re2js";

const require = createRequire(import.meta.url);
let engine: typeof RE2JS | undefined;

/** re2js, loaded on the first pattern (most state schemas have none). */
function re2(): typeof RE2JS {
  engine ??= (require("re2js") as typeof import("re2js")).RE2JS;
  return engine;
}

/**
 * ajv's `code.regExp` for a `stateSchema` (decision 0057, Amended): the schema is the host's, but the values
 * it checks come from plans, so a pattern runs on re2js (ECMA-262 syntax translated, linear in the input);
 * one RE2 cannot run (backreferences, lookaround) keeps JavaScript's engine, as for tool schemas. The
 * compiler's `toolRegExp` does the same; state does not depend on the compiler, so this is its copy.
 */
export const stateRegExp: RegExpEngine = Object.assign(
  (pattern: string, flags: string) => {
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
