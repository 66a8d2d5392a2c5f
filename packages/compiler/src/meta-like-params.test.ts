import type { Diagnostic } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compile } from "./compile.js";
import type { CompileContext } from "./compiled-plan.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { defineTool } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

const definitions = [
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
];
const registry = createToolRegistry(definitions);

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
      { _tool: "listed", name: "A", description: "x", _outputPath: "†state.r" },
    ],
    [
      "another spelling (not a meta name)",
      { _tool: "listed", name: "A", output_path: "x", _outputPath: "†state.r" },
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

describe("a parameter a stripping zod object (z.object) does not declare", () => {
  const none = defineTool({ name: "none", input: z.object({}), run: () => 1 });
  const search = defineTool({
    name: "search",
    input: z.object({ userId: z.string(), limit: z.number().optional() }),
    run: () => 1,
  });
  const tools = createToolRegistry([search, none, ...definitions]);
  const check = (call: object) => {
    const result = compile({ type: "plan", plan: [call] }, tools, { context: { state: {} } });
    return shape(result.diagnostics);
  };

  it("is PARAM_UNKNOWN with the nearest declared name (zod would drop it before the tool runs)", () => {
    expect(check({ _tool: "search", userId: "u1", limt: 2 })).toEqual([
      { code: "PARAM_UNKNOWN", severity: "error", pointer: "/plan/0/limt", hint: 'did you mean "limit"?' },
    ]);
  });

  it("lists the parameters when no name is near, or says there are none", () => {
    expect(check({ _tool: "search", userId: "u1", reason: "x" })[0]?.hint).toBe(
      "its parameters: userId, limit",
    );
    expect(check({ _tool: "none", extra: 1 })[0]?.hint).toBe("the tool takes no parameters");
  });

  it("drops the key: a reference in it is not checked as well", () => {
    expect(check({ _tool: "search", userId: "u1", limt: "†state.nowhere" }).map((d) => d.code)).toEqual([
      "PARAM_UNKNOWN",
    ]);
  });

  it("is reported once for a closed schema (ajv's), and not at all for an open one", () => {
    expect(check({ _tool: "strict", name: "A", nmae: "B" }).map((d) => d.code)).toEqual(["PARAM_UNKNOWN"]);
    expect(check({ _tool: "loose", name: "A", nmae: "B" })).toEqual([]);
    expect(check({ _tool: "listed", name: "A", nmae: "B" })).toEqual([]);
  });
});
