import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const found = (plan: unknown) => compile(plan, registry).diagnostics.map((d) => `${d.code} ${d.pointer}`);

describe("diagnostics come in document order (SPEC §6), document-level ones in their place", () => {
  it("text the parser refuses: by line, whatever check found it first", () => {
    const duplicateFirst =
      '{ "type": "plan", "plan": [\n { "_tool": "log", "message": "x", "message": "y" },\n { "_tool": "log", "message": 1e400 }\n] }';
    expect(found(duplicateFirst)).toEqual(["JSON_SYNTAX /plan/0/message", "JSON_SYNTAX /plan/1/message"]);
    const rangeFirst =
      '{ "type": "plan", "plan": [\n { "_tool": "log", "message": 1e400 },\n { "_tool": "log", "message": "x", "message": "y" }\n] }';
    expect(found(rangeFirst)).toEqual(["JSON_SYNTAX /plan/0/message", "JSON_SYNTAX /plan/1/message"]);
  });

  it("a top-level field after the plan is reported after the calls' diagnostics (text and object)", () => {
    const after = { plan: [{ _tool: "log", message: 5 }], id: 5 };
    const expected = ["PARAM_INVALID /plan/0/message", "PLAN_SHAPE /id"];
    expect(found(after)).toEqual(expected);
    expect(found(JSON.stringify(after))).toEqual(expected);
    const before = { id: 5, plan: [{ _tool: "log", message: 5 }] };
    expect(found(before)).toEqual(["PLAN_SHAPE /id", "PARAM_INVALID /plan/0/message"]);
    expect(found(JSON.stringify(before))).toEqual(["PLAN_SHAPE /id", "PARAM_INVALID /plan/0/message"]);
  });

  it("text keeps the text's order where a parsed object would not (integer-like keys come first there)", () => {
    const text = '[{ "_tool": "add", "a": "x", "b": 1, "9": 1 }]';
    expect(found(text)).toEqual(["PARAM_INVALID /0/a", "PARAM_UNKNOWN /0/9"]);
    expect(found(JSON.parse(text))).toEqual(["PARAM_UNKNOWN /0/9", "PARAM_INVALID /0/a"]);
  });
});
