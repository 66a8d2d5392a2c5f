import { Annotation, START, StateGraph } from "@langchain/langgraph";
import { type Adapter, nodeName, preparedRun } from "./adapter.js";

const ResultsState = Annotation.Root({
  // Merged in place: generous to LangGraph (a copying reducer would make every step O(n)).
  results: Annotation<Record<string, number>>({
    reducer: (current, update) => Object.assign(current, update),
    default: () => ({}),
  }),
});

type ResultsUpdate = { results: Record<string, number> };
type NodeFn = (state: { results: Record<string, number> }) => ResultsUpdate | Promise<ResultsUpdate>;

/** The untyped view of a StateGraph builder with dynamic node names. */
interface LooseGraph {
  addNode(name: string, fn: NodeFn): LooseGraph;
  addEdge(from: string | string[], to: string): LooseGraph;
  compile(): {
    invoke(
      input: Record<string, never>,
      config: { recursionLimit: number; maxConcurrency?: number },
    ): Promise<{ results: Record<string, number> }>;
  };
}

/**
 * LangGraph: a StateGraph with one node per call; a node with several dependencies gets one
 * multi-source edge (`addEdge([a, b], c)`: waits for all), parallel branches run in the same superstep.
 */
export const langGraphAdapter: Adapter = {
  name: "LangGraph",
  async prepare(dag, spec) {
    return preparedRun(async () => {
      const builder = new StateGraph(ResultsState) as unknown as LooseGraph;
      for (let i = 0; i < dag.size; i++) {
        const deps = dag.deps[i] ?? [];
        const name = nodeName(i);
        builder.addNode(name, (state) => {
          const value = spec.task(
            i,
            deps.map((j) => state.results[nodeName(j)] ?? 0),
          );
          if (typeof value === "number") return { results: { [name]: value } };
          return value.then((v) => ({ results: { [name]: v } }));
        });
      }
      for (let i = 0; i < dag.size; i++) {
        const deps = (dag.deps[i] ?? []).map(nodeName);
        if (deps.length === 0) builder.addEdge(START, nodeName(i));
        else builder.addEdge(deps.length === 1 ? (deps[0] as string) : deps, nodeName(i));
      }
      const config = {
        recursionLimit: dag.size + 10,
        ...(spec.concurrency === undefined ? {} : { maxConcurrency: spec.concurrency }),
      };
      const out = await builder.compile().invoke({}, config);
      return Array.from({ length: dag.size }, (_, i) => out.results[nodeName(i)] ?? Number.NaN);
    });
  },
};
