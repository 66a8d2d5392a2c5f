import { describe, expect, it } from "vitest";
import { parsePlanText } from "./parse-plan-text.js";

/** The one diagnostic of plan text that is not JSON. */
function refusal(text: string) {
  const read = parsePlanText(text);
  expect(read.diagnostics).toHaveLength(1);
  return read.diagnostics[0];
}

describe("JSON_SYNTAX names a token of another language and says JSON's form (decision 0097, review s40 r2 #6)", () => {
  it.each([
    ['[{"_tool":"a","flag":True}]', "JSON's literals are lower case: write true, not True"],
    ['[{"_tool":"a","flag":False}]', "JSON's literals are lower case: write false, not False"],
    ['[{"_tool":"a","flag":None}]', "JSON has no None: write null, or leave the key out"],
    ['[{"_tool":"a","id":undefined}]', "JSON has no undefined: write null, or leave the key out"],
    ['[{"_tool":"a","limit":NaN}]', "JSON has no NaN: write null, or leave the key out"],
    ['[{"_tool":"a","limit":-Infinity}]', "JSON has no -Infinity: write null, or leave the key out"],
    ['[{_tool:"a"}]', 'JSON keys take double quotes: write "_tool":'],
    ['[{"_tool":"a", id : "u1"}]', 'JSON keys take double quotes: write "id":'],
    [
      "{“type”: “plan”, “plan”: []}",
      'replace the typographic quote “ with a straight double quote ": JSON strings and keys take "…" only',
    ],
    [
      '[{"_tool":"a","id":“u1”}]',
      'replace the typographic quote “ with a straight double quote ": JSON strings and keys take "…" only',
    ],
    [
      '[{"_tool":"a","text":"line one\nline two"}]',
      "a JSON string may not hold a raw line break: write \\n inside the quotes instead",
    ],
    [
      '[{"_tool":"a","text":"a\tb"}]',
      "a JSON string may not hold a raw tab: write \\t inside the quotes instead",
    ],
  ])("%s", (text, hint) => {
    expect(refusal(text)).toMatchObject({ code: "JSON_SYNTAX", severity: "error", pointer: "", hint });
  });

  it("keeps the generic hint where no token is recognised: a bare word that is no key, an escaped line break", () => {
    expect(refusal('[{"_tool":"a","text":hello}]')?.hint).toBe("the plan must be strict JSON (no comments)");
    expect(refusal("{ nope")?.hint).toBe("the plan must be strict JSON (no comments)");
    expect(refusal('[{"_tool":"a","text":"a\\nb" "x"}]')?.hint).toBe(
      "the plan must be strict JSON (no comments)",
    );
  });
});
