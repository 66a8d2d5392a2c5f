import { asRunId, asThreadId, ObeliskError, type ThreadId } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import type { RunStatus, RunsOptions, StateStore } from "../store-types.js";
import { commitOk, runRecord, THREAD } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";

const OTHER = asThreadId("thread-2");
const ENDED = "2025-01-01T00:00:01.000Z";

/** Records a run (ended `status` unless `running`), with a `resumeOf` when given. */
async function record(
  store: StateStore,
  runId: string,
  {
    threadId = THREAD,
    status = "succeeded",
    resumeOf,
  }: { threadId?: ThreadId; status?: RunStatus; resumeOf?: string } = {},
): Promise<void> {
  await store.createRun(
    runRecord({
      runId: asRunId(runId),
      threadId,
      ...(resumeOf === undefined ? {} : { resumeOf: asRunId(resumeOf) }),
    }),
  );
  if (status !== "running") await store.finishRun(asRunId(runId), status, ENDED);
}

const ids = async (store: StateStore, options?: RunsOptions): Promise<string[]> =>
  (await store.listRuns(options)).map((run) => run.runId);

/** Every page of `options` (`limit` runs each), each asked with the last run of the one before. */
async function pages(store: StateStore, options: RunsOptions & { limit: number }): Promise<string[][]> {
  const all: string[][] = [];
  let before: string | undefined;
  // a store that ignored the cursor would answer the first page for ever
  for (let asked = 0; asked < 20; asked++) {
    const page = await ids(store, {
      ...options,
      ...(before === undefined ? {} : { before: asRunId(before) }),
    });
    if (page.length === 0) return all;
    all.push(page);
    before = page.at(-1);
  }
  throw new Error(`still paging after 20 pages: ${JSON.stringify(all.slice(0, 3))}`);
}

