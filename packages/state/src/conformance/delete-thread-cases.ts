import { asRunId, asThreadId, ObeliskError } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import type { StateStore } from "../store-types.js";
import { getValue } from "../variables/get-value.js";
import { setValue } from "../variables/set-value.js";
import { RUN, runRecord, THREAD, write } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";
import { commitCallOk } from "./growth-fixtures.js";

const OTHER = asThreadId("thread-2");

/** What a store shows of a thread, everywhere a caller can look. */
async function everything(store: StateStore, threadId = THREAD) {
  return {
    thread: await store.getThread(threadId),
    state: await store.readState(threadId),
    log: await store.readWriteLog(threadId),
    variables: await store.listVariables(threadId),
    outputs: await store.listCallOutputIds(threadId),
    runs: await store.listRuns({ threadId }),
    stats: await store.stats(threadId),
    next: await store.nextCallNumber?.(threadId),
  };
}

/** A thread with state, an output, a tombstone, runs, call records, a host's edit and counters. */
async function busyThread(store: StateStore): Promise<void> {
  await store.createRun(runRecord());
  await commitCallOk(store, { callId: "w", callHash: "h", writes: [write(["a"], 1), write(["b"], 2)] });
  await commitCallOk(store, { callId: "o", callHash: "h-o", output: { o: 1 } });
  await store.finishRun(RUN, "succeeded", "2025-01-01T00:00:01.000Z");
  await store.keepLastN(THREAD, 2);
  await setValue(store, THREAD, "†state.set", "by hand");
  await store.reserveCallNumbers(THREAD, 5);
}

/** Decision record 0029: `deleteThread` removes a thread entirely; its id then names a new thread. */
export function deleteThreadCases(openStore: OpenStore): void {
  describe("deleteThread", () => {
    it("removes state, log, variables, outputs, tombstones, runs, call records and counters", async () => {
      const store = await openStore();
      const empty = await everything(store);
      await busyThread(store);
      await store.createRun(runRecord({ runId: asRunId("other-run"), threadId: OTHER }));
      await commitCallOk(store, {
        callId: "x",
        threadId: OTHER,
        runId: "other-run",
        callHash: "h",
        writes: [write(["x"], 1)],
      });
      const other = await everything(store, OTHER);
      expect(await store.deleteThread?.(THREAD)).toEqual({
        deleted: true,
        runs: 1,
        callRecords: 3,
        variables: 3,
      });
      expect(await everything(store)).toEqual(empty);
      expect(await store.getRun(RUN)).toBeUndefined();
      expect(await store.listCallRecords(RUN)).toEqual([]);
      expect(await store.listCallRecords("obelisk.set" as never)).toEqual([]);
      expect(await store.findCompletedCall(THREAD, "h")).toBeUndefined();
      expect(await store.getTombstone(THREAD, "†state.a")).toBeUndefined();
      expect(await getValue(store, THREAD, "†state.a")).toEqual({ found: false });
      // another thread is not touched, even where its call hash is the same
      expect(await everything(store, OTHER)).toEqual(other);
      expect(await store.findCompletedCall(OTHER, "h")).toMatchObject({ runId: "other-run" });
      expect((await store.stats()).threads).toBe(1);
    });

    it("the id then names a new thread: counters start again, a removed run id may be recorded again", async () => {
      const store = await openStore();
      await busyThread(store);
      await store.deleteThread?.(THREAD);
      expect(await store.reserveCallNumbers(THREAD, 1)).toBe(1);
      await store.createRun(runRecord());
      await commitCallOk(store, { callId: "again", writes: [write(["a"], "new")] });
      expect(await store.readState(THREAD)).toEqual({ a: "new" });
      expect((await store.listCallRecords(RUN)).map((record) => record.callId)).toEqual(["again"]);
    });

    it("is refused while a run holds the thread (THREAD_BUSY, nothing removed); waitMs waits for it", async () => {
      const store = await openStore();
      await busyThread(store);
      const before = await everything(store);
      const lock = await store.lockThread(THREAD);
      let refused: unknown;
      try {
        await store.deleteThread?.(THREAD);
      } catch (error) {
        refused = error;
      }
      expect(ObeliskError.is(refused) && refused.code).toBe("THREAD_BUSY");
      expect(await everything(store)).toEqual(before);
      const waiting = store.deleteThread?.(THREAD, { waitMs: 60_000 });
      await lock.release();
      expect(await waiting).toMatchObject({ deleted: true, runs: 1 });
      expect(await store.getThread(THREAD)).toBeUndefined();
    });

    it("a thread the store does not hold: deleted false, nothing created; a bad id is USAGE", async () => {
      const store = await openStore();
      expect(await store.deleteThread?.(THREAD)).toEqual({
        deleted: false,
        runs: 0,
        callRecords: 0,
        variables: 0,
      });
      expect(await store.getThread(THREAD)).toBeUndefined();
      expect((await store.stats()).threads).toBe(0);
      let refused: unknown;
      try {
        await store.deleteThread?.(7 as never);
      } catch (error) {
        refused = error;
      }
      expect(ObeliskError.is(refused) && refused.code).toBe("USAGE");
    });
  });
}
