import { MAX_VALUE_DEPTH, parsePlanText } from "@obelisk/core";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseInput, parseJsonValue } from "./parse-input.js";
import { mayHideSomething } from "./strict-json.js";

/** What core's reader refuses in a value's text (as the CLI asks it: no plan limits). */
function coreRefuses(text: string): boolean {
  const limits = {
    maxDocumentBytes: Number.POSITIVE_INFINITY,
    maxStringLength: Number.POSITIVE_INFINITY,
    maxCalls: Number.POSITIVE_INFINITY,
    maxDepth: MAX_VALUE_DEPTH,
  };
  return parsePlanText(text, { limits }).diagnostics.some((problem) => problem.code === "JSON_SYNTAX");
}

/** Number literals, some of which JSON.parse reads as another number than they say. */
const NUMBERS = [
  "0",
  "-0",
  "1",
  "1.5",
  "1e-5",
  "0.0e-5",
  "9007199254740991",
  "9007199254740992",
  "9007199254740993",
  "12345678901234567890",
  "1e999",
  "-1e999",
  "1e-400",
  "0.1e-330",
];
/** JSON text of values with few key names (so keys repeat), those numbers, and strings that look like members. */
const jsonText = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(...NUMBERS, "true", "null", '"a"', '"a\\":b"', '"x:"', '":"'),
    fc.array(tie("value"), { maxLength: 4 }).map((items) => `[${items.join(", ")}]`),
    fc
      .array(fc.tuple(fc.constantFrom("a", "b", 'a\\":', "c d"), tie("value")), { maxLength: 4 })
      .map((members) => `{${members.map(([key, value]) => `"${key}" : ${value}`).join(",\n")}}`),
  ),
})).value;

describe("the --input / --value gate: JSON.parse once, core's reader only when something may hide", () => {
  it("lets through nothing core's reader refuses (a repeated key, a number JSON.parse misreads)", () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        if (coreRefuses(text)) expect(mayHideSomething(text, JSON.parse(text))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("says nothing hides in plain JSON; a look-alike is read by core's reader and accepted", () => {
    for (const text of ['{"a": 1, "b": [2, "c:d"]}', "[9007199254740991, -0, 1.5]", '{"n": 0, "s": "x"}'])
      expect(mayHideSomething(text, JSON.parse(text)), text).toBe(false);
    // a string holding `\":` counts as a member, a zero beside `e-` may have underflowed: the tree says no
    const alike = '["a\\":b", 1e-5, 0]';
    expect(mayHideSomething(alike, JSON.parse(alike))).toBe(true);
    expect(parseJsonValue(alike, "--value")).toEqual(['a":b', 0.00001, 0]);
  });

  describe("the text is parsed once when nothing hides", () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it("--input and --value: one JSON.parse each", () => {
      const parse = vi.spyOn(JSON, "parse");
      expect(parseInput('{"type": "input", "input": {"name": "Ada", "n": [1, 2.5]}}', "/")?.value).toEqual({
        type: "input",
        input: { name: "Ada", n: [1, 2.5] },
      });
      expect(parse).toHaveBeenCalledTimes(1);
      expect(parseJsonValue('{"by": "ops", "at": 0}', "--value")).toEqual({ by: "ops", at: 0 });
      expect(parse).toHaveBeenCalledTimes(2);
    });
  });
});
