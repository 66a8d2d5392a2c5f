import { asRunId, asThreadId } from "@obelisk/core";
import type { CallCommit, StateStore } from "@obelisk/state";
import { afterEach, describe, expect, it } from "vitest";
import { crashable } from "./__fixtures__/crashable-store.js";
import { until } from "./__fixtures__/deferred.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type Engine, type RunEvent, type RunResult, type ToolDefinition } from "./index.js";

// Stop 36 (docs/performance/state.md): a waiting run resumed again and again without its approval built a
// chain of `resumeOf` runs, and each resume read every run of the chain and all their call records — on
// SQLite 100/200/400 resumes of a two-call plan took 1.1/3.3/13.7 s. A resume now reads back to the newest
// run that recorded every call of its plan (decision 0079).

/** `store`, counting the run and call-record reads asked of it. */
function countingReads(store: StateStore): { readonly store: StateStore; reads(): number } {
  let reads = 0;
  const counted = ["getRun", "listCallRecords", "findCompletedCalls", "resumedBy", "listRuns"];
  const proxy = new Proxy(store, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof key !== "string" || !counted.includes(key) || typeof value !== "function") return value;
      return (...args: unknown[]) => {
        reads++;
        return value.apply(target, args);
      };
    },
  });
  return { store: proxy, reads: () => reads };
}

/** `fetch` is fresh: it runs each time it is not satisfied (`fetched` counts them). */
function tools(fetched: number[]): ToolDefinition[] {
  return [
    {
      name: "fetch",
      fresh: true,
      run: () => {
        fetched.push(fetched.length + 1);
        return fetched.length;
      },
    },
    { name: "echo", run: (args) => (args as { v: unknown }).v },
  ];
}

/** The run each `satisfied` call was satisfied by, as its `call-end` event names it. */
function satisfiedBy(events: readonly RunEvent[]): Record<string, string | undefined> {
  const by: Record<string, string | undefined> = {};
  for (const event of events)
    if (event.type === "call-end" && event.status === "satisfied") by[event.callId] = event.satisfiedBy;
  return by;
}

/** A fetch, then a call that waits for a person's approval. */
const plan = [
  { _id: "a", _tool: "fetch", _outputPath: "†state.x" },
  { _id: "g", _tool: "echo", v: "†state.approvals.ok && †state.x", _outputPath: "†state.y" },
];

/** Counts on from what it reads: `n + 1`. */
const counter: ToolDefinition = { name: "count", run: (args) => (args as { n: number }).n + 1 };

/** A counter that reads its own output (decision 0012's amendment), then a call waiting for approval. */
const counting = [
  { _id: "c", _tool: "count", n: "†state.count || †input.zero", _outputPath: "†state.count" },
  { _id: "g", _tool: "echo", v: "†state.approvals.ok && †state.count", _outputPath: "†state.y" },
];

/** The plan of {@link plan} with an echo for `a`: not fresh, so a run of it sent again is satisfied. */
const sentAgain = [{ _id: "a", _tool: "echo", v: 1, _outputPath: "†state.x" }, plan[1] as object];

