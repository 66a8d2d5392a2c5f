import { describe, expect, it } from "vitest";
import { createKindTable } from "./kinds.js";
import type { ParameterValue } from "./language-ast.js";
import { parseParameterString, type TemplateExpressions } from "./parse-parameter-string.js";

const ref = (kind: string, path: (string | number)[], text: string) => ({ kind, path, text });
const single = (kind: string, path: (string | number)[], text: string) => ({
  alternatives: [[ref(kind, path, text)]],
});

function parsed(text: string): ParameterValue {
  const result = parseParameterString(text);
  if (!result.ok) throw new Error(`unexpected issue ${result.issue.code}`);
  return result.value;
}

describe("parseParameterString", () => {
  it.each([
    ["perfect-stranger"],
    [""],
    ["plain text with {braces} and || operators && more"],
    ["$tool_output"],
    ["$other.x"],
    ["state.user.name"],
  ])("keeps %j as a literal", (text) => {
    expect(parsed(text)).toEqual({ type: "literal", value: text, suspicious: false });
  });

  it("turns a whole reference into a reference", () => {
    expect(parsed("†input.userName")).toEqual({
      type: "reference",
      expression: single("input", ["userName"], "†input.userName"),
    });
  });

  it("turns a whole expression into a reference", () => {
    expect(parsed("†state.user.verified || †state.user.failed")).toEqual({
      type: "reference",
      expression: {
        alternatives: [
          [ref("state", ["user", "verified"], "†state.user.verified")],
          [ref("state", ["user", "failed"], "†state.user.failed")],
        ],
      },
    });
  });

  it("parses templates", () => {
    expect(parsed("Hello {†input.name}, you have {†state.count} items")).toEqual({
      type: "template",
      parts: [
        "Hello ",
        single("input", ["name"], "†input.name"),
        ", you have ",
        single("state", ["count"], "†state.count"),
        " items",
      ],
    });
  });

  it("parses templates with expressions, whitespace before the brace and adjacent parts", () => {
    expect(parsed("{†state.a || †input.b }{†state.c}!")).toEqual({
      type: "template",
      parts: [
        { alternatives: [[ref("state", ["a"], "†state.a")], [ref("input", ["b"], "†input.b")]] },
        single("state", ["c"], "†state.c"),
        "!",
      ],
    });
    expect(parsed("x{†state.a}")).toEqual({
      type: "template",
      parts: ["x", single("state", ["a"], "†state.a")],
    });
  });

  it("unescapes {†† inside templates and literals", () => {
    expect(parsed("Use {††state.x} for {†input.y}")).toEqual({
      type: "template",
      parts: ["Use {†state.x} for ", single("input", ["y"], "†input.y")],
    });
    expect(parsed("Write {††state.x} literally")).toEqual({
      type: "literal",
      value: "Write {†state.x} literally",
      suspicious: false,
    });
  });

  it("removes one dagger from a string starting with ††", () => {
    expect(parsed("††state.x")).toEqual({ type: "literal", value: "†state.x", suspicious: false });
    expect(parsed("†††")).toEqual({ type: "literal", value: "††", suspicious: false });
    expect(parsed("†† {†input.x}")).toEqual({ type: "literal", value: "† {†input.x}", suspicious: false });
  });

  it.each([["see †state.user for details"], ["see †input[0]"], ["x †calls.a"], ['x †state["a"]']])(
    "flags %j as suspicious",
    (text) => {
      expect(parsed(text)).toEqual({ type: "literal", value: text, suspicious: true });
    },
  );

  it.each([["price: 5 †"], ["†† at start"], ["x †unknown.kind"], ["x †state alone"], ["x †stateful.y"]])(
    "does not flag %j",
    (text) => {
      expect(parsed(text)).toMatchObject({ type: "literal", suspicious: false });
    },
  );

  it("flags a template whose literal parts hold †<kind>. (only then: the key is absent otherwise)", () => {
    expect(parsed("x {†input.a} and †input.b")).toMatchObject({ type: "template", suspicious: true });
    expect(parsed("see †state.y: {†input.a}")).toMatchObject({ type: "template", suspicious: true });
    expect(parsed("x {†input.a} ††state.y")).toMatchObject({ type: "template", suspicious: true });
    expect(parsed("{††state.x} and {†input.a}")).not.toHaveProperty("suspicious");
    expect(parsed("{†input.a} costs 5 † each")).not.toHaveProperty("suspicious");
  });

  it("uses the kind table for suspicious literals", () => {
    const kinds = createKindTable([
      { kind: "env", writable: false, engineManaged: false, description: "env" },
    ]);
    expect(parseParameterString("x †env.HOME", kinds)).toMatchObject({
      ok: true,
      value: { suspicious: true },
    });
  });

  it("accepts $tool_output.<callId> as an alias of †calls.<callId>", () => {
    expect(parsed("$tool_output.x")).toEqual({
      type: "reference",
      expression: single("calls", ["x"], "†calls.x"),
    });
    expect(parsed("$tool_output.search$2")).toEqual({
      type: "reference",
      expression: single("calls", ["search$2"], "†calls.search$2"),
    });
    expect(parsed("$tool_output.x y")).toMatchObject({ type: "literal", suspicious: false });
    expect(parsed("$tool_output.")).toMatchObject({ type: "literal" });
  });

  it("rejects a forbidden call id in the alias", () => {
    expect(parseParameterString("$tool_output.__proto__")).toMatchObject({
      ok: false,
      issue: { code: "REF_FORBIDDEN_SEGMENT", offset: 13 },
    });
  });

  it.each([
    ["†state.x is here", "REF_SYNTAX", 9],
    ["† dagger", "REF_SYNTAX", 1],
    ["†state.a ||", "REF_SYNTAX", 11],
    ["†nope.a", "REF_KIND_UNKNOWN", 1],
    ["Hi {†input.name", "REF_SYNTAX", 3],
    ["Hi {†input.name || ", "REF_SYNTAX", 19],
    ["Hi {†input.name x}", "REF_SYNTAX", 16],
    ["Hi {†}", "REF_SYNTAX", 5],
    ["Hi {†input.name}{†stat.x}", "REF_KIND_UNKNOWN", 18],
    ["Hi {†input.constructor}", "REF_FORBIDDEN_SEGMENT", 11],
    ["†state.prototype", "REF_FORBIDDEN_SEGMENT", 7],
  ])("reports %j as %s at offset %i", (text, code, offset) => {
    expect(parseParameterString(text)).toMatchObject({ ok: false, issue: { code, offset } });
  });

  it("honours maxPathDepth", () => {
    expect(parseParameterString("x {†state.a.b}", undefined, { maxPathDepth: 1 })).toMatchObject({
      ok: false,
      issue: { code: "PLAN_LIMIT" },
    });
  });

  it("shares template parts through a cache and parses exactly as without it", () => {
    const known: TemplateExpressions = new Map();
    const texts = [
      "a {†state.x.y} b {†state.z || †input.q} c",
      "{†state.x.y}{†state.z || †input.q}",
      'q {†state["a}b"]} r {†state.x.y }',
      "s {†state.x.y",
      "t {†state.x.y]} u",
      "v {††state.x.y} w {†state.x.y}",
    ];
    for (const round of [1, 2])
      for (const text of texts)
        expect(parseParameterString(text, undefined, undefined, known), `${text} (round ${round})`).toEqual(
          parseParameterString(text),
        );
    const first = parseParameterString("{†state.x.y} !", undefined, undefined, known);
    const second = parseParameterString("x {†state.x.y}", undefined, undefined, known);
    if (!first.ok || !second.ok || first.value.type !== "template" || second.value.type !== "template")
      throw new Error("expected templates");
    expect(second.value.parts[1]).toBe(first.value.parts[0]);
    // Only parts that end at their first "}" are kept: a brace inside a quoted segment is not a key.
    const kept = [...known.values()].flat().map((part) => part.text);
    expect(kept.sort()).toEqual(["†state.x.y", "†state.x.y ", "†state.z || †input.q"]);
  });
});
