import { describe, expect, it } from "vitest";
import { parseExpression } from "./parse-expression.js";
import { parseOutputPath } from "./parse-output-path.js";
import { parseReference } from "./parse-reference.js";

/** The hint of the issue `parse` gives for `text` (the parse must fail). */
function hintOf(parse: (text: string) => { ok: boolean }, text: string): string | undefined {
  const result = parse(text) as { ok: false; issue: { hint?: string } } | { ok: true };
  if (result.ok) throw new Error(`${text} parsed`);
  return result.issue.hint;
}

describe("a name outside ASCII in dot notation: the hint gives the bracket form (review s33r, 'no hint' list)", () => {
  it.each<[string, string]>([
    ["†state.ünï", '†state["ünï"]'],
    ["†state.naïve", '†state["naïve"]'],
    ["†state.a.名前.b", '†state.a["名前"]'],
    ["†input.Ω", '†input["Ω"]'],
    ["†state.e\u0301", '†state["e\u0301"]'],
  ])("%s → %s, in references, expressions and output paths", (text, bracketed) => {
    for (const parse of [parseReference, parseExpression, parseOutputPath] as const) {
      const hint = hintOf(parse as (text: string) => { ok: boolean }, text);
      expect(hint).toContain(`write this one in brackets`);
      expect(hint).toContain(bracketed);
    }
  });

  it("an ASCII character that is no name character keeps its own hint (a typo, not a name)", () => {
    expect(hintOf(parseReference, "†state.a b")).toBeUndefined();
    expect(hintOf(parseExpression, "†state.a b")).toMatch(/wrap each reference in braces/);
  });
});

describe("a full stop look-alike between names: the hint says to write '.' (decision 0097, review s40 r2 #7)", () => {
  it.each<[string, string]>([
    ["†input\uFF0Ename", 'write "." (U+002E) between names, not "\uFF0E" (U+FF0E): †input.name'],
    [
      "†state.user\u3002name",
      'write "." (U+002E) between names, not "\u3002" (U+3002): †state.user.name; if "user\u3002name" is one key, write it in brackets: †state["user\u3002name"]',
    ],
    [
      "†state.a\uFF0Eb\uFF0Ec",
      'write "." (U+002E) between names, not "\uFF0E" (U+FF0E): †state.a.b.c; if "a\uFF0Eb\uFF0Ec" is one key, write it in brackets: †state["a\uFF0Eb\uFF0Ec"]',
    ],
    // a name outside ASCII is bracketed once its dot is "." (review s40 rev1 #4: †state.notes.名前 is refused)
    [
      "†state.notes\uFF0E名前",
      'write "." (U+002E) between names, not "\uFF0E" (U+FF0E): †state.notes["名前"]; if "notes\uFF0E名前" is one key, write it in brackets: †state["notes\uFF0E名前"]',
    ],
  ])("%s", (text, hint) => {
    const parses = text.startsWith("†state")
      ? [parseReference, parseExpression, parseOutputPath]
      : [parseReference, parseExpression];
    for (const parse of parses) expect(hintOf(parse as (text: string) => { ok: boolean }, text)).toBe(hint);
  });
});

describe("REF_FORBIDDEN_SEGMENT says why and what to do", () => {
  it.each(["†state.__proto__", "†state.a.constructor", '†state["prototype"]'])("%s", (text) => {
    expect(hintOf(parseReference, text)).toMatch(/object machinery.*use another key/);
  });
});
