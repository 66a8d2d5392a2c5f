import type { JsonObject } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { callPairs, range, writerPairs } from "./__fixtures__/call-pairs.js";
import { compile } from "./compile.js";
import { computeCriticalPaths } from "./critical-path.js";
import { findCycles } from "./find-cycles.js";
import { graphToDot } from "./graph-to-dot.js";
import { graphToJson } from "./graph-to-json.js";
import { graphToMermaid } from "./graph-to-mermaid.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";
import { JOIN_ABOVE_PAIRS } from "./writer-sets.js";

const registry = createToolRegistry([
  { name: "echo", input: { type: "object" }, run: (args: JsonObject) => args },
  { name: "slow", cost: 5, input: { type: "object" }, run: (args: JsonObject) => args },
]);

/** `writers` calls pushing into `†state.items` and `readers` calls reading it. */
function accumulated(writers: number, readers: number): JsonObject[] {
  return [
    ...range(writers, (i) => ({
      _tool: "echo",
      _id: `w${i}`,
      _outputPath: "†state.items",
      _outputMethod: "push",
    })),
    ...range(readers, (i) => ({ _tool: "echo", _id: `r${i}`, items: "†state.items" })),
  ];
}

describe("the plan graph draws a path with many writers and many readers through a join (decision 0080)", () => {
  it("n accumulating writers × n readers: 2n edges and one join, not n² edges", () => {
    const n = 200;
    const compiled = compile(accumulated(n, n), registry);
    expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const graph = compiled.graph;
    expect(graph.size).toBe(2 * n);
    expect(graph.order).toBe(2 * n + 1);
    expect(graph.getNodeAttributes("join#1")).toEqual({
      kind: "join",
      references: ["†state.items"],
      criticalPath: 1,
    });
    expect(graph.inDegree("join#1")).toBe(n);
    expect(graph.outDegree("join#1")).toBe(n);
    expect(callPairs(compiled)).toEqual(writerPairs(compiled));
  });

  it("keeps an edge per pair up to JOIN_ABOVE_PAIRS pairs, and joins above", () => {
    expect(JOIN_ABOVE_PAIRS).toBe(64);
    const at = compile(accumulated(8, 8), registry);
    expect(at.graph.size).toBe(64);
    expect(at.graph.hasNode("join#1")).toBe(false);
    expect(Object.keys(graphToJson(at))).toEqual(["nodes", "edges"]);
    const above = compile(accumulated(8, 9), registry);
    expect(above.graph.size).toBe(17);
    expect(above.graph.hasNode("join#1")).toBe(true);
    // one writer, or one reader, never needs a join
    expect(compile(accumulated(1, 100), registry).graph.size).toBe(100);
    expect(compile(accumulated(100, 1), registry).graph.size).toBe(100);
  });

  it("shares one join among references with the same writers (pushers read element by element)", () => {
    const plan = [
      ...range(50, (i) => ({
        _tool: "echo",
        _id: `w${i}`,
        _outputPath: "†state.acc",
        _outputMethod: "push",
      })),
      ...range(50, (i) => ({ _tool: "echo", _id: `r${i}`, item: `†state.acc[${i}]` })),
    ];
    const compiled = compile(plan, registry);
    expect(compiled.graph.size).toBe(100);
    const json = graphToJson(compiled);
    expect(json.joins).toHaveLength(1);
    expect(json.joins?.[0]?.references).toEqual(range(50, (i) => `†state.acc[${i}]`));
    expect(compiled.graph.getEdgeAttributes("join#1", "r7").references).toEqual(["†state.acc[7]"]);
    expect(callPairs(compiled)).toEqual(writerPairs(compiled));
  });

  it("keeps critical paths: a join costs nothing and carries its readers' largest", () => {
    const plan = [...accumulated(10, 10), { _tool: "slow", _id: "last", items: "†calls.r3" }];
    const compiled = compile(plan, registry);
    const graph = compiled.graph;
    expect(graph.getNodeAttribute("join#1", "criticalPath")).toBe(6);
    for (const call of compiled.calls)
      expect(graph.getNodeAttribute(call.id, "criticalPath")).toBe(compiled.criticalPaths?.get(call.id));
    expect(graph.getNodeAttribute("w0", "criticalPath")).toBe(7);
    const costs = new Map(compiled.calls.map((call) => [call.id as string, call.tool === "slow" ? 5 : 1]));
    const computed = computeCriticalPaths(graph, (id) => costs.get(id) ?? Number.NaN);
    expect(computed.get("w0")).toBe(7);
    expect(computed.get("join#1")).toBe(6);
  });

  it("labels a conditional writer's edge into the join with the alternative it takes", () => {
    const plan = [
      {
        _tool: "echo",
        _id: "maybe",
        _outputPath: "†state.items || †state.failed",
        _outputMethod: "push",
      },
      ...accumulated(9, 9),
    ];
    const compiled = compile(plan, registry);
    expect(compiled.graph.getEdgeAttributes("maybe", "join#1")).toMatchObject({
      alternatives: [0],
      conditional: true,
    });
    expect(compiled.graph.getEdgeAttributes("join#1", "r0")).toEqual({
      alternatives: [],
      conditional: false,
      references: ["†state.items"],
    });
    expect(graphToDot(compiled)).toContain('  "maybe" -> "join#1" [style=dashed, label="†state.items"];\n');
    expect(graphToMermaid(compiled)).toContain('  n0_maybe -. "†state.items" .-> n19_join_1\n');
  });

  it("exports the join: JSON lists it under joins, Mermaid and DOT draw it as its own node", () => {
    const compiled = compile(accumulated(9, 9), registry);
    const json = graphToJson(compiled);
    expect(json.nodes.map((node) => node.id)).toEqual([
      ...range(9, (i) => `w${i}`),
      ...range(9, (i) => `r${i}`),
    ]);
    expect(json.joins).toEqual([{ id: "join#1", references: ["†state.items"], criticalPath: 1 }]);
    expect(json.edges).toHaveLength(18);
    expect(json.edges).toContainEqual(["w3", "join#1"]);
    expect(json.edges).toContainEqual(["join#1", "r5"]);
    const mermaid = graphToMermaid(compiled);
    expect(mermaid).toContain('  n18_join_1(["join#35;1<br/>all writers of †state.items"])\n');
    expect(mermaid).toContain("  n3_w3 --> n18_join_1\n");
    expect(mermaid).toContain("  n18_join_1 --> n14_r5\n");
    const dot = graphToDot(compiled);
    expect(dot).toContain('  "join#1" [shape=ellipse, label="join#1\\nall writers of †state.items"];\n');
    expect(dot).toContain('  "w3" -> "join#1";\n');
    expect(dot).toContain('  "join#1" -> "r5";\n');
  });

  it("names the first references of a join read through many, and counts the rest", () => {
    const plan = [
      ...range(9, (i) => ({ _tool: "echo", _id: `w${i}`, _outputPath: "†state.acc", _outputMethod: "push" })),
      ...range(9, (i) => ({ _tool: "echo", _id: `r${i}`, item: `†state.acc[${i}]` })),
    ];
    expect(graphToDot(compile(plan, registry))).toContain(
      'label="join#1\\nall writers of †state.acc[0], †state.acc[1], †state.acc[2], … (+6)"',
    );
  });

  it("a cycle through a join is found with calls only", () => {
    // each call reads all of †state and writes below it: a CYCLE; the later ones share a writer list
    const plan = range(12, (i) => ({
      _tool: "echo",
      _id: `c${i}`,
      all: "†state",
      _outputPath: `†state.c${i}`,
    }));
    const compiled = compile(plan, registry);
    expect(compiled.diagnostics.map((d) => d.code)).toEqual(["CYCLE"]);
    expect(compiled.graph.hasNode("join#1")).toBe(true);
    expect(compiled.graph.size).toBeLessThan(12 * 11);
    expect(findCycles(compiled.graph)).toEqual([["c0", "c1", "c0"]]);
  });

  it("streaming builds the same graph as a batch compile", () => {
    const plan = [
      ...accumulated(20, 20),
      ...range(9, (i) => ({ _tool: "echo", _id: `x${i}`, v: "†state.items.0" })),
    ];
    const stream = createIncrementalCompiler(registry);
    for (const call of plan) expect(stream.addCall(call).ok).toBe(true);
    const batch = compile(plan, registry);
    expect(graphToJson(stream.close())).toEqual(graphToJson(batch));
    expect(graphToJson(batch).joins).toHaveLength(1);
  });
});
