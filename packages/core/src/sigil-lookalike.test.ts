import { describe, expect, it } from "vitest";
import { createKindTable } from "./kinds.js";
import { DEFAULT_LIMITS } from "./limits.js";
import { parseExpression } from "./parse-expression.js";
import { parseOutputPath } from "./parse-output-path.js";
import { sigilLookalikeLength } from "./sigil-lookalike.js";

const kinds = createKindTable();

/**
 * What stands for the dagger, and what does not (decision 0108): the compiler's test of
 * literals (`sigil-lookalike-agreement.test.ts`) holds the same rows. Before, core took a quote, `]`, a
 * control character for the dagger and not `-`; the compiler took no lone `\`.
 */
const LOOKALIKES: readonly (readonly [string, number])[] = [
  ["\u2021", 1],
  ["+", 1],
  ["-", 1],
  ["@", 1],
  ["#", 1],
  ["*", 1],
  ["%", 1],
  ["~", 1],
  ["|", 1],
  ["`", 1],
  ["&", 1],
  ["\\", 1],
  ["&dagger;", 8],
  ["\\u2020", 6],
  ["\u007f", 1],
  ["\u00a0", 1],
  ["\u{1F600}", 2],
];
const NOT_LOOKALIKES: readonly string[] = [
  "'",
  '"',
  "]",
  "[",
  "{",
  "}",
  ".",
  " ",
  "\t",
  "\u000b",
  "\u0000",
  "_",
  "$",
  "a",
  "Z",
  "1",
];

describe("one look-alike rule for the dagger (decisions 0097, 0108)", () => {
  it.each(LOOKALIKES)("%j stands for the dagger (length %i)", (sigil, length) => {
    expect(sigilLookalikeLength(`${sigil}state.user`, 0)).toBe(length);
    expect(sigilLookalikeLength(`x${sigil}state.user`, 1)).toBe(length);
  });

  it.each(NOT_LOOKALIKES)("%j does not", (sigil) => {
    expect(sigilLookalikeLength(`${sigil}state.user`, 0)).toBe(0);
  });

  it("past the end, nothing", () => {
    expect(sigilLookalikeLength("", 0)).toBe(0);
    expect(sigilLookalikeLength("+", 1)).toBe(0);
  });

  it.each(LOOKALIKES)("_outputPath %j + state.user: did you mean †state.user", (sigil) => {
    const parsed = parseOutputPath(`${sigil}state.user`, kinds, DEFAULT_LIMITS);
    expect(parsed.ok ? undefined : parsed.issue.hint).toBe(
      'did you mean "†state.user"? (every reference starts with "†")',
    );
  });

  it.each(NOT_LOOKALIKES.filter((sigil) => sigil !== "$"))(
    "_outputPath %j + state.user: no dagger hint",
    (sigil) => {
      const parsed = parseOutputPath(`${sigil}state.user`, kinds, DEFAULT_LIMITS);
      expect(parsed.ok ? "" : (parsed.issue.hint ?? "")).not.toContain('"†state.user"');
    },
  );

  it("an operand after || takes the same rule", () => {
    const hint = (text: string) => {
      const parsed = parseExpression(text, kinds, DEFAULT_LIMITS);
      return parsed.ok ? undefined : parsed.issue.hint;
    };
    expect(hint("†input.a || \\state.b")).toBe('did you mean "†state.b"? (every reference starts with "†")');
    expect(hint("†input.a || -state.b")).toBe('did you mean "†state.b"? (every reference starts with "†")');
    expect(hint("†input.a || ]state.b")).toBeUndefined();
  });
});
