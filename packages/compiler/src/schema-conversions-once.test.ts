import { Ajv2020 } from "ajv/dist/2020.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { defineTool } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

afterEach(() => {
  vi.restoreAllMocks();
});

/** A property name no other test's schema has: the compiled-validator cache is shared by the process. */
const fresh = () => `p${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;

describe("a tool's schemas are converted and compiled once, not per compile (issue 3)", () => {
  it("a zod input schema goes through z.toJSONSchema once, however many plans are compiled", () => {
    const key = fresh();
    const input = z.object({ [key]: z.number() });
    const convert = vi.spyOn(input, "toJSONSchema");
    const registry = createToolRegistry([defineTool({ name: "t", input, run: () => 1 })]);
    for (let i = 0; i < 3; i++) {
      compile([{ _tool: "t", [key]: i }], registry);
      compile([{ _tool: "t", [key]: "not a number" }], registry);
      createIncrementalCompiler(registry).addCall({ _tool: "t", [key]: i });
    }
    expect(convert).toHaveBeenCalledTimes(1);
  });

  it("ajv compiles a tool's input schema once, on first use; later compiles reuse the validator", () => {
    const key = fresh();
    const ajvCompile = vi.spyOn(Ajv2020.prototype, "compile");
    const registry = createToolRegistry([
      { name: "t", input: { type: "object", properties: { [key]: { type: "number" } } }, run: () => 1 },
    ]);
    const first = compile([{ _tool: "t", [key]: "x" }], registry);
    expect(first.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["PARAM_INVALID", `/0/${key}`]]);
    expect(ajvCompile).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 5; i++) {
      const again = compile([{ _tool: "t", [key]: i % 2 === 0 ? "x" : i }], registry);
      expect(again.ok).toBe(i % 2 !== 0);
    }
    expect(ajvCompile).toHaveBeenCalledTimes(1);
  });
});
