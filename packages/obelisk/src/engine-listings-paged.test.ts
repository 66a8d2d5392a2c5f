import { afterEach, describe, expect, it, vi } from "vitest";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, createMemoryStore, type Engine, type RunSummary, type StateStore } from "./index.js";

// Decision 0104 (review s41 r3 #3, #4): runs.list({ plans: false }) answers runs without their plans and
// inputs; threads.list({ limit, after }) pages the threads and reads only the page's.

const tools = [{ name: "echo", run: (args: unknown) => (args as { v: unknown }).v }];
const BIG = { text: "x".repeat(50_000) };

describe.each(storeKinds())("paged listings on the $name store", (kind) => {
  const engines: Engine[] = [];
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.close().catch(() => undefined);
    kind.cleanup();
    vi.restoreAllMocks();
  });

  /** An engine with runs of 1, 2 and 3 calls (each with a 50 KB input) on threads t1..t3. */
  async function threeRuns(store: StateStore = kind.open()): Promise<Engine> {
    const engine = createEngine({ tools, store });
    engines.push(engine);
    for (let n = 1; n <= 3; n++) {
      const plan = Array.from({ length: n }, (_, i) => ({ _tool: "echo", _id: `c${i}`, v: i }));
      await engine.run(plan, { threadId: `t${n}`, input: BIG });
    }
    return engine;
  }

  it("runs.list({ plans: false }) answers the same runs without plan and input, with their call counts", async () => {
    const engine = await threeRuns();
    const listSpy = vi.spyOn(engine.store, "listRuns");
    const summaries: readonly RunSummary[] = await engine.runs.list({ plans: false, limit: 2 });
    expect(summaries.map((run) => [run.threadId, run.calls, run.status])).toEqual([
      ["t3", 3, "succeeded"],
      ["t2", 2, "succeeded"],
    ]);
    for (const run of summaries) {
      expect(run).not.toHaveProperty("plan");
      expect(run).not.toHaveProperty("input");
    }
    // the store's summaries, not its whole records
    expect(listSpy).not.toHaveBeenCalled();
    const whole = await engine.runs.list({ limit: 2 });
    expect(summaries.map((run) => run.runId)).toEqual(whole.map((run) => run.runId));
    expect(JSON.stringify(summaries).length).toBeLessThan(2_000);
    expect(JSON.stringify(whole).length).toBeGreaterThan(100_000);
    const [last] = summaries;
    expect(await engine.runs.list({ plans: false, before: last?.runId as string })).toHaveLength(2);
    expect(await engine.runs.list({ plans: false, threadId: "t1", status: "succeeded" })).toMatchObject([
      { threadId: "t1", calls: 1 },
    ]);
  });

  it("threads.list({ limit, after }) pages the threads by id, reading only the page's statistics", async () => {
    const engine = await threeRuns();
    const stats = vi.spyOn(engine.store, "stats");
    const first = await engine.threads.list({ limit: 2 });
    expect(first.map((thread) => thread.threadId)).toEqual(["t1", "t2"]);
    expect(stats).toHaveBeenCalledTimes(2);
    const next = await engine.threads.list({ limit: 2, after: "t2" });
    expect(next.map((thread) => [thread.threadId, thread.runs])).toEqual([["t3", 1]]);
    // a cursor need not be a thread the store holds: the ids after it in code-unit order
    expect((await engine.threads.list({ after: "t10" })).map((thread) => thread.threadId)).toEqual([
      "t2",
      "t3",
    ]);
    expect(await engine.threads.list({ after: "t3" })).toEqual([]);
    expect(await engine.threads.list({})).toEqual(await engine.threads.list());
  });
});

describe("paged listings: options and custom stores", () => {
  it("refuses options that are no page (USAGE, with a hint)", async () => {
    const engine = createEngine({ tools });
    const refused = async (work: () => Promise<unknown>) =>
      expect(work()).rejects.toMatchObject({ code: "USAGE" });
    await refused(() => engine.runs.list({ plans: "no" as never }));
    await refused(() => engine.threads.list({ limit: 0 }));
    await refused(() => engine.threads.list({ limit: 1.5 }));
    await refused(() => engine.threads.list({ after: 3 as never }));
    await refused(() => engine.threads.list({ page: 2 } as never));
    await engine.close();
  });

  it("a store without listRunSummaries has its records stripped; waiting: true with plans: false too", async () => {
    const memory = createMemoryStore();
    const store = new Proxy(memory, {
      get: (target, key) => (key === "listRunSummaries" ? undefined : Reflect.get(target, key, target)),
    });
    const engine = createEngine({ tools, store });
    await engine.run([{ _tool: "echo", _id: "a", v: 1 }], { input: BIG });
    const [summary] = await engine.runs.list({ plans: false });
    expect(summary).toMatchObject({ calls: 1, status: "succeeded" });
    expect(summary).not.toHaveProperty("input");
    expect(await engine.runs.list({ plans: false, waiting: true })).toEqual([]);
    await engine.close();
  });
});
