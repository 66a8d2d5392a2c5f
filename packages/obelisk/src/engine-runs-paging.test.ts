import type { RunRecord, StateStore } from "@obelisk/state";
import { afterEach, describe, expect, it } from "vitest";
import { rejectionOf } from "./__fixtures__/error-codes.js";
import { steps } from "./__fixtures__/step-tool.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type Engine } from "./index.js";

// The s35 embedder review (L3): runs.list had no cursor, so a long history could only be read all at once;
// and resume's check under the lock (decision 0070) listed the thread's whole history (decision 0074).

type ListOptions = Parameters<Engine["runs"]["list"]>[0];

/** `store` with `listRuns` answered by `listRuns` (given the store's), and `resumedBy` when `keep` says so. */
function wrapped(
  store: StateStore,
  listRuns: (original: StateStore["listRuns"], options: Parameters<StateStore["listRuns"]>[0]) => unknown,
  keepResumedBy = true,
): StateStore {
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key === "resumedBy" && !keepResumedBy) return undefined;
      const value: unknown = Reflect.get(target, key, receiver);
      if (key !== "listRuns" || typeof value !== "function") return value;
      return (options: Parameters<StateStore["listRuns"]>[0]) =>
        listRuns((given) => value.call(target, given), options);
    },
  });
}

