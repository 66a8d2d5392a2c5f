import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const fetch = { _tool: "fetchUser", userId: "u1", _outputPath: "†state.user" };
const logged = (message: string) =>
  compile({ type: "plan", plan: [fetch, { _tool: "log", message }] }, registry).diagnostics.map((d) => ({
    code: d.code,
    severity: d.severity,
    pointer: d.pointer,
    hint: d.hint,
  }));
const warning = (hint: string) => [
  { code: "REF_SUSPICIOUS", severity: "warning", pointer: "/plan/1/message", hint },
];

describe("a reference in braces that are not one template slot (REF_SUSPICIOUS)", () => {
  it("double braces around a slot: the outer pair is sent as text", () => {
    expect(logged("Hi {{†state.user.name}}")).toEqual(
      warning("write {†state.user.name}: the outer braces are sent as text"),
    );
  });

  it("double braces with spaces inside: the whole text is a literal", () => {
    expect(logged("Hi {{ †state.user.name }}")).toEqual(
      warning("write {†state.user.name}: the outer braces are sent as text"),
    );
  });

  it("single braces with spaces inside are not a slot", () => {
    expect(logged("Hi { †state.user.name }!")).toEqual(
      warning("write {†state.user.name} with no spaces inside the braces"),
    );
  });

  it("leaves a slot beside literal braces alone", () => {
    expect(logged("Hi {†state.user.name}, {{literal}}")).toEqual([]);
    expect(logged("{ {†state.user.name} }")).toEqual([]);
  });
});