describe.each(storeKinds())("a chain of resumes on the $name store", (kind) => {
  const engines: Engine[] = [];
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.close().catch(() => undefined);
    kind.cleanup();
  });

  /**
   * Runs `sent` (sent `runs` times: the last run is the one resumed), resumes it `times` times, and counts
   * the store reads of one more resume.
   */
  async function readsOfResume(threadId: string, times: number, sent: readonly object[] = plan, runs = 1) {
    const fetched: number[] = [];
    const counting = countingReads(kind.open());
    const engine = createEngine({ tools: [counter, ...tools(fetched)], store: counting.store });
    engines.push(engine);
    const first = await engine.run(sent, { threadId, input: { zero: 0 } });
    let original = first;
    for (let at = 1; at < runs; at++) original = await engine.run(sent, { threadId, input: { zero: 0 } });
    let last: RunResult = original;
    for (let at = 0; at < times; at++) last = await engine.resume(last.runId);
    const before = counting.reads();
    const events: RunEvent[] = [];
    last = await engine.resume(last.runId, { onEvent: (event) => events.push(event) });
    return { engine, first, original, last, reads: counting.reads() - before, fetched, events };
  }

  it("a plan sent again, then resumed again and again: its calls satisfied by the first run's records, the 25th resume reads as much as the 3rd", async () => {
    const short = await readsOfResume("short", 2, sentAgain, 2);
    const long = await readsOfResume("long", 24, sentAgain, 2);
    expect(long.reads).toBe(short.reads);
    for (const { first, last, events } of [short, long]) {
      expect(satisfiedBy(events)).toEqual({ a: first.runId });
      expect(last.calls.g?.status).toBe("waiting");
    }
    await long.engine.set("long", "†state.approvals.ok", true);
    const approved = await long.engine.resume(long.last.runId);
    expect(approved.calls.a?.status).toBe("satisfied");
    expect(approved.state).toMatchObject({ x: 1, y: 1 });
  });

  it("a counter that reads its own output (its key differs from its own record's): the 25th resume reads as much as the 3rd", async () => {
    const short = await readsOfResume("short", 2, counting);
    const long = await readsOfResume("long", 24, counting);
    expect(long.reads).toBe(short.reads);
    for (const { original, last, events } of [short, long]) {
      expect(satisfiedBy(events)).toEqual({ c: original.runId });
      expect(last.state).toMatchObject({ count: 1 });
    }
    await long.engine.set("long", "†state.approvals.ok", true);
    const approved = await long.engine.resume(long.last.runId);
    expect(approved.calls.c?.status).toBe("satisfied");
    expect(approved.state).toMatchObject({ count: 1, y: 1 });
  });

  it("satisfied records written without satisfiedBy take the whole walk; the resumes after write it and end their walks", async () => {
    const counted = countingReads(kind.open());
    // the records of an engine from before satisfiedBy
    let legacy = true;
    const store = new Proxy(counted.store, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver);
        if (key !== "commitCall" || typeof value !== "function") return value;
        return (commit: CallCommit) => {
          const { satisfiedBy: _dropped, ...older } = commit.record;
          return value.call(target, legacy ? { ...commit, record: older } : commit);
        };
      },
    });
    const engine = createEngine({ tools: [counter, ...tools([])], store });
    engines.push(engine);
    const original = await engine.run(counting, { threadId: "old", input: { zero: 0 } });
    let last = original;
    for (let at = 0; at < 6; at++) last = await engine.resume(last.runId);
    legacy = false;
    const reads: number[] = [];
    for (let at = 0; at < 3; at++) {
      const before = counted.reads();
      last = await engine.resume(last.runId);
      reads.push(counted.reads() - before);
      expect(last.calls.c?.status).toBe("satisfied");
    }
    expect(reads[1]).toBeLessThan(reads[0] as number);
    expect(reads[2]).toBe(reads[1]);
    const records = await store.listCallRecords(asRunId(last.runId));
    expect(records.find((record) => record.callId === "c")?.satisfiedBy).toBe(original.runId);
    expect(last.state).toMatchObject({ count: 1 });
  });

  it("reads as much at the 25th resume as at the 3rd: the calls of its plan, not the runs before", async () => {
    const short = await readsOfResume("short", 2);
    const long = await readsOfResume("long", 24);
    expect(long.reads).toBe(short.reads);
    for (const { original, last, fetched, events } of [short, long]) {
      // the fresh fetch of the original run is still the call's own record: not fetched again
      expect(fetched).toEqual([1]);
      expect(satisfiedBy(events)).toEqual({ a: original.runId });
      expect(last.calls.g?.status).toBe("waiting");
    }
    await long.engine.set("long", "†state.approvals.ok", true);
    const events: RunEvent[] = [];
    const approved = await long.engine.resume(long.last.runId, { onEvent: (event) => events.push(event) });
    expect(satisfiedBy(events)).toEqual({ a: long.original.runId });
    expect(approved.calls.g?.status).toBe("succeeded");
    expect(approved.state).toMatchObject({ x: 1, y: 1 });
    expect(long.fetched).toEqual([1]);
  });

  it("a chain recorded before resumeRoot existed gets it at its next resume, and its walks end from then on", async () => {
    const fetched: number[] = [];
    const counting = countingReads(kind.open());
    // the resumes of an engine from before decision 0079 recorded no resumeRoot
    let legacy = true;
    const store = new Proxy(counting.store, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver);
        if (key !== "createRun" || typeof value !== "function") return value;
        return (run: { resumeRoot?: unknown }) => {
          const { resumeRoot: _dropped, ...older } = run;
          return value.call(target, legacy ? older : run);
        };
      },
    });
    const engine = createEngine({ tools: tools(fetched), store });
    engines.push(engine);
    const original = await engine.run(plan, { threadId: "old" });
    let last = original;
    for (let at = 0; at < 6; at++) last = await engine.resume(last.runId);
    legacy = false;
    const reads: number[] = [];
    for (let at = 0; at < 3; at++) {
      const before = counting.reads();
      last = await engine.resume(last.runId);
      reads.push(counting.reads() - before);
      expect((await store.getRun(asRunId(last.runId)))?.resumeRoot).toBe(original.runId);
    }
    // the first resume after the upgrade walks the whole chain; the next ones stop at the run they resume
    expect(reads[1]).toBeLessThan(reads[0] as number);
    expect(reads[2]).toBe(reads[1]);
    expect(fetched).toEqual([1]);
  });

  it("a run of the same plan sent again does not lend its fresh record to the chain of the first", async () => {
    const fetched: number[] = [];
    const engine = createEngine({ tools: tools(fetched), store: kind.open() });
    engines.push(engine);
    const first = await engine.run(plan, { threadId: "t" });
    // sent again: the fresh fetch runs again there (same call id, same key, a newer record)
    await engine.run(plan, { threadId: "t" });
    expect(fetched).toEqual([1, 2]);
    let last = await engine.resume(first.runId);
    const events: RunEvent[] = [];
    last = await engine.resume(last.runId, { onEvent: (event) => events.push(event) });
    expect(satisfiedBy(events)).toEqual({ a: first.runId });
    expect(fetched).toEqual([1, 2]);
  });

  it("a counter that reads its own output is satisfied by its own record after many resumes", async () => {
    const engine = createEngine({ tools: [counter, ...tools([])], store: kind.open() });
    engines.push(engine);
    let last = await engine.run(counting, { threadId: "t", input: { zero: 0 } });
    for (let at = 0; at < 4; at++) last = await engine.resume(last.runId);
    await engine.set("t", "†state.approvals.ok", true);
    last = await engine.resume(last.runId);
    expect(last.calls.c?.status).toBe("satisfied");
    expect(last.state).toMatchObject({ count: 1, y: 1 });
  });

  it("a run of the chain its resume never ended is ended by the next resume, as one it continues", async () => {
    const store = kind.open();
    const fetched: number[] = [];
    // the original run dies once its fetch is committed: its gate is running
    const dying = crashable(store);
    let gated = false;
    const hanging: ToolDefinition = {
      name: "gate",
      run: () => {
        gated = true;
        return new Promise(() => {});
      },
    };
    const plan2 = [plan[0], { _id: "h", _tool: "gate", after: "†state.x", _outputPath: "†state.h" }];
    void createEngine({ tools: [...tools(fetched), hanging], store: dying.store }).run(plan2, {
      threadId: "t",
    });
    await until(() => gated);
    dying.crash();
    const [crashed] = await store.listRuns({ threadId: asThreadId("t") });
    const crashedId = crashed?.runId as string;
    // its resume records every call and its own end, then dies before it ends the run it continued
    const opening: ToolDefinition = { name: "gate", run: () => "opened" };
    const ending = crashable(store);
    let died = false;
    const finishThenDie = new Proxy(ending.store, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver);
        if (key !== "finishRun" || typeof value !== "function") return value;
        return async (...args: unknown[]) => {
          await value.apply(target, args);
          ending.crash();
          died = true;
        };
      },
    });
    void createEngine({ tools: [...tools(fetched), opening], store: finishThenDie }).resume(crashedId);
    await until(() => died);
    const resumed = await store.resumedBy?.(asRunId(crashedId));
    expect([resumed?.status, (await store.getRun(asRunId(crashedId)))?.status]).toEqual([
      "succeeded",
      "interrupted",
    ]);
    const engine = createEngine({ tools: [...tools(fetched), opening], store });
    engines.push(engine);
    const events: RunEvent[] = [];
    const result = await engine.resume(resumed?.runId as string, { onEvent: (event) => events.push(event) });
    expect(fetched).toEqual([1]);
    const superseded = events.filter((event) => event.type === "run-superseded");
    expect(superseded).toMatchObject([{ runId: result.runId, supersededRunId: crashedId, resumed: true }]);
    const { run } = await engine.runs.show(crashedId);
    expect(run.status).toBe("cancelled");
    expect(run.reason).not.toMatch(/^superseded by run /);
  });
});
