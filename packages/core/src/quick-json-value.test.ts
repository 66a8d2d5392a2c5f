import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolveLimits } from "./limits.js";
import { parsePlanText } from "./parse-plan-text.js";
import { quickJsonValue } from "./quick-json-value.js";

/** Over QUICK_MAX_DEPTH: the same text is read through the tree only (the reader before the quick path). */
const THROUGH_THE_TREE = { maxDepth: 1001 };

/** What a reader of the result sees: diagnostics, the document and where each diagnostic points. */
function seen(text: string, limits: object) {
  const result = parsePlanText(text, { limits });
  return {
    diagnostics: result.diagnostics.map((d) => ({ ...d })),
    document: result.document,
    positions: result.diagnostics.map((d) => result.sourceMap?.positionOf(d.pointer)),
    firstCall: result.sourceMap?.positionOf("/plan/0"),
    offset: result.sourceMap?.positionOfOffset(Math.floor(text.length / 2)),
  };
}

/** Values whose text the quick path must hand to the tree: each needs a check only the tree can make. */
const tricky = fc.constantFrom(
  '{"a":1,"a":2}',
  "12345678901234567890",
  "-0",
  "1e-400",
  "1e999",
  `"${"x".repeat(70)}"`,
  '{"__proto__":{"x":1}}',
  '"a\\":b"',
  "0.0",
  '"\\u2020state.x"',
);

/** A plan text with generated parameters and, sometimes, a tricky value spliced in as a parameter. */
const planTexts = fc
  .tuple(fc.jsonValue({ maxDepth: 4 }), fc.option(tricky, { nil: undefined }), fc.boolean())
  .map(([params, extra, spaced]) => {
    const call = `{"_tool":"t","p":${JSON.stringify(params)}${extra === undefined ? "" : `,"q":${extra}`}}`;
    const text = `{"type":"plan","plan":[${call}]}`;
    return spaced ? text.replaceAll(":", " : ").replaceAll(",", ",\n ") : text;
  });

describe("reading plan text through JSON.parse first", () => {
  it("gives what the tree reader gives: diagnostics, document and positions (property)", () => {
    fc.assert(
      fc.property(planTexts, (text) => {
        expect(seen(text, { maxStringLength: 64 })).toEqual(
          seen(text, { ...THROUGH_THE_TREE, maxStringLength: 64 }),
        );
      }),
      { numRuns: 400 },
    );
  });

  it.each([
    ['{"a":1,"a":2}', "a repeated key"],
    ["[12345678901234567890]", "an integer beyond 2^53"],
    ["[-0]", "-0 (read as 0 by the tree reader)"],
    ["[1e-400]", "a zero that underflowed"],
    ['["xx"]', "a string over maxStringLength"],
    ['{"xx":1}', "a key over maxStringLength"],
    ["[1,", "text that is not JSON"],
  ])("hands %s to the tree (%s)", (text) => {
    expect(quickJsonValue(text, resolveLimits({ maxStringLength: 1 }))).toBeUndefined();
  });

  it("reads ordinary text itself, __proto__ keys as own data", () => {
    const read = quickJsonValue('{"__proto__":{"x":1},"s":"a:b","n":[0,1.5]}', resolveLimits({}));
    expect(read?.value).toEqual(JSON.parse('{"__proto__":{"x":1},"s":"a:b","n":[0,1.5]}'));
    expect(Object.hasOwn(read?.value as object, "__proto__")).toBe(true);
  });
});
