import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);

describe("call ids that are forbidden segments (SPEC §2 rule 5)", () => {
  it.each(["__proto__", "prototype", "constructor"])("_id %s is CALL_ID_INVALID at /plan/N/_id", (id) => {
    const result = compile(
      {
        type: "plan",
        plan: [
          { _tool: "now", _id: "a" },
          { _tool: "now", _id: id },
        ],
      },
      registry,
    );
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["CALL_ID_INVALID", "/plan/1/_id"]]);
  });

  it("a JSON text with an _id of __proto__ is refused too", () => {
    const result = compile('{"type":"plan","plan":[{"_tool":"now","_id":"__proto__"}]}', registry);
    expect(result.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["CALL_ID_INVALID", "/plan/0/_id"]]);
  });

  it("look-alikes and other built-in names stay valid ids", () => {
    for (const id of ["toString", "hasOwnProperty", "__proto", "Constructor", "prototype_"]) {
      expect(compile({ _tool: "now", _id: id }, registry).ok).toBe(true);
    }
  });

  it("a streaming call with _id __proto__ is refused", () => {
    const compiler = createIncrementalCompiler(registry);
    const added = compiler.addCall({ _tool: "now", _id: "__proto__" });
    expect(added.ok).toBe(false);
    expect(added.diagnostics.map((d) => d.code)).toEqual(["CALL_ID_INVALID"]);
  });
});
