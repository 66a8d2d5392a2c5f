import type { Diagnostic } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const empty = { type: "object", properties: {} };
const registry = createToolRegistry([
  { name: "num", input: empty, output: { type: "number" }, run: () => 1 },
  { name: "obj", input: empty, output: { type: "object" }, run: () => ({}) },
  { name: "list", input: empty, output: { type: "array" }, run: () => [] },
  { name: "listOrNull", input: empty, output: { type: ["array", "null"] }, run: () => null },
  {
    name: "scalar",
    input: empty,
    output: { anyOf: [{ type: "string" }, { type: "integer" }] },
    run: () => 1,
  },
  { name: "any", input: empty, run: () => 1 },
  { name: "latent", input: empty },
  { name: "latentObj", input: empty, output: { type: "object" } },
]);

const codes = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => [d.code, d.pointer]);
/** Diagnostics of independent calls, each writing its own path. */
const check = (...calls: Record<string, unknown>[]) =>
  codes(
    compile(
      calls.map((call, i) => ({ _outputPath: `†state.p${i}`, ...call })),
      registry,
    ).diagnostics,
  );
const MISMATCH = (index: number) => ["REF_TYPE_MISMATCH", `/${index}/_outputPath`];

describe("a value the method can never combine is REF_TYPE_MISMATCH at /_outputPath (SPEC §3, review 4 M3)", () => {
  it("concat needs an array value, assign an object: a tool's output schema that certainly gives none", () => {
    expect(
      check(
        { _tool: "num", _outputMethod: "concat" },
        { _tool: "num", _outputMethod: "assign" },
        { _tool: "obj", _outputMethod: "concat" },
        { _tool: "list", _outputMethod: "assign" },
        { _tool: "scalar", _outputMethod: "assign" },
      ),
    ).toEqual([MISMATCH(0), MISMATCH(1), MISMATCH(2), MISMATCH(3), MISMATCH(4)]);
    const [diagnostic] = compile(
      [{ _tool: "num", _outputPath: "†state.x", _outputMethod: "concat" }],
      registry,
    ).diagnostics;
    expect(diagnostic).toMatchObject({ severity: "error", callId: "num$1" });
    expect(diagnostic?.hint).toContain("push");
  });

  it("what fits, may fit, or is unknown is not reported; set, push and merge take any value", () => {
    expect(
      check(
        { _tool: "list", _outputMethod: "concat" },
        { _tool: "obj", _outputMethod: "assign" },
        { _tool: "listOrNull", _outputMethod: "concat" },
        { _tool: "any", _outputMethod: "concat" },
        { _tool: "any", _outputMethod: "assign" },
        { _tool: "num", _outputMethod: "push" },
        { _tool: "num", _outputMethod: "merge" },
        { _tool: "num" },
      ),
    ).toEqual([]);
  });

  it("a latent call's literal _output is the value; without one, its output schema", () => {
    expect(
      check(
        { _tool: "latent", _output: { a: 1 }, _outputMethod: "concat" },
        { _tool: "latent", _output: [1], _outputMethod: "concat" },
        { _tool: "latent", _output: [1], _outputMethod: "assign" },
        { _tool: "latent", _output: null, _outputMethod: "assign" },
        { _tool: "latent", _output: { a: 1 }, _outputMethod: "assign" },
        { _tool: "latentObj", _outputMethod: "concat" },
      ),
    ).toEqual([MISMATCH(0), MISMATCH(2), MISMATCH(3), ["LATENT_WITHOUT_OUTPUT", "/5"], MISMATCH(5)]);
    const [diagnostic] = compile(
      [{ _tool: "latent", _output: { a: 1 }, _outputPath: "†state.x", _outputMethod: "concat" }],
      registry,
    ).diagnostics;
    expect(diagnostic?.message).toContain("_output");
  });

  it("with || only the first alternative's value is known: it is the one reported", () => {
    const [diagnostic] = compile(
      [{ _tool: "num", _outputPath: "†state.a || †state.b", _outputMethod: "concat" }],
      registry,
    ).diagnostics;
    expect(diagnostic?.code).toBe("REF_TYPE_MISMATCH");
    expect(diagnostic?.message).toContain("(the first alternative's value)");
  });

  it("an invalid method says nothing; a call without _outputPath is OUTPUT_METHOD_INVALID only", () => {
    expect(check({ _tool: "num", _outputMethod: "kontakt" })).toEqual([
      ["OUTPUT_METHOD_INVALID", "/0/_outputMethod"],
    ]);
    expect(codes(compile([{ _tool: "num", _outputMethod: "concat" }], registry).diagnostics)).toEqual([
      ["OUTPUT_METHOD_INVALID", "/0/_outputMethod"],
    ]);
  });

  it("streaming addCall refuses such a call, with the same diagnostic", () => {
    const compiler = createIncrementalCompiler(registry);
    const added = compiler.addCall({ _tool: "num", _outputPath: "†state.x", _outputMethod: "assign" });
    expect(added.ok).toBe(false);
    expect(codes(added.diagnostics)).toEqual([["REF_TYPE_MISMATCH", "/plan/0/_outputPath"]]);
    expect(added.call).toBeUndefined();
  });
});
