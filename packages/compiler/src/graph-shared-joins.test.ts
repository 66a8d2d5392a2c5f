import type { JsonObject } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { callPairs, range, writerPairs } from "./__fixtures__/call-pairs.js";
import { compile } from "./compile.js";
import { computeCriticalPaths } from "./critical-path.js";
import { graphToDot } from "./graph-to-dot.js";
import { graphToJson } from "./graph-to-json.js";
import { graphToMermaid } from "./graph-to-mermaid.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry([
  { name: "echo", input: { type: "object" }, run: (args: JsonObject) => args },
]);

/**
 * `pushers` calls pushing into `†state.acc`, a `set` of each `†state.acc[i]` and a reader of it, for
 * `elements` elements: each element's writer list is the pushers plus its own setter (lists that differ by
 * one writer; the plan is an OUTPUT_CONFLICT, which `validate` still draws).
 */
function pushedAndSet(pushers: number, elements: number): JsonObject[] {
  return [
    ...range(pushers, (i) => ({
      _tool: "echo",
      _id: `p${i}`,
      _outputPath: "†state.acc",
      _outputMethod: "push",
    })),
    ...range(elements, (i) => ({ _tool: "echo", _id: `s${i}`, _outputPath: `†state.acc[${i}]` })),
    ...range(elements, (i) => ({ _tool: "echo", _id: `r${i}`, item: `†state.acc[${i}]` })),
  ];
}

describe("the plan graph draws writers that different lists share through a join (decision 0080, amended at stop 38)", () => {
  it("n pushers, and a setter and a reader of each of n elements: 3n edges, not n × (n + 1)", () => {
    const n = 100;
    const compiled = compile(pushedAndSet(n, n), registry);
    expect(compiled.diagnostics.map((d) => d.code)).toContain("OUTPUT_CONFLICT");
    const graph = compiled.graph;
    expect(graph.size).toBe(3 * n);
    expect(graph.getNodeAttributes("join#1")).toEqual({
      kind: "join",
      references: range(n, (i) => `†state.acc[${i}]`),
      criticalPath: 1,
      shared: true,
    });
    expect(graph.inNeighbors("join#1")).toEqual(range(n, (i) => `p${i}`));
    expect(graph.outNeighbors("join#1")).toEqual(range(n, (i) => `r${i}`));
    expect(graph.inNeighbors("r7")).toEqual(["join#1", "s7"]);
    expect(graph.getEdgeAttributes("join#1", "r7").references).toEqual(["†state.acc[7]"]);
    expect(graph.getEdgeAttributes("s7", "r7").references).toEqual(["†state.acc[7]"]);
    expect(callPairs(compiled)).toEqual(writerPairs(compiled));
  });

  it("keeps an edge per pair up to JOIN_ABOVE_PAIRS shared pairs, and joins above", () => {
    const at = compile(pushedAndSet(8, 8), registry);
    expect(at.graph.size).toBe(8 * 9);
    expect(at.graph.hasNode("join#1")).toBe(false);
    const above = compile(pushedAndSet(8, 9), registry);
    expect(above.graph.size).toBe(8 + 9 + 9);
    expect(above.graph.getNodeAttributes("join#1")).toMatchObject({ shared: true });
    expect(callPairs(above)).toEqual(writerPairs(above));
  });

  it("numbers joins of shared writers after the joins of whole lists", () => {
    const plan = [
      ...pushedAndSet(20, 20),
      ...range(10, (i) => ({
        _tool: "echo",
        _id: `l${i}`,
        _outputPath: "†state.log",
        _outputMethod: "push",
      })),
      ...range(10, (i) => ({ _tool: "echo", _id: `q${i}`, log: "†state.log" })),
    ];
    const graph = compile(plan, registry).graph;
    expect(graph.getNodeAttributes("join#1")).toEqual({
      kind: "join",
      references: ["†state.log"],
      criticalPath: 1,
    });
    expect(graph.getNodeAttributes("join#2")).toMatchObject({ shared: true });
    expect(graph.size).toBe(20 + 20 + 20 + 10 + 10);
  });

  it("exports it: JSON marks it shared, Mermaid and DOT say whose writers it stands for", () => {
    const compiled = compile(pushedAndSet(10, 10), registry);
    const json = graphToJson(compiled);
    expect(json.joins).toEqual([
      {
        id: "join#1",
        references: range(10, (i) => `†state.acc[${i}]`),
        criticalPath: 1,
        shared: true,
      },
    ]);
    expect(json.edges).toHaveLength(30);
    const label = "writers shared by †state.acc[0], †state.acc[1], †state.acc[2], … (+7)";
    expect(graphToMermaid(compiled)).toContain(`(["join#35;1<br/>${label}"])`);
    expect(graphToDot(compiled)).toContain(`"join#1" [shape=ellipse, label="join#1\\n${label}"];`);
  });

  it("labels a conditional writer's edge into the join with the alternative it takes", () => {
    const plan = pushedAndSet(10, 10);
    plan[0] = { _tool: "echo", _id: "p0", _outputPath: "†state.acc || †state.other", _outputMethod: "push" };
    const compiled = compile(plan, registry);
    expect(compiled.graph.getEdgeAttributes("p0", "join#1")).toMatchObject({
      alternatives: [0],
      conditional: true,
    });
    expect(graphToMermaid(compiled)).toMatch(/n0_p0 -\. "†state\.acc" \.-> n\d+_join_1/);
    expect(callPairs(compiled)).toEqual(writerPairs(compiled));
  });

  it("a valid plan: readers of nested paths (†state.a, †state.a.a, …) share the writers below the deepest", () => {
    // level l has 20 writers below it (†state.a^l.x<j>) and one reader of it: the reader of level l waits for
    // the writers of levels l…5, so the writers of level l are read by l readers (20 × l pairs)
    const plan = range(5, (l) => `†state${".a".repeat(l + 1)}`).flatMap((level, l) => [
      ...range(20, (j) => ({ _tool: "echo", _id: `w${l}_${j}`, _outputPath: `${level}.x${j}` })),
      { _tool: "echo", _id: `r${l}`, read: level },
    ]);
    const compiled = compile(plan, registry);
    expect(compiled.diagnostics).toEqual([]);
    const graph = compiled.graph;
    // levels 1–3 pair by pair (20, 40, 60 pairs), levels 4 and 5 through a join (20 + 4, 20 + 5 edges)
    expect(graph.size).toBe(20 + 40 + 60 + 24 + 25);
    expect(graph.outNeighbors("join#2")).toEqual(["r0", "r1", "r2", "r3", "r4"]);
    expect(callPairs(compiled)).toEqual(writerPairs(compiled));
    const computed = computeCriticalPaths(graph, () => 1);
    for (const call of compiled.calls)
      expect(computed.get(call.id)).toBe(compiled.criticalPaths?.get(call.id));
  });
});
