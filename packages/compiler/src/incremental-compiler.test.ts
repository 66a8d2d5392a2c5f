import { resolvePointer } from "@obelisk/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { graphToJson } from "./graph-to-json.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);

describe("incremental compiler", () => {
  it("wires a later writer to an earlier reader", () => {
    const compiler = createIncrementalCompiler(registry);
    expect(compiler.addCall({ _tool: "log", _id: "reader", message: "†state.x" }).ok).toBe(true);
    compiler.addCall({ _tool: "log", _id: "writer", message: "hi", _outputPath: "†state.x" });
    expect(compiler.calls[0]?.writers.get("†state.x")).toEqual([
      { callId: "writer", alternatives: [0], conditional: false },
    ]);
    expect(compiler.graph.hasEdge("writer", "reader")).toBe(true);
  });

  it("refuses a call holding a value that is not JSON, and still closes with a hash", () => {
    const compiler = createIncrementalCompiler(registry);
    const bigint = compiler.addCall({ _tool: "log", _id: "a", message: 1n });
    expect(bigint.ok).toBe(false);
    expect(bigint.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["JSON_SYNTAX", "/plan/0/message"]]);
    const date = compiler.addCall({ _tool: "log", _id: "b", message: new Date(0) });
    expect(date.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["JSON_SYNTAX", "/plan/1/message"]]);
    expect(compiler.addCall({ _tool: "log", _id: "c", message: "fine" }).ok).toBe(true);
    const closed = compiler.close();
    expect(closed.planHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(closed.calls.map((call) => call.id)).toEqual(["c"]);
  });

  it("refuses a call that would close a cycle", () => {
    const compiler = createIncrementalCompiler(registry);
    compiler.addCall({ _tool: "log", _id: "a", message: "†state.b", _outputPath: "†state.a" });
    const refused = compiler.addCall({
      _tool: "log",
      _id: "b",
      message: "†state.a",
      _outputPath: "†state.b",
    });
    expect(refused.ok).toBe(false);
    expect(refused.diagnostics.map((d) => [d.code, d.pointer, d.hint])).toEqual([
      ["CYCLE", "/plan/1", "b → a → b"],
    ]);
    expect(compiler.graph.hasNode("b")).toBe(false);
  });

  it("reports references still unresolved at close", () => {
    const compiler = createIncrementalCompiler(registry, { context: { callOutputs: new Set() } });
    compiler.addCall({ _tool: "log", message: "†calls.later" });
    const closed = compiler.close();
    expect(closed.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ["REF_UNRESOLVED", "/plan/0/message"],
    ]);
  });
});

const callArb = (size: number) =>
  fc.record({
    target: fc.integer({ min: 0, max: size }),
    reads: fc.array(fc.integer({ min: 0, max: size }), { maxLength: 3 }),
    alternatives: fc.integer({ min: 1, max: 2 }),
  });

describe("batch and incremental agree (acyclic plans)", () => {
  it("same graph and diagnostics", () => {
    fc.assert(
      fc.property(
        fc.array(callArb(6), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 1000 }),
        (specs, seed) => {
          const rank = specs.map((_, i) => (i * 7919 + seed) % specs.length);
          const calls = specs.map((spec, i) => {
            const readable = specs
              .map((_, j) => j)
              .filter((j) => rank[j] !== undefined && (rank[j] as number) < (rank[i] as number));
            const reads = spec.reads.flatMap((r) =>
              readable.length === 0 ? [] : [readable[r % readable.length] as number],
            );
            const targets = Array.from({ length: spec.alternatives }, (_, k) => `†state.c${i}.out${k}`).join(
              " || ",
            );
            const message = reads.length === 0 ? "x" : reads.map((r) => `{†state.c${r}.out0}`).join("-");
            return { _tool: "log", _id: `c${i}`, message, _outputPath: targets };
          });
          const batch = compile({ type: "plan", plan: calls }, registry);
          const incremental = createIncrementalCompiler(registry);
          for (const call of calls) incremental.addCall(call);
          const closed = incremental.close();
          expect(graphToJson(closed)).toEqual(graphToJson(batch));
          expect(closed.diagnostics).toEqual(batch.diagnostics);
          expect(closed.planHash).toBe(batch.planHash);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("compile never throws", () => {
  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      fc.constantFrom(
        "†state.x",
        "†input.a || †state.b",
        "{†state.q}",
        "†",
        "††x",
        "†calls.c0",
        "†state.__proto__",
        null,
        1,
        true,
      ),
      fc.string(),
      fc.array(tie("value"), { maxLength: 3 }),
      fc.dictionary(
        fc.constantFrom("_tool", "_id", "_outputPath", "_outputMethod", "_output", "_x", "message", "a", "b"),
        tie("value"),
        { maxKeys: 4 },
      ),
    ),
  }));
  const call = fc.record({
    _tool: fc.constantFrom("log", "add", "verifyUser", "approve", "nope", 3),
    _outputPath: fc.constantFrom("†state.x", "†state.x.y || †state.z", "†input.a", "bad", undefined),
    message: json.value,
    a: json.value,
  });
  it("returns diagnostics whose pointers resolve", () => {
    fc.assert(
      fc.property(fc.oneof(fc.array(fc.oneof(call, json.value), { maxLength: 6 }), json.value), (plan) => {
        const result = compile(plan, registry);
        for (const diagnostic of result.diagnostics) {
          expect(resolvePointer(result.document?.source ?? plan, diagnostic.pointer).found).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("survives arbitrary text", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(() => compile(text, registry)).not.toThrow();
      }),
    );
  });
});
