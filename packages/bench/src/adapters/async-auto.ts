import asyncLib from "async";
import { type Adapter, nodeName, preparedRun } from "./adapter.js";

type AutoTask = ((results: Record<string, number>) => Promise<number>) | (() => Promise<number>);
type AutoFn = (
  tasks: Record<string, AutoTask | (string | AutoTask)[]>,
  concurrency?: number,
) => Promise<Record<string, number>>;

/**
 * `async.auto` from the `async` library: tasks keyed by name, each listing the names it needs.
 * Tasks are native async functions (async v3 runs them as promises): synchronous callbacks overflow
 * the stack on long chains.
 */
export const asyncAutoAdapter: Adapter = {
  name: "async.auto",
  async prepare(dag, spec) {
    const auto = asyncLib.auto as unknown as AutoFn;
    return preparedRun(async () => {
      const tasks: Record<string, AutoTask | (string | AutoTask)[]> = {};
      for (let i = 0; i < dag.size; i++) {
        const deps = dag.deps[i] ?? [];
        if (deps.length === 0) {
          tasks[nodeName(i)] = async () => spec.task(i, []);
        } else {
          const run = async (results: Record<string, number>) =>
            spec.task(
              i,
              deps.map((j) => results[nodeName(j)] ?? 0),
            );
          tasks[nodeName(i)] = [...deps.map(nodeName), run];
        }
      }
      const out = await auto(tasks, spec.concurrency ?? Number.POSITIVE_INFINITY);
      return Array.from({ length: dag.size }, (_, i) => out[nodeName(i)] ?? Number.NaN);
    });
  },
};
