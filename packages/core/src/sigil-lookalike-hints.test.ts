import { describe, expect, it } from "vitest";
import { parseExpression } from "./parse-expression.js";
import { parseOutputPath } from "./parse-output-path.js";
import { parseReference } from "./parse-reference.js";

/** The issue `parse` gives for `text` (the parse must fail). */
function issueOf(parse: (text: string) => { ok: boolean }, text: string) {
  const result = parse(text) as { ok: false; issue: { code: string; hint?: string } } | { ok: true };
  if (result.ok) throw new Error(`${text} parsed`);
  return { code: result.issue.code, hint: result.issue.hint };
}

describe("a look-alike of the dagger before a kind gets the dagger form (decision 0097, review s40 r2 #2)", () => {
  it.each([
    ["\u2021state.user", "†state.user"],
    ["+state.user", "†state.user"],
    ["@state.user.name", "†state.user.name"],
    ["#state.user", "†state.user"],
    ["&dagger;state.user", "†state.user"],
    ["\\u2020state.user", "†state.user"],
  ])("_outputPath %s → %s", (text, fixed) => {
    expect(issueOf(parseOutputPath, text)).toEqual({
      code: "OUTPUT_PATH_SYNTAX",
      hint: `did you mean "${fixed}"? (every reference starts with "†")`,
    });
  });

  it("no hint when what follows the stray character is no known kind and path", () => {
    expect(issueOf(parseOutputPath, "+stat.user").hint).toBeUndefined();
    expect(issueOf(parseOutputPath, "++state.user").hint).toBeUndefined();
    expect(issueOf(parseOutputPath, "+$state.user").hint).toBeUndefined();
  });

  it("spaces after the dagger: remove them", () => {
    expect(issueOf(parseOutputPath, "† state.user")).toEqual({
      code: "OUTPUT_PATH_SYNTAX",
      hint: 'remove the space after "†": write "†state.user"',
    });
    for (const parse of [parseReference, parseExpression])
      expect(issueOf(parse, "†  input.userId")).toEqual({
        code: "REF_SYNTAX",
        hint: 'remove the space after "†": write "†input.userId"',
      });
    expect(issueOf(parseReference, "† nothing here").hint).toBeUndefined();
  });
});
