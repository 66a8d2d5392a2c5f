import { describe, expect, it } from "vitest";
import { parameterExpressions } from "./parameter-expressions.js";
import { parseParameterString } from "./parse-parameter-string.js";

const expressionsOf = (text: string) => {
  const parsed = parseParameterString(text);
  if (!parsed.ok) throw new Error(text);
  return parameterExpressions(parsed.value).map((e) => e.alternatives.map((g) => g.map((r) => r.text)));
};

describe("parameterExpressions", () => {
  it("gives a reference's expression, a template's {…} parts in order, and none for a literal", () => {
    expect(expressionsOf("†state.a || †input.b")).toEqual([[["†state.a"], ["†input.b"]]]);
    expect(expressionsOf("x {†state.a} y {†state.b && †state.c}")).toEqual([
      [["†state.a"]],
      [["†state.b", "†state.c"]],
    ]);
    expect(expressionsOf("plain text")).toEqual([]);
  });
});
