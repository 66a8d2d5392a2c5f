import { setMaxListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { type DagShape, generateDag } from "../dag.js";
import { referenceResults, work } from "../work.js";
import type { NodeTask } from "./adapter.js";
import { type EngineKey, loadAdapter } from "./registry.js";

setMaxListeners(0);

const ENGINES: readonly EngineKey[] = [
  "naive",
  "async-auto",
  "p-graph",
  "p-graph-priorities",
  "langgraph",
  "obelisk-memory",
  "obelisk-sqlite",
];

/** An asynchronous task resolving in a scrambled order (microtask depths), to shake out ordering bugs. */
const scrambled: NodeTask = async (i, inputs) => {
  for (let k = 0; k < (i * 7) % 5; k++) await Promise.resolve();
  return work(i, inputs);
};

// Every shape's structure is tested in dag.test.ts; here one deep and one wide DAG per engine (keeps it fast).
const SHAPES: readonly DagShape[] = ["chain", "wide"];

describe.each(ENGINES)("%s adapter", (key) => {
  it.each(SHAPES)("returns the reference results on a 50-node %s DAG", async (shape) => {
    const dag = generateDag(shape, 50, 13);
    const adapter = await loadAdapter(key);
    const prepared = await adapter.prepare(dag, { task: work });
    try {
      expect(await prepared.run()).toEqual(referenceResults(dag));
    } finally {
      await prepared.dispose();
    }
  });

  it("returns the reference results with asynchronous tasks and a concurrency limit of 2", async () => {
    const dag = generateDag("sparse", 50, 17);
    const adapter = await loadAdapter(key);
    const cost = dag.deps.map((_, i) => i % 3);
    const prepared = await adapter.prepare(dag, { task: scrambled, concurrency: 2, cost });
    try {
      expect(await prepared.run()).toEqual(referenceResults(dag));
    } finally {
      await prepared.dispose();
    }
  });
});

describe("work", () => {
  it("depends on the node index and on each input and their order", () => {
    expect(work(1, [2, 3])).not.toBe(work(2, [2, 3]));
    expect(work(1, [2, 3])).not.toBe(work(1, [3, 2]));
    expect(work(1, [2, 3])).not.toBe(work(1, [2, 4]));
    expect(Number.isInteger(work(5, [4_000_000_000, 123]))).toBe(true);
  });
});
