import { describe, expect, it } from "vitest";
import { generatePlan } from "./__fixtures__/generate-plans.js";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);

/** The exported graphology graph and the compiler's internal DAG must tell the same story (decision 0005). */
describe("exported graph agrees with the compiler's own decisions", () => {
  for (const shape of ["chain", "fan-out", "random-dag"] as const) {
    for (const seed of [1, 2, 3]) {
      it(`${shape} #${seed}: one node per call, one edge per writer link, same critical paths`, () => {
        const compiled = compile(generatePlan(shape, 60, seed), registry);
        expect(compiled.ok).toBe(true);
        const graph = compiled.graph;
        expect(graph.order).toBe(compiled.calls.length);
        const expectedEdges = new Set<string>();
        for (const call of compiled.calls)
          for (const links of call.writers.values())
            for (const link of links) expectedEdges.add(`${link.callId}->${call.id}`);
        const actualEdges = new Set(
          graph.mapEdges((_edge, _attributes, source, target) => `${source}->${target}`),
        );
        expect(actualEdges).toEqual(expectedEdges);
        for (const call of compiled.calls)
          expect(graph.getNodeAttribute(call.id, "criticalPath")).toBe(compiled.criticalPaths?.get(call.id));
      });
    }
  }
});
