import type { Diagnostic } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compile } from "./compile.js";
import type { CompileContext } from "./compiled-plan.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { defineTool } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry([
  defineTool({ name: "greet", input: z.object({ name: z.string() }), run: ({ name }) => `hi ${name}` }),
  defineTool({ name: "strict", input: z.strictObject({ name: z.string() }), run: () => 1 }),
  defineTool({ name: "loose", input: z.looseObject({ name: z.string() }), run: () => 1 }),
  { name: "anything", run: () => 1 },
  {
    name: "headers",
    input: { type: "object", additionalProperties: { type: "string" } },
    run: () => 1,
  },
  { name: "listed", input: { type: "object", properties: { name: { type: "string" } } }, run: () => 1 },
  {
    name: "closed",
    input: { type: "object", properties: { name: { type: "string" } }, additionalProperties: false },
    run: () => 1,
  },
  {
    name: "unevaluated",
    input: { type: "object", properties: { name: { type: "string" } }, unevaluatedProperties: false },
    run: () => 1,
  },
  {
    name: "record",
    input: { type: "object", properties: { id: { type: "string" }, output: {}, tool: {}, description: {} } },
    run: () => 1,
  },
]);

const shape = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((d) => ({ code: d.code, severity: d.severity, pointer: d.pointer, hint: d.hint }));

function diagnosticsOf(call: Record<string, unknown>, context: CompileContext = {}): readonly Diagnostic[] {
  return compile([call], registry, { context }).diagnostics;
}

const unknownMeta = (key: string) => ({
  code: "PARAM_UNKNOWN",
  severity: "error",
  pointer: `/0/${key}`,
  hint: `did you mean "_${key}"?`,
});

describe("a parameter named like a meta-property without its _ that the tool does not declare", () => {
  it("outputPath: PARAM_UNKNOWN with did you mean _outputPath, not a misleading REF_UNRESOLVED", () => {
    const call = { _tool: "greet", name: "Ada", outputPath: "†state.greeting" };
    expect(shape(diagnosticsOf(call))).toEqual([unknownMeta("outputPath")]);
  });

  it("still an error once the path exists (it was valid, and wrote †calls instead)", () => {
    const call = { _tool: "greet", name: "Ada", outputPath: "†state.greeting" };
    const result = compile([call], registry, { context: { state: { greeting: "old" } } });
    expect(result.ok).toBe(false);
    expect(shape(result.diagnostics)).toEqual([unknownMeta("outputPath")]);
  });

  it.each([
    ["outputMethod", "merge"],
    ["tool", "greet"],
    ["id", "g"],
    ["retry", { attempts: 2 }],
    ["timeoutMs", 100],
    ["rerun", true],
    ["output", "x"],
  ])("%s is flagged with the _ spelling", (key, value) => {
    const call = { _tool: "greet", name: "Ada", [key]: value, _outputPath: "†state.g" };
    expect(shape(diagnosticsOf(call))).toEqual([unknownMeta(key)]);
  });

  it("a closed schema gives one PARAM_UNKNOWN, with the hint", () => {
    const call = { _tool: "strict", name: "Ada", outputPath: "†state.g" };
    expect(shape(diagnosticsOf(call))).toEqual([unknownMeta("outputPath")]);
  });

  it.each([
    ["a tool without an input schema (any object)", "anything"],
    ["an explicitly open schema (z.looseObject)", "loose"],
    ["additionalProperties given as a schema", "headers"],
  ])("%s: only an unmistakable value is flagged (an output path, a method name)", (_why, tool) => {
    const call = { _tool: tool, name: "A", outputPath: "†state.g", outputMethod: "merge" };
    expect(shape(diagnosticsOf(call))).toEqual([unknownMeta("outputPath"), unknownMeta("outputMethod")]);
    const plain = { _tool: tool, name: "A", id: "†input.id", output: "x", outputPath: "out/report.txt" };
    expect(diagnosticsOf(plain, { input: { id: "1" } })).toEqual([]);
  });

  it("streaming refuses the call with the same diagnostic", () => {
    const compiler = createIncrementalCompiler(registry);
    const added = compiler.addCall({ _tool: "greet", name: "Ada", id: "g" });
    expect(added.ok).toBe(false);
    expect(shape(added.diagnostics)).toEqual([{ ...unknownMeta("id"), pointer: "/plan/0/id" }]);
  });

  it.each([
    ["declared by the tool", { _tool: "record", id: "x", output: 1, tool: "t", _outputPath: "†state.r" }],
    [
      "an explicitly open schema (z.looseObject)",
      { _tool: "loose", name: "A", id: "x", _outputPath: "†state.r" },
    ],
    ["additionalProperties given as a schema", { _tool: "headers", id: "x", _outputPath: "†state.r" }],
    [
      "description (a common real parameter)",
      { _tool: "greet", name: "A", description: "x", _outputPath: "†state.r" },
    ],
    [
      "another spelling (not a meta name)",
      { _tool: "greet", name: "A", output_path: "x", _outputPath: "†state.r" },
    ],
  ])("not flagged: %s", (_why, call) => {
    expect(diagnosticsOf(call)).toEqual([]);
  });

  it.each(["id", "output", "tool", "retry"])(
    "a JSON Schema that lists properties without closing them takes extra keys (JSON Schema's default): %s is a parameter",
    (key) => {
      expect(diagnosticsOf({ _tool: "listed", name: "A", [key]: "u1", _outputPath: "†state.r" })).toEqual([]);
    },
  );

  it("a JSON Schema that lists properties without closing them: an unmistakable value is still flagged", () => {
    const call = { _tool: "listed", name: "A", outputPath: "†state.g", outputMethod: "merge" };
    expect(shape(diagnosticsOf(call))).toEqual([unknownMeta("outputPath"), unknownMeta("outputMethod")]);
  });

  it.each(["closed", "unevaluated"])(
    "a %s JSON Schema (extra keys refused): id is PARAM_UNKNOWN with the hint",
    (tool) => {
      const call = { _tool: tool, name: "A", id: "u1", _outputPath: "†state.r" };
      expect(shape(diagnosticsOf(call))).toEqual([unknownMeta("id")]);
    },
  );
});
