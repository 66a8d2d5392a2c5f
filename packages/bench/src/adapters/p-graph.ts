import { PGraph, type PGraphNode } from "p-graph";
import { type Adapter, nodeName, preparedRun } from "./adapter.js";

/** Creates the p-graph adapter; `usePriorities` passes each node's known cost as its priority (an oracle). */
export function createPGraphAdapter(usePriorities: boolean): Adapter {
  return {
    name: usePriorities ? "p-graph (cost priorities)" : "p-graph",
    async prepare(dag, spec) {
      return preparedRun(async () => {
        const results: number[] = new Array(dag.size);
        const nodes = new Map<string, PGraphNode>();
        const edges: [string, string][] = [];
        for (let i = 0; i < dag.size; i++) {
          const deps = dag.deps[i] ?? [];
          const run = () => {
            const value = spec.task(
              i,
              deps.map((j) => results[j] ?? 0),
            );
            if (typeof value === "number") results[i] = value;
            else
              return value.then((v) => {
                results[i] = v;
              });
            return undefined;
          };
          const priority = usePriorities ? (spec.cost?.[i] ?? 0) : 0;
          nodes.set(nodeName(i), { run, priority });
          for (const j of deps) edges.push([nodeName(j), nodeName(i)]);
        }
        const graph = new PGraph(nodes, edges);
        await (spec.concurrency === undefined ? graph.run() : graph.run({ concurrency: spec.concurrency }));
        return results;
      });
    },
  };
}
