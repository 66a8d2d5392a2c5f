import type { CallCommit, StateStore } from "@obelisk/state";
import { afterAll, describe, expect, it } from "vitest";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, createMemoryStore, defineTool, type ToolDefinition } from "./index.js";

const TOOLS: ToolDefinition[] = [
  defineTool({ name: "add", run: (args) => ((args as { a?: number }).a ?? 0) + 1 }),
  defineTool({ name: "pair", run: (args) => ({ got: args }) }),
  defineTool({ name: "note", run: () => "n" }),
];

/** Plain calls, a reference, a push, an output without path, a branch, a description, large parameters. */
const PLAN = [
  { _tool: "add", _id: "a", a: 1, _outputPath: "†state.a" },
  { _tool: "add", _id: "b", a: "†state.a", _outputPath: "†state.b" },
  {
    _tool: "pair",
    _id: "p",
    x: ["†state.a", "†state.b"],
    s: 'q"\\†',
    _outputPath: "†state.list",
    _outputMethod: "push",
  },
  { _tool: "pair", _id: "o", y: { z: "†state.b" } },
  { _tool: "add", _id: "br", _outputPath: "†state.one || †state.two" },
  { _tool: "note", _id: "d", _description: "noted", _outputPath: "†state.d" },
  { _tool: "pair", _id: "big", items: Array.from({ length: 1_100 }, (_, i) => i), _outputPath: "†state.big" },
];

/** The records of a run as JSON, in the store's order (keys in their own order). */
async function recordsOf(store: StateStore, runId: string): Promise<string[]> {
  const engine = createEngine({ tools: TOOLS, store });
  return (await engine.runs.show(runId)).calls.map((record) => JSON.stringify(record));
}

describe("call hashes the memory store fills in later (stop 28)", () => {
  const kinds = storeKinds();
  afterAll(() => {
    for (const kind of kinds) kind.cleanup();
  });

  it("a run on a thread without records of its tools sends succeeded records without a hash, filled in on read", async () => {
    const store = createMemoryStore();
    const commits: CallCommit[] = [];
    const commitCalls = store.commitCalls?.bind(store);
    if (commitCalls !== undefined)
      store.commitCalls = (batch) => {
        commits.push(...batch);
        return commitCalls(batch);
      };
    const commitCall = store.commitCall.bind(store);
    store.commitCall = (commit) => {
      commits.push(commit);
      return commitCall(commit);
    };
    const engine = createEngine({ tools: TOOLS, store });
    const first = await engine.run(PLAN, { threadId: "t" });
    expect(first.status).toBe("succeeded");
    const sent = commits.filter((commit) => commit.record.status === "succeeded");
    expect(sent).toHaveLength(PLAN.length);
    for (const commit of sent) {
      expect(commit.record.callHash).toBeUndefined();
      expect(commit.callHashOf).toBeTypeOf("function");
    }
    const records = (await engine.runs.show(first.runId)).calls;
    for (const record of records) {
      expect(record.callHash).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(Object.isFrozen(record)).toBe(true);
    }
    // the thread holds records of every tool now: a re-sent plan is looked up (and satisfied) as before
    commits.length = 0;
    const again = await engine.run(PLAN, { threadId: "t" });
    expect(Object.values(again.calls).map((call) => call.status)).toEqual(PLAN.map(() => "satisfied"));
  });

  it("the records read back are the same as SQLite's, which hashes at commit", async () => {
    const seen: string[][] = [];
    for (const kind of kinds) {
      const store = kind.open();
      let clock = Date.UTC(2026, 0, 1);
      const engine = createEngine({ tools: TOOLS, store, now: () => clock++ });
      const result = await engine.run(PLAN, { threadId: "h" });
      expect(result.status).toBe("succeeded");
      seen.push(await recordsOf(store, result.runId));
      await store.close();
    }
    const [memory, sqlite] = seen as [string[], string[]];
    expect(memory.map((json) => json.replace(/"runId":"[^"]*"/, ""))).toEqual(
      sqlite.map((json) => json.replace(/"runId":"[^"]*"/, "")),
    );
  });
});
