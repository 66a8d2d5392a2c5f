import { MAX_VALUE_DEPTH, parseJsonText } from "@obelisk/core";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseInput, parseJsonValue } from "./parse-input.js";

/** What core's value reader answers for a value's text (as the CLI asks it: no document or string limit). */
function coreReads(text: string) {
  const limits = {
    maxDocumentBytes: Number.POSITIVE_INFINITY,
    maxStringLength: Number.POSITIVE_INFINITY,
    maxDepth: MAX_VALUE_DEPTH,
  };
  return parseJsonText(text, { limits });
}

/** The value parseJsonValue answers, or "refused" when it throws. */
function cliReads(text: string): unknown {
  try {
    return parseJsonValue(text, "--value");
  } catch {
    return "refused";
  }
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
    fc.constantFrom(...NUMBERS, "true", "null", '"a"', '"a\\":b"', '"x:"', '":"', "nope", "{"),
    fc.array(tie("value"), { maxLength: 4 }).map((items) => `[${items.join(", ")}]`),
    fc
      .array(fc.tuple(fc.constantFrom("a", "b", 'a\\":', "c d"), tie("value")), { maxLength: 4 })
      .map((members) => `{${members.map(([key, value]) => `"${key}" : ${value}`).join(",\n")}}`),
  ),
})).value;

describe("--input and --value are read by core's value reader (parseJsonText), once", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("refuses exactly what core's reader refuses, and reads the same value otherwise", () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        const core = coreReads(text);
        expect(cliReads(text)).toEqual(core.ok ? core.value : "refused");
      }),
      { numRuns: 2000 },
    );
  });

  it("a look-alike of a problem is read by the tree and accepted; -0 reads as 0, as in a plan", () => {
    expect(parseJsonValue('["a\\":b", 1e-5, 0]', "--value")).toEqual(['a":b', 0.00001, 0]);
    expect(Object.is(parseJsonValue("-0", "--value"), 0)).toBe(true);
  });

  it("plain JSON is parsed once: one JSON.parse per --input and --value, nothing else", () => {
    const parse = vi.spyOn(JSON, "parse");
    expect(parseInput('{"type": "input", "input": {"name": "Ada", "n": [1, 2.5]}}', "/")?.value).toEqual({
      type: "input",
      input: { name: "Ada", n: [1, 2.5] },
    });
    expect(parse).toHaveBeenCalledTimes(1);
    expect(parseJsonValue('{"by": "ops", "at": 0}', "--value")).toEqual({ by: "ops", at: 0 });
    expect(parse).toHaveBeenCalledTimes(2);
  });

  it("a value deeper than a stored value may be is refused at reading, by its depth (not a 1,000-segment pointer)", () => {
    const deep = `${"[".repeat(MAX_VALUE_DEPTH + 1)}${"]".repeat(MAX_VALUE_DEPTH + 1)}`;
    expect(() => parseJsonValue(deep, "--value")).toThrow(
      `--value is nested deeper than ${MAX_VALUE_DEPTH} levels, the most a stored value may have`,
    );
    expect(parseJsonValue(`${"[".repeat(10)}${"]".repeat(10)}`, "--value")).toEqual([[[[[[[[[[]]]]]]]]]]);
  });

  it("text that is no JSON is 'malformed JSON' with core's line and column; a bare word is told to quote it", () => {
    expect(() => parseJsonValue("[1,", "--value")).toThrow(
      /^malformed JSON in --value: invalid JSON at line 1, column 4/,
    );
    expect(() => parseInput("{ nope", "/")).toThrow(
      /^malformed JSON in inline --input: invalid JSON at line 1/,
    );
    // with core's hint naming the cause (s32 L4): a shell user's single quotes, a value cut short
    const hint = (text: string) => {
      try {
        parseJsonValue(text, "--value");
      } catch (error) {
        return (error as { hint?: string }).hint;
      }
      throw new Error(`accepted: ${text}`);
    };
    expect(hint("{'by': 'ops'}")).toBe(`JSON strings and keys take double quotes: write "name", not 'name'`);
    expect(hint('{"by": "ops"')).toBe("the text ends before the JSON does: was it cut short?");
    expect(hint("[1, 2,]")).toBe("remove the comma before this ]: JSON allows no trailing comma");
    expect(() => parseJsonValue("yes", "--value")).toThrow(
      `--value must be JSON (for a string, quote it: '"yes"')`,
    );
  });
});