/** The error `work` throws (undefined when it throws none). */
async function failure(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** `listRuns({ before })`, a cursor through the history, and `resumedBy`, the resume of a run. */
export function runsCursorCases(openStore: OpenStore): void {
  describe("listRuns before: a cursor", () => {
    it("pages through the runs newest first, each page after the last run of the one before", async () => {
      const store = await openStore();
      for (const runId of ["r1", "r2", "r3", "r4", "r5"]) await record(store, runId);
      await record(store, "o1", { threadId: OTHER });
      await record(store, "r6", { status: "failed" });
      expect(await pages(store, { limit: 2 })).toEqual([["r6", "o1"], ["r5", "r4"], ["r3", "r2"], ["r1"]]);
      expect(await pages(store, { threadId: THREAD, limit: 4 })).toEqual([
        ["r6", "r5", "r4", "r3"],
        ["r2", "r1"],
      ]);
      expect(await ids(store, { before: asRunId("r4") })).toEqual(["r3", "r2", "r1"]);
      expect(await ids(store, { before: asRunId("r1") })).toEqual([]);
      expect(await ids(store, { before: asRunId("o1"), status: "succeeded", limit: 2 })).toEqual([
        "r5",
        "r4",
      ]);
      expect(await ids(store, { before: asRunId("r6"), status: "failed" })).toEqual([]);
    });

    it("runs recorded or ended while a caller pages do not shift the next page", async () => {
      const store = await openStore();
      for (const runId of ["r1", "r2", "r3", "r4"]) await record(store, runId);
      await record(store, "live", { status: "running" });
      const lock = await store.lockThread(THREAD);
      const first = await ids(store, { threadId: THREAD, limit: 2 });
      expect(first).toEqual(["live", "r4"]);
      await record(store, "r5");
      await store.finishRun(asRunId("live"), "succeeded", ENDED);
      expect(await ids(store, { threadId: THREAD, limit: 2, before: asRunId("r4") })).toEqual(["r3", "r2"]);
      // the cursor's own status may have changed: it still marks the place
      expect(await ids(store, { status: "succeeded", before: asRunId("live") })).toEqual([
        "r4",
        "r3",
        "r2",
        "r1",
      ]);
      await lock.release();
    });

    it("pages the running and interrupted runs, those whose process stopped answered interrupted", async () => {
      const store = await openStore();
      for (const runId of ["i1", "i2", "i3"]) await record(store, runId, { status: "running" });
      await record(store, "done");
      // nobody holds the thread: the runs still running cannot be in progress
      expect(await ids(store, { status: "interrupted", limit: 2 })).toEqual(["i3", "i2"]);
      expect(await ids(store, { status: "interrupted", limit: 2, before: asRunId("i2") })).toEqual(["i1"]);
      expect(await ids(store, { status: "running", before: asRunId("done") })).toEqual([]);
    });

    it("pages the runs waiting for approval (listWaitingRuns) the same way", async () => {
      const store = await openStore();
      for (const runId of ["w1", "n1", "w2", "w3"]) {
        await store.createRun(runRecord({ runId: asRunId(runId) }));
        const status = runId.startsWith("w") ? "waiting" : "succeeded";
        await commitOk(store, { callId: "gate", runId: asRunId(runId), status });
        await store.finishRun(asRunId(runId), "succeeded", ENDED);
      }
      const waiting = async (options: RunsOptions) =>
        ((await store.listWaitingRuns?.(options)) ?? []).map((run) => run.runId);
      expect(await waiting({ limit: 2 })).toEqual(["w3", "w2"]);
      expect(await waiting({ limit: 2, before: asRunId("w2") })).toEqual(["w1"]);
      expect(await waiting({ before: asRunId("n1") })).toEqual(["w1"]);
    });

    it("a cursor the store does not hold is RUN_NOT_FOUND, not an empty page: unknown, pruned or deleted", async () => {
      const store = await openStore();
      for (const runId of ["r1", "r2", "r3"]) await record(store, runId);
      await record(store, "o1", { threadId: OTHER });
      await store.pruneRuns?.({ threadId: THREAD, keepLast: 1 });
      await store.deleteThread?.(OTHER);
      for (const before of ["nope", "r1", "o1"]) {
        const error = await failure(() => store.listRuns({ before: asRunId(before) }));
        expect(ObeliskError.is(error, "RUN_NOT_FOUND"), before).toBe(true);
        expect((error as ObeliskError).data).toEqual({ runId: before, before: true });
        expect((error as ObeliskError).message).toContain(`no run "${before}" to list the runs before`);
        expect((error as ObeliskError).hint).toContain("leave before out");
      }
      const waitingError = await failure(() => store.listWaitingRuns?.({ before: asRunId("nope") }));
      expect(ObeliskError.is(waitingError, "RUN_NOT_FOUND")).toBe(true);
    });

    it("a cursor of another thread than threadId, or one that is no string, is USAGE", async () => {
      const store = await openStore();
      await record(store, "r1");
      await record(store, "o1", { threadId: OTHER });
      const other = await failure(() => store.listRuns({ threadId: THREAD, before: asRunId("o1") }));
      expect(ObeliskError.is(other, "USAGE")).toBe(true);
      expect((other as ObeliskError).message).toBe(
        'before names run "o1" of thread "thread-2", not of the listed thread "thread-1"',
      );
      for (const before of [7, null, {}]) {
        const error = await failure(() => store.listRuns({ before } as never));
        expect(ObeliskError.is(error, "USAGE"), String(before)).toBe(true);
        expect((error as ObeliskError).message).toBe("before must be a run id (a string)");
      }
    });
  });

  describe("resumedBy: the run that resumed a run", () => {
    it("answers the newest run recorded with that resumeOf, as getRun reads it; undefined for none", async () => {
      const store = await openStore();
      if (store.resumedBy === undefined) throw new Error("the store has no resumedBy()");
      await record(store, "crashed", { status: "interrupted" });
      await record(store, "plain");
      expect(await store.resumedBy(asRunId("crashed"))).toBeUndefined();
      expect(await store.resumedBy(asRunId("nope"))).toBeUndefined();
      await record(store, "first", { resumeOf: "crashed", status: "failed" });
      await record(store, "other", { resumeOf: "plain" });
      await record(store, "second", { resumeOf: "crashed", status: "running" });
      // nobody holds the thread: the running resume cannot be in progress, and reads interrupted
      const found = await store.resumedBy(asRunId("crashed"));
      expect(found).toEqual(await store.getRun(asRunId("second")));
      expect(found?.status).toBe("interrupted");
      expect((await store.resumedBy(asRunId("plain")))?.runId).toBe("other");
      expect(await store.resumedBy(asRunId("second"))).toBeUndefined();
    });

    it("a pruned or deleted resume is not found", async () => {
      const store = await openStore();
      await record(store, "a");
      await record(store, "a2", { resumeOf: "a" });
      await record(store, "a3", { resumeOf: "a" });
      await record(store, "keep");
      await record(store, "b", { threadId: OTHER });
      await record(store, "b2", { threadId: OTHER, resumeOf: "b" });
      await store.pruneRuns?.({ threadId: THREAD, keepLast: 2 });
      expect((await store.resumedBy?.(asRunId("a")))?.runId).toBe("a3");
      await store.pruneRuns?.({ threadId: THREAD, keepLast: 1 });
      expect(await store.resumedBy?.(asRunId("a"))).toBeUndefined();
      await store.deleteThread?.(OTHER);
      expect(await store.resumedBy?.(asRunId("b"))).toBeUndefined();
    });

    it("a run id that is no string is USAGE", async () => {
      const store = await openStore();
      const error = await failure(() => store.resumedBy?.(7 as never));
      expect(ObeliskError.is(error, "USAGE")).toBe(true);
    });
  });
}
