import { describe, expect, it } from "vitest";
import { callPairs } from "./__fixtures__/call-pairs.js";
import { generatePlan } from "./__fixtures__/generate-plans.js";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);

/** A plan where 12 calls push into one path that 12 calls read (144 pairs: drawn through a join). */
const accumulating = {
  type: "plan",
  plan: [
    ...Array.from({ length: 12 }, (_, i) => ({
      _tool: "log",
      _id: `w${i}`,
      message: "m",
      _outputPath: "†state.logs",
      _outputMethod: "push",
    })),
    ...Array.from({ length: 12 }, (_, i) => ({ _tool: "log", _id: `r${i}`, message: "†state.logs.0" })),
  ],
};

/** The exported graphology graph and the compiler's internal DAG must tell the same story (decision 0005). */
describe("exported graph agrees with the compiler's own decisions", () => {
  const plans = [
    ...(["chain", "fan-out", "random-dag"] as const).flatMap((shape) =>
      [1, 2, 3].map((seed) => [`${shape} #${seed}`, generatePlan(shape, 60, seed)] as const),
    ),
    ["accumulating", accumulating] as const,
  ];
  for (const [name, plan] of plans) {
    it(`${name}: one node per call, its writer links as edges (through a join), same critical paths`, () => {
      const compiled = compile(plan, registry);
      expect(compiled.ok).toBe(true);
      const graph = compiled.graph;
      expect(graph.filterNodes((_id, node) => node.kind === "call")).toEqual(
        compiled.calls.map((call) => call.id),
      );
      const expectedEdges = new Set<string>();
      for (const call of compiled.calls)
        for (const links of call.writers.values())
          for (const link of links) expectedEdges.add(`${link.callId}->${call.id}`);
      expect(callPairs(compiled)).toEqual(expectedEdges);
      for (const call of compiled.calls)
        expect(graph.getNodeAttribute(call.id, "criticalPath")).toBe(compiled.criticalPaths?.get(call.id));
    });
  }

  it("draws the accumulating plan through one join", () => {
    const graph = compile(accumulating, registry).graph;
    expect(graph.filterNodes((_id, node) => node.kind === "join")).toEqual(["join#1"]);
    expect(graph.size).toBe(24);
  });
});
