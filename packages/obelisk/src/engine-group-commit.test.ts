import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteStore } from "@obelisk/state/sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { createEngine, createMemoryStore, defineTool, type StateStore } from "./index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fan-out of `width` synchronous leaves, each writing its own path, and a join reading them all. */
function fanOutPlan(width: number) {
  const leaves = Array.from({ length: width }, (_, i) => ({
    _tool: "leaf",
    _id: `leaf${i}`,
    n: i,
    _outputPath: `†state.leaf${i}`,
  }));
  const all = leaves.map((_, i) => `†state.leaf${i}`);
  const join = { _tool: "join", _id: "join", all, _outputPath: "†state.sum" };
  return { type: "plan", plan: [...leaves, join] };
}

/** A SQLite store whose group commits are observed: sizes, and which calls were durable when. */
function observedSqlite() {
  const dir = mkdtempSync(join(tmpdir(), "obelisk-group-"));
  dirs.push(dir);
  const store = createSqliteStore(join(dir, "state.db"));
  const groups: number[] = [];
  const durable = new Set<string>();
  const commitCalls = store.commitCalls?.bind(store);
  if (commitCalls === undefined) throw new Error("the SQLite store has no commitCalls");
  const observed: StateStore = Object.assign(Object.create(store) as StateStore, {
    commitCalls: (commits: Parameters<typeof commitCalls>[0]) => {
      groups.push(commits.length);
      const results = commitCalls(commits);
      for (const commit of commits) durable.add(commit.record.callId);
      return results;
    },
  });
  return { store: observed, groups, durable };
}

describe("group commit (SQLite)", () => {
  it("commits results that complete together in one transaction, with the same outcome as one by one", async () => {
    const { store, groups, durable } = observedSqlite();
    const seenByJoin: string[][] = [];
    const tools = (record: boolean) => [
      defineTool({ name: "leaf", run: (args: unknown) => (args as { n: number }).n }),
      defineTool({
        name: "join",
        run: (args: unknown) => {
          if (record) seenByJoin.push([...durable]);
          return (args as { all: number[] }).all.reduce((a, b) => a + b, 0);
        },
      }),
    ];
    const grouped = await createEngine({ tools: tools(true), store }).run(fanOutPlan(20), { threadId: "t" });
    const single = await createEngine({ tools: tools(false), store: createMemoryStore() }).run(
      fanOutPlan(20),
      {
        threadId: "t",
      },
    );
    expect(grouped.status).toBe("succeeded");
    expect(grouped.state).toEqual(single.state);
    expect(grouped.state.sum).toBe(190);
    expect(Math.max(...groups)).toBeGreaterThan(1);
    // The join ran only after every leaf's commit was durable.
    expect(seenByJoin).toHaveLength(1);
    expect(new Set(seenByJoin[0])).toEqual(new Set(Array.from({ length: 20 }, (_, i) => `leaf${i}`)));
    const records = await store.listCallRecords(grouped.runId as never);
    expect(records.map((record) => record.callId)).toEqual([
      ...Array.from({ length: 20 }, (_, i) => `leaf${i}`),
      "join",
    ]);
  });

  it("fails only the call whose commit the store refuses; the rest of its group is committed", async () => {
    const { store } = observedSqlite();
    const engine = createEngine({
      tools: [defineTool({ name: "leaf", run: (args: unknown) => (args as { n: number }).n })],
      store,
      stateSchema: { type: "object", properties: { leaf3: { type: "string" } } },
    });
    const plan = {
      type: "plan",
      plan: Array.from({ length: 6 }, (_, i) => ({
        _tool: "leaf",
        _id: `leaf${i}`,
        n: i,
        _outputPath: `†state.leaf${i}`,
      })),
    };
    const result = await engine.run(plan, { threadId: "t" });
    expect(result.status).toBe("failed");
    expect(result.calls.leaf3).toMatchObject({
      status: "failed",
      error: { code: "OUTPUT_SCHEMA_VIOLATION" },
    });
    expect(result.state).toEqual({ leaf0: 0, leaf1: 1, leaf2: 2, leaf4: 4, leaf5: 5 });
  });
});
