import { asRunId, asThreadId, ObeliskError } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import type { RunRecord, StateStore } from "../store-types.js";
import { manualClock, runRecord, THREAD, write } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";
import { commitCallOk } from "./growth-fixtures.js";

const OTHER = asThreadId("thread-2");

/** Records a run and finishes it at `endedAt` (`running`: left running). */
async function finished(
  store: StateStore,
  runId: string,
  endedAt: string | "running",
  changes: Partial<RunRecord> = {},
): Promise<void> {
  await store.createRun(runRecord({ runId: asRunId(runId), ...changes }));
  if (endedAt !== "running") await store.finishRun(asRunId(runId), "succeeded", endedAt);
}

const ids = async (store: StateStore, threadId = THREAD) =>
  (await store.listRuns({ threadId })).map((run) => run.runId);

/** Decision record 0029: `pruneRuns` removes finished runs and the call records no later run needs. */
export function pruneRunsCases(openStore: OpenStore): void {
  describe("pruneRuns", () => {
    it("refuses options it cannot read, removing nothing", async () => {
      const store = await openStore();
      await finished(store, "r1", "2025-01-01T00:00:00.000Z");
      const refused = [
        undefined,
        null,
        [],
        {},
        { threadId: THREAD },
        { keepLast: -1 },
        { keepLast: 1.5 },
        { keepLast: "1" },
        { olderThanMs: -1 },
        { olderThanMs: Number.NaN },
        { threadId: 7, keepLast: 0 },
        { keeplast: 0 },
        { keepLast: 0, olderThan: 1 },
      ];
      for (const options of refused) {
        let failure: unknown;
        try {
          await store.pruneRuns?.(options as never);
        } catch (error) {
          failure = error;
        }
        expect(ObeliskError.is(failure) && failure.code, JSON.stringify(options)).toBe("USAGE");
      }
      expect(await ids(store)).toEqual(["r1"]);
    });

    it("keeps the newest keepLast runs of each thread and removes the other finished ones with their records", async () => {
      const store = await openStore();
      for (const runId of ["r1", "r2", "r3"]) {
        await finished(store, runId, "2025-01-01T00:00:00.000Z");
        await commitCallOk(store, { callId: "c", runId, writes: [write(["x"], runId)] });
      }
      await finished(store, "o1", "2025-01-01T00:00:00.000Z", { threadId: OTHER });
      const result = await store.pruneRuns?.({ keepLast: 1 });
      expect(result).toEqual({ runIds: ["r2", "r1"], callRecords: 2, keptCallRecords: 0, busyThreads: [] });
      expect(await ids(store)).toEqual(["r3"]);
      expect(await ids(store, OTHER)).toEqual(["o1"]);
      expect(await store.getRun(asRunId("r1"))).toBeUndefined();
      expect(await store.listCallRecords(asRunId("r1"))).toEqual([]);
      expect((await store.stats(THREAD)).runs).toBe(1);
      // the state and the thread's counters are not history: they stay
      expect(await store.readState(THREAD)).toEqual({ x: "r3" });
      expect(await store.pruneRuns?.({ threadId: OTHER, keepLast: 0 })).toMatchObject({ runIds: ["o1"] });
    });

    it("olderThanMs removes the runs that ended longer ago than that by the store clock", async () => {
      const clock = manualClock();
      const store = await openStore({ now: clock.now });
      const at = (seconds: number) => new Date(clock.now() + seconds * 1000).toISOString();
      await finished(store, "r1", at(0));
      await finished(store, "r2", at(10));
      await finished(store, "r3", at(20));
      await finished(store, "r4", "not a time");
      clock.advance(30_000);
      // both given: only runs beyond the newest three that ended more than 15 s ago
      expect(await store.pruneRuns?.({ olderThanMs: 15_000, keepLast: 3 })).toMatchObject({ runIds: ["r1"] });
      // r3 ended 10 s ago, r4 at a time nobody can read: both stay
      expect(await store.pruneRuns?.({ olderThanMs: 15_000 })).toMatchObject({ runIds: ["r2"] });
      expect(await ids(store)).toEqual(["r4", "r3"]);
    });

    it("never removes a running run, an interrupted one (until it is cancelled), nor a run of a thread a run holds", async () => {
      const store = await openStore();
      await finished(store, "old", "2025-01-01T00:00:00.000Z");
      await finished(store, "gone", "running");
      // nobody holds the thread: `gone` cannot be in progress, it is marked interrupted, and kept: its record
      // is what a resume re-runs (pruned, the work it left could only be found by hand)
      expect(await store.pruneRuns?.({ keepLast: 0 })).toMatchObject({ runIds: ["old"] });
      expect(await store.getRun(asRunId("gone"))).toMatchObject({ status: "interrupted" });
      // given up (runs.cancel, or a resume that cancels it): it goes like any finished run
      await store.finishRun(asRunId("gone"), "cancelled", "2025-01-01T00:00:02.000Z");
      expect(await store.pruneRuns?.({ keepLast: 0 })).toMatchObject({ runIds: ["gone"] });
      await finished(store, "done", "2025-01-01T00:00:00.000Z");
      const lock = await store.lockThread(THREAD);
      await finished(store, "live", "running");
      expect(await store.pruneRuns?.({ keepLast: 0 })).toEqual({
        runIds: [],
        callRecords: 0,
        keptCallRecords: 0,
        busyThreads: [THREAD],
      });
      expect(await ids(store)).toEqual(["live", "done"]);
      await store.finishRun(asRunId("live"), "succeeded", "2025-01-01T00:00:01.000Z");
      await lock.release();
      expect(await store.pruneRuns?.({ keepLast: 0 })).toMatchObject({ runIds: ["live", "done"] });
    });

    it("keeps the records a re-sent call would be satisfied by for a value the thread still holds", async () => {
      const store = await openStore();
      await finished(store, "r1", "2025-01-01T00:00:00.000Z");
      await commitCallOk(store, {
        callId: "held",
        runId: "r1",
        callHash: "h-held",
        writes: [write(["a"], 1)],
      });
      await commitCallOk(store, {
        callId: "gone",
        runId: "r1",
        callHash: "h-gone",
        writes: [write(["b"], 1)],
      });
      await commitCallOk(store, { callId: "out", runId: "r1", callHash: "h-out", output: { o: 1 } });
      // two identical calls pushing onto one list: each is satisfied by its own record when re-sent
      for (const callId of ["p1", "p2"])
        await commitCallOk(store, {
          callId,
          runId: "r1",
          callHash: "h-push",
          writes: [write(["l"], "i", "push")],
        });
      await commitCallOk(store, { callId: "failed", runId: "r1", status: "failed" });
      await finished(store, "r2", "2025-01-01T00:00:01.000Z");
      await commitCallOk(store, { callId: "gone", runId: "r2", callHash: "h-b2", writes: [write(["b"], 2)] });
      const result = await store.pruneRuns?.({ keepLast: 1 });
      expect(result).toEqual({ runIds: ["r1"], callRecords: 2, keptCallRecords: 4, busyThreads: [] });
      expect((await store.listCallRecords(asRunId("r1"))).map((record) => record.callId)).toEqual([
        "held",
        "out",
        "p1",
        "p2",
      ]);
      expect(await store.findCompletedCall(THREAD, "h-held")).toMatchObject({ runId: "r1" });
      expect(await store.findCompletedCalls?.(THREAD, "h-push", 16)).toHaveLength(2);
      // its value overwritten, `gone` would have been satisfied (its small result written back): it runs again
      expect(await store.findCompletedCall(THREAD, "h-gone")).toBeUndefined();
    });

    it("a record kept because its value was still held goes at the next prune once the value is gone, even with no run left to prune", async () => {
      const store = await openStore();
      const evictAt = new Date(Date.UTC(2025, 0, 1));
      await finished(store, "r1", "2025-01-01T00:00:00.000Z");
      await commitCallOk(store, { callId: "o1", runId: "r1", callHash: "h-o1", output: { o: 1 } });
      await commitCallOk(store, { callId: "o2", runId: "r1", callHash: "h-o2", output: { o: 2 } });
      await commitCallOk(store, { callId: "w1", runId: "r1", callHash: "h-w1", writes: [write(["a"], 1)] });
      await finished(store, "r2", "2025-01-01T00:00:01.000Z");
      await commitCallOk(store, { callId: "w2", runId: "r2", callHash: "h-w2", writes: [write(["b"], 2)] });
      expect(await store.pruneRuns?.({ keepLast: 1 })).toEqual({
        runIds: ["r1"],
        callRecords: 0,
        keptCallRecords: 3,
        busyThreads: [],
      });
      // retention evicts o1's output (the oldest); a later call overwrites what w1 wrote: neither holds anything
      await store.applyRetention(THREAD, { maxCallOutputs: 1 }, evictAt);
      await commitCallOk(store, { callId: "w3", runId: "r2", callHash: "h-w3", writes: [write(["a"], 3)] });
      // nothing of r2 is pruned (keepLast 1): the prune still removes r1's records that hold nothing any more
      expect(await store.pruneRuns?.({ keepLast: 1 })).toEqual({
        runIds: [],
        callRecords: 2,
        keptCallRecords: 0,
        busyThreads: [],
      });
      expect((await store.listCallRecords(asRunId("r1"))).map((record) => record.callId)).toEqual(["o2"]);
      // what a live value needs stays: o2's output is still stored, and its call is still satisfied
      expect(await store.findCompletedCall(THREAD, "h-o2")).toMatchObject({ runId: "r1", callId: "o2" });
      expect(await store.getCallOutput(THREAD, "o2" as never)).toMatchObject({ value: { o: 2 } });
      expect(await store.findCompletedCall(THREAD, "h-o1")).toBeUndefined();
      expect(await store.findCompletedCall(THREAD, "h-w1")).toBeUndefined();
      expect((await store.listCallRecords(asRunId("r2"))).map((record) => record.callId)).toEqual([
        "w2",
        "w3",
      ]);
      // o2's output evicted too: the next prune removes the last of r1's records; a prune after it finds nothing
      await store.applyRetention(THREAD, { maxCallOutputs: 0 }, evictAt);
      expect(await store.pruneRuns?.({ keepLast: 1 })).toMatchObject({ runIds: [], callRecords: 1 });
      expect(await store.listCallRecords(asRunId("r1"))).toEqual([]);
      expect(await store.pruneRuns?.({ keepLast: 1 })).toMatchObject({ runIds: [], callRecords: 0 });
      expect(await store.readState(THREAD)).toEqual({ a: 3, b: 2 });
    });

    it("records kept by an earlier prune are swept for the thread pruned, and never those of a run recorded again under the id", async () => {
      const store = await openStore();
      const evictAt = new Date(Date.UTC(2025, 0, 1));
      for (const threadId of [THREAD, OTHER]) {
        const runId = `${threadId}-r1`;
        await finished(store, runId, "2025-01-01T00:00:00.000Z", { threadId });
        await commitCallOk(store, { threadId, callId: "o", runId, callHash: `h-${threadId}`, output: 1 });
        await finished(store, `${threadId}-r2`, "2025-01-01T00:00:01.000Z", { threadId });
      }
      expect(await store.pruneRuns?.({ keepLast: 1 })).toMatchObject({ keptCallRecords: 2 });
      await store.applyRetention(THREAD, { maxCallOutputs: 0 }, evictAt);
      await store.applyRetention(OTHER, { maxCallOutputs: 0 }, evictAt);
      // only OTHER is pruned: THREAD's kept record stays until a prune of THREAD
      expect(await store.pruneRuns?.({ threadId: OTHER, keepLast: 1 })).toMatchObject({ callRecords: 1 });
      expect(await store.listCallRecords(asRunId(`${OTHER}-r1`))).toEqual([]);
      expect(await store.listCallRecords(asRunId(`${THREAD}-r1`))).toHaveLength(1);
      // the pruned run's id recorded again: its records are that run's history, not a pruned run's
      await finished(store, `${THREAD}-r1`, "2025-01-01T00:00:02.000Z");
      expect(await store.pruneRuns?.({ threadId: THREAD, keepLast: 2 })).toMatchObject({ callRecords: 0 });
      expect(await store.listCallRecords(asRunId(`${THREAD}-r1`))).toHaveLength(1);
      // pruned in its turn, the run's records go by the rule of every pruned run (its record holds nothing)
      expect(await store.pruneRuns?.({ threadId: THREAD, keepLast: 0 })).toMatchObject({ callRecords: 1 });
      expect(await store.listCallRecords(asRunId(`${THREAD}-r1`))).toEqual([]);
    });
  });
}
