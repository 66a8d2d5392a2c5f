import { asRunId, asThreadId } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import type { RunRecord, StateStore } from "../store-types.js";
import { manualClock, runRecord, THREAD } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";

const OTHER = asThreadId("other");
const clock = manualClock();
const FOUND_AT = new Date(clock.now()).toISOString();

/** A run recorded `running` on `threadId` (a streaming run's empty plan, so calls can be appended). */
const running = (id: string, threadId = THREAD): RunRecord =>
  runRecord({ runId: asRunId(id), threadId, plan: { type: "plan", plan: [] } });

/** A run that started on `threadId` holding its lock, then whose process stopped: the lock went, the record stayed. */
async function abandoned(store: StateStore, id: string, threadId = THREAD): Promise<void> {
  const lock = await store.lockThread(threadId);
  await store.createRun(running(id, threadId));
  await store.appendRunCalls?.(asRunId(id), [{ _tool: "t", _id: "a" }]);
  await lock.release();
}

const ids = (runs: readonly RunRecord[]): string[] => runs.map((run) => run.runId);

/**
 * Runs left `running` by a process that stopped: the store marks them `interrupted` (with a reason) when
 * their thread is locked again or when they are read, never while a run holds the thread.
 */
export function interruptedCases(openStore: OpenStore): void {
  describe("interrupted runs", () => {
    it("a run left running is interrupted when its thread is locked again, its appended calls kept", async () => {
      const store = await openStore({ now: clock.now });
      await abandoned(store, "r1");
      const lock = await store.lockThread(THREAD);
      const [listed] = await store.listRuns({ threadId: THREAD });
      expect(listed).toMatchObject({
        runId: "r1",
        status: "interrupted",
        endedAt: FOUND_AT,
        reason: expect.stringContaining('thread "thread-1" was locked again'),
        plan: { type: "plan", plan: [{ _tool: "t", _id: "a" }] },
      });
      await lock.release();
      // ended: nothing more is appended, and finishing it (resume cancels it) keeps the reason
      await expect(
        Promise.resolve().then(() => store.appendRunCalls?.(asRunId("r1"), [{ _tool: "t" }])),
      ).rejects.toMatchObject({ code: "USAGE" });
      await store.finishRun(asRunId("r1"), "cancelled", "later");
      expect(await store.getRun(asRunId("r1"))).toMatchObject({
        status: "cancelled",
        reason: listed?.reason,
      });
    });

    it("a running run of a thread nobody holds reads interrupted; a held thread's run stays running", async () => {
      const store = await openStore({ now: clock.now });
      await abandoned(store, "dead");
      const lock = await store.lockThread(OTHER);
      await store.createRun(running("live", OTHER));
      await store.createRun(runRecord({ runId: asRunId("done"), status: "succeeded" }));
      expect(await store.getRun(asRunId("live"))).toMatchObject({ status: "running" });
      expect(await store.getRun(asRunId("dead"))).toMatchObject({
        status: "interrupted",
        endedAt: FOUND_AT,
        reason: expect.stringContaining('no run holds thread "thread-1"'),
      });
      expect(ids(await store.listRuns({ status: "interrupted" }))).toEqual(["dead"]);
      expect(ids(await store.listRuns({ status: "running" }))).toEqual(["live"]);
      expect(ids(await store.listRuns({ status: "succeeded", threadId: THREAD }))).toEqual(["done"]);
      expect((await store.listRuns()).map((run) => `${run.runId} ${run.status}`)).toEqual([
        "done succeeded",
        "live running",
        "dead interrupted",
      ]);
      await lock.release();
      await store.finishRun(asRunId("live"), "succeeded", "t");
      expect(await store.getRun(asRunId("live"))).not.toHaveProperty("reason");
    });

    it("the status filter looks at every open run before its limit, and finds those a read has not marked", async () => {
      const store = await openStore();
      for (const id of ["a", "b", "c"]) await abandoned(store, id, asThreadId(`t-${id}`));
      await store.createRun(runRecord({ runId: asRunId("newest"), status: "failed" }));
      expect(ids(await store.listRuns({ status: "interrupted", limit: 2 }))).toEqual(["c", "b"]);
      expect(ids(await store.listRuns({ status: "interrupted", threadId: asThreadId("t-a") }))).toEqual([
        "a",
      ]);
      expect(ids(await store.listRuns({ status: "running" }))).toEqual([]);
      expect(ids(await store.listRuns({ status: "failed" }))).toEqual(["newest"]);
    });

    it("a run in progress is never marked: not by reads, not by a lock that is refused", async () => {
      const store = await openStore();
      const lock = await store.lockThread(THREAD);
      await store.createRun(running("r1"));
      await expect(store.lockThread(THREAD)).rejects.toMatchObject({ code: "THREAD_BUSY" });
      expect(ids(await store.listRuns({ status: "interrupted" }))).toEqual([]);
      expect(await store.getRun(asRunId("r1"))).toMatchObject({ status: "running" });
      await store.finishRun(asRunId("r1"), "succeeded", "t");
      await lock.release();
      expect(await store.getRun(asRunId("r1"))).toMatchObject({ status: "succeeded" });
      expect(await store.getRun(asRunId("r1"))).not.toHaveProperty("reason");
    });

    it("refuses a status that is not a run status (USAGE)", async () => {
      const store = await openStore();
      for (const status of ["done", "RUNNING", 3, null]) {
        await expect(Promise.resolve().then(() => store.listRuns({ status } as never))).rejects.toMatchObject(
          { code: "USAGE", hint: expect.stringContaining("interrupted") },
        );
      }
    });
  });
}
