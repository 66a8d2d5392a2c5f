import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const shape = (plan: unknown[]) =>
  compile(plan, registry).diagnostics.map((d) => [d.code, d.severity, d.pointer]);

describe("_outputMethod needs an _outputPath (SPEC §3: without one the output replaces †calls.<id>)", () => {
  it.each(["push", "concat", "merge", "assign"])(
    "%s without _outputPath is OUTPUT_METHOD_INVALID",
    (method) => {
      expect(shape([{ _tool: "log", message: "m", _outputMethod: method }])).toEqual([
        ["OUTPUT_METHOD_INVALID", "error", "/0/_outputMethod"],
      ]);
    },
  );

  it("set (what happens anyway) is accepted; with an _outputPath every method is; an unknown one is reported once", () => {
    expect(shape([{ _tool: "log", message: "m", _outputMethod: "set" }])).toEqual([]);
    expect(shape([{ _tool: "log", message: "m", _outputPath: "†state.l", _outputMethod: "push" }])).toEqual(
      [],
    );
    expect(shape([{ _tool: "log", message: "m", _outputMethod: "apend" }])).toEqual([
      ["OUTPUT_METHOD_INVALID", "error", "/0/_outputMethod"],
    ]);
  });

  it("the hint says where the output goes; streaming reports it at addCall", () => {
    const result = compile([{ _tool: "log", message: "m", _outputMethod: "push" }], registry);
    expect(result.diagnostics[0]?.hint).toContain("†calls.<id>");
    const added = createIncrementalCompiler(registry).addCall({
      _tool: "log",
      message: "m",
      _outputMethod: "push",
    });
    expect(added.ok).toBe(false);
    expect(added.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ["OUTPUT_METHOD_INVALID", "/plan/0/_outputMethod"],
    ]);
  });
});