describe.each(storeKinds())("runs.list({ before }) and resume's check, on the $name store", (kind) => {
  const engines: Engine[] = [];
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.close().catch(() => undefined);
    kind.cleanup();
  });
  const engineOn = (store: StateStore): Engine => {
    const engine = createEngine({ tools: [steps().tool], store });
    engines.push(engine);
    return engine;
  };
  const ids = async (engine: Engine, options: ListOptions) =>
    (await engine.runs.list(options)).map((run) => run.runId);
  /** Runs one plan on `threadId`; answers its run id. */
  const runOn = async (engine: Engine, threadId: string, key: string): Promise<string> =>
    (await engine.run([{ _tool: "step", key, _outputPath: "†state.k" }], { threadId })).runId;

  it("pages the runs newest first, each page after the last run of the one before; a run recorded meanwhile does not shift it", async () => {
    const engine = engineOn(kind.open());
    const t = [];
    for (const key of ["a", "b", "c", "d", "e"]) t.push(await runOn(engine, "t", key));
    const u = await runOn(engine, "u", "x");
    const first = await ids(engine, { threadId: "t", limit: 2 });
    expect(first).toEqual([t[4], t[3]]);
    const late = await runOn(engine, "t", "f");
    const second = await ids(engine, { threadId: "t", limit: 2, before: first.at(-1) });
    expect(second).toEqual([t[2], t[1]]);
    expect(await ids(engine, { threadId: "t", limit: 2, before: second.at(-1) })).toEqual([t[0]]);
    expect(await ids(engine, { threadId: "t", before: t[0] })).toEqual([]);
    // every thread, and with a status
    expect(await ids(engine, { before: late, limit: 2 })).toEqual([u, t[4]]);
    expect(await ids(engine, { before: u, status: "succeeded" })).toEqual([t[4], t[3], t[2], t[1], t[0]]);
    expect(await ids(engine, { before: u, status: "failed" })).toEqual([]);
    // the waiting and stale filters page the same way (none of these runs waits or is running)
    expect(await ids(engine, { waiting: true, before: u })).toEqual([]);
    expect(await ids(engine, { status: "running", stale: true, before: u })).toEqual([]);
  });

  it("a cursor the store does not hold is RUN_NOT_FOUND; of another thread, or no string, USAGE", async () => {
    const store = kind.open();
    const engine = engineOn(store);
    const kept = await runOn(engine, "t", "a");
    const pruned = await runOn(engine, "t", "b");
    await runOn(engine, "t", "c");
    const other = await runOn(engine, "u", "x");
    await engine.runs.prune({ threadId: "t", keepLast: 2 });
    expect(await ids(engine, { threadId: "t" })).not.toContain(kept);
    for (const before of ["nope", kept]) {
      const error = await rejectionOf(engine.runs.list({ threadId: "t", before }));
      expect(error.code, before).toBe("RUN_NOT_FOUND");
      expect(error.data).toEqual({ runId: before, before: true });
      expect(error.hint).toContain("list again from the newest (leave before out)");
    }
    expect((await rejectionOf(engine.runs.list({ waiting: true, before: "nope" }))).code).toBe(
      "RUN_NOT_FOUND",
    );
    const elsewhere = await rejectionOf(engine.runs.list({ threadId: "t", before: other }));
    expect(elsewhere.code).toBe("USAGE");
    expect(elsewhere.message).toBe(`before names run "${other}" of thread "u", not of the listed thread "t"`);
    const notString = await rejectionOf(engine.runs.list({ before: 7 as never }));
    expect(notString.code).toBe("USAGE");
    expect(notString.message).toBe("runs.list's before must be a string, not a number");
    expect(await ids(engine, { threadId: "t", before: pruned })).toEqual([]);
  });

  it("a store that ignores before is refused (USAGE), not paged for ever", async () => {
    const store = kind.open();
    // a custom store without paging: it drops the cursor
    const engine = engineOn(
      wrapped(store, (listRuns, options) => listRuns({ ...options, before: undefined })),
    );
    const a = await runOn(engine, "t", "a");
    const b = await runOn(engine, "t", "b");
    expect(await ids(engine, { limit: 1 })).toEqual([b]);
    const error = await rejectionOf(engine.runs.list({ limit: 1, before: b }));
    expect(error.code).toBe("USAGE");
    expect(error.message).toContain("runs.list({ before }) needs a store with listRuns honouring before");
    expect(a).not.toBe(b);
  });

  /** A run of thread `t` whose process stopped (recorded `running`, nobody holds the lock), after `history` runs. */
  async function crashedAfter(
    store: StateStore,
    history: number,
  ): Promise<{ engine: Engine; crashed: string }> {
    const engine = engineOn(store);
    for (let at = 0; at < history; at++) await runOn(engine, "t", `k${at}`);
    const [last] = await engine.runs.list({ threadId: "t", limit: 1 });
    const crashed = "crashed-run";
    await store.createRun({ ...(last as RunRecord), runId: crashed as never, status: "running" });
    return { engine, crashed };
  }

  it("resume finds whether the run was resumed without listing the thread's history", async () => {
    const listed: unknown[] = [];
    const store = wrapped(kind.open(), (listRuns, options) => {
      listed.push(options);
      return listRuns(options);
    });
    const { engine, crashed } = await crashedAfter(store, 5);
    listed.length = 0;
    const first = await engine.resume(crashed);
    expect(first.status).toBe("succeeded");
    const error = await rejectionOf(engine.resume(crashed));
    expect(error.code).toBe("RUN_NOT_RESUMABLE");
    expect(error.data).toEqual({ runId: crashed, status: "cancelled", resumedBy: first.runId });
    // the open runs of the thread only (status "interrupted", the chain's), never all of its runs
    expect(listed.length).toBeGreaterThan(0);
    for (const options of listed) expect(options).toHaveProperty("status");
  });

  it("a store without resumedBy (a custom one) lists the thread's runs for it, and refuses the same way", async () => {
    const listed: unknown[] = [];
    const base = kind.open();
    // the built-in stores have it: a custom store's is what the engine then does without
    expect(typeof base.resumedBy).toBe("function");
    const store = wrapped(
      base,
      (listRuns, options) => {
        listed.push(options);
        return listRuns(options);
      },
      false,
    );
    const { engine, crashed } = await crashedAfter(store, 3);
    const first = await engine.resume(crashed);
    const error = await rejectionOf(engine.resume(crashed));
    expect(error.code).toBe("RUN_NOT_RESUMABLE");
    expect(error.data).toEqual({ runId: crashed, status: "cancelled", resumedBy: first.runId });
    expect(listed).toContainEqual({ threadId: "t" });
  });
});
