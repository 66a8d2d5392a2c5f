import { describe, expect, it } from "vitest";
import { formatExpression } from "./format-expression.js";
import { parseExpression } from "./parse-expression.js";

/** The expression's shape as lists of canonical reference texts. */
function shape(text: string): string[][] | string {
  const result = parseExpression(text);
  if (!result.ok) return result.issue.code;
  return result.value.alternatives.map((gate) => gate.map((reference) => reference.text));
}

describe("parseExpression", () => {
  it.each([
    ["†input.userName", [["†input.userName"]]],
    ["†state.user.verified || †state.user.failed", [["†state.user.verified"], ["†state.user.failed"]]],
    ["†state.user.summary && †state.audit.summary", [["†state.user.summary", "†state.audit.summary"]]],
    ["†state.a&&†state.b||†state.c", [["†state.a", "†state.b"], ["†state.c"]]],
    ["†state.a || †state.b && †state.c", [["†state.a"], ["†state.b", "†state.c"]]],
    ["†state.a <|> †state.b *> †state.c", [["†state.a"], ["†state.b", "†state.c"]]],
    ["†state.a<|>†state.b*>†state.c", [["†state.a"], ["†state.b", "†state.c"]]],
    ["†state.a \t\n||\r\n †input.b", [["†state.a"], ["†input.b"]]],
    ["†state.x.0 || †state", [["†state.x[0]"], ["†state"]]],
    ['†state["a b"] && †calls.c$1', [['†state["a b"]', "†calls.c$1"]]],
  ])("parses %j", (text, expected) => {
    expect(shape(text)).toEqual(expected);
  });

  it("parses a long chain of alternatives and gates whole, in order (each `||` copied the list: K² work)", () => {
    const names = Array.from({ length: 20_000 }, (_, index) => `†input.m${index}`);
    expect(shape(names.join(" || "))).toEqual(names.map((name) => [name]));
    const pairs = names.map((name, index) => (index % 2 === 0 ? `${name} && ` : `${name} || `)).join("");
    expect(shape(pairs.slice(0, -4))).toEqual(
      Array.from({ length: 10_000 }, (_, index) => [names[2 * index], names[2 * index + 1]]),
    );
  });

  it.each([
    ["", 0],
    ["||", 0],
    ["|| †state.a", 0],
    ["†state.a ||", 11],
    ["†state.a || ", 12],
    ["†state.a && && †state.b", 12],
    ["†state.a ||| †state.b", 11],
    ["†state.a | †state.b", 9],
    ["†state.a & †state.b", 9],
    ["(†state.a || †state.b)", 0],
    ["†state.a || (†state.b)", 12],
    ["†state.a †state.b", 9],
    ["†state.a ", 8],
    ["†state.a || state.b", 12],
  ])("reports REF_SYNTAX for %j at offset %i", (text, offset) => {
    expect(parseExpression(text)).toMatchObject({ ok: false, issue: { code: "REF_SYNTAX", offset } });
  });

  it("reports reference errors inside operands with offsets in the whole string", () => {
    expect(parseExpression("†state.a || †stat.b")).toMatchObject({
      ok: false,
      issue: { code: "REF_KIND_UNKNOWN", offset: 13, hint: 'did you mean "state"?' },
    });
    expect(parseExpression("†state.a && †input.__proto__")).toMatchObject({
      ok: false,
      issue: { code: "REF_FORBIDDEN_SEGMENT", offset: 19 },
    });
  });

  it("formats canonically with single spaces", () => {
    const result = parseExpression("†state.a<|>†state.b  *>  †state.c.1");
    expect(result.ok && formatExpression(result.value)).toBe("†state.a || †state.b && †state.c[1]");
  });
});
