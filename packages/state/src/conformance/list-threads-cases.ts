import { asRunId, asThreadId } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { setValue } from "../variables/set-value.js";
import { commitOf, manualClock, runRecord, THREAD, write } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";
import { commitCallOk } from "./growth-fixtures.js";

const SCHEMA = { type: "object" };

/** `listThreads` (the s32 user review, L10): every thread the store holds, by id, on every backend. */
export function listThreadsCases(openStore: OpenStore): void {
  describe("listThreads", () => {
    it("an empty store holds no thread", async () => {
      const store = await openStore();
      expect(await store.listThreads?.()).toEqual([]);
    });

    it("lists threads opened, written by a call and by a host's edit, by id, with creation time and schema", async () => {
      const clock = manualClock(Date.UTC(2025, 0, 1));
      const store = await openStore({ now: clock.now });
      await commitCallOk(store, { callId: "w", writes: [write(["a"], 1)] });
      clock.advance(1000);
      await setValue(store, asThreadId("b-edited"), "†state.x", 1);
      clock.advance(1000);
      await store.openThread(asThreadId("a-opened"), { stateSchema: SCHEMA });
      const threads = await store.listThreads?.();
      expect(threads?.map((thread) => thread.threadId)).toEqual(["a-opened", "b-edited", THREAD]);
      expect(threads?.[0]).toEqual({
        threadId: "a-opened",
        createdAt: "2025-01-01T00:00:02.000Z",
        stateSchema: SCHEMA,
      });
      expect(threads?.[1]).toEqual({ threadId: "b-edited", createdAt: "2025-01-01T00:00:01.000Z" });
    });

    it("ids are ordered by code unit on every backend (upper case before lower, a surrogate pair before U+FF5E as in JavaScript)", async () => {
      const store = await openStore();
      for (const id of ["b", "B", "\u{1F600}", "\uFF5E", "a"]) await store.openThread(asThreadId(id));
      expect((await store.listThreads?.())?.map((thread) => thread.threadId)).toEqual([
        "B",
        "a",
        "b",
        "\u{1F600}",
        "\uFF5E",
      ]);
    });

    it("a deleted thread is no longer listed; a reset one still is", async () => {
      const store = await openStore();
      await commitCallOk(store, { callId: "w", writes: [write(["a"], 1)] });
      await store.openThread(asThreadId("other"));
      await store.reset(THREAD);
      expect((await store.listThreads?.())?.map((thread) => thread.threadId)).toEqual(["other", THREAD]);
      await store.deleteThread?.(asThreadId("other"));
      expect((await store.listThreads?.())?.map((thread) => thread.threadId)).toEqual([THREAD]);
    });

    it("listIdleThreads: those whose newest run ended before the time, or without a run created before it", async () => {
      const clock = manualClock(Date.UTC(2025, 0, 1));
      const store = await openStore({ now: clock.now });
      // optional: a store without it has the engine ask listRuns per thread
      if (store.listIdleThreads === undefined) return;
      const run = async (threadId: string, runId: string, endedAt?: string) => {
        await store.createRun(
          runRecord({
            runId: asRunId(runId),
            threadId: asThreadId(threadId),
            startedAt: "2025-01-01T00:00:00.000Z",
          }),
        );
        if (endedAt !== undefined) await store.finishRun(asRunId(runId), "succeeded", endedAt);
      };
      await run("a-ended-early", "r1", "2025-01-01T00:00:01.000Z");
      await run("b-ended-late", "r2", "2025-01-03T00:00:00.000Z");
      // running: its lock is held (a run left running with its lock free is the next case's)
      await store.lockThread(asThreadId("c-running"));
      await run("c-running", "r3");
      // the newest run counts: an early run and then a late one is not idle
      await run("d-two-runs", "r4", "2025-01-01T00:00:01.000Z");
      await run("d-two-runs", "r5", "2025-01-04T00:00:00.000Z");
      await store.openThread(asThreadId("e-never-run"));
      await run("f-ended-at-the-time", "r6", "2025-01-02T00:00:00.000Z");
      clock.advance(4 * 86_400_000);
      await store.openThread(asThreadId("g-created-late"));
      const idle = async (since: string) =>
        (await store.listIdleThreads?.(since))?.map((thread) => thread.threadId);
      expect(await idle("2025-01-02T00:00:00.000Z")).toEqual(["a-ended-early", "e-never-run"]);
      expect(await idle("2025-01-05T00:00:00.000Z")).toEqual([
        "a-ended-early",
        "b-ended-late",
        "d-two-runs",
        "e-never-run",
        "f-ended-at-the-time",
      ]);
      // the threads are listThreads' own (creation time, schema), a deleted one is gone
      expect((await store.listIdleThreads?.("2025-01-02T00:00:00.000Z"))?.[1]).toEqual({
        threadId: "e-never-run",
        createdAt: "2025-01-01T00:00:00.000Z",
      });
      await store.deleteThread?.(asThreadId("a-ended-early"));
      expect(await idle("2025-01-02T00:00:00.000Z")).toEqual(["e-never-run"]);
      expect(await idle("2024-12-31T00:00:00.000Z")).toEqual([]);
    });

    it("listIdleThreads: a run nobody can still be running counts as ended at its last recorded activity", async () => {
      const clock = manualClock(Date.UTC(2025, 0, 1));
      const store = await openStore({ now: clock.now });
      if (store.listIdleThreads === undefined) return;
      // started holding the lock, one call committed at 00:00:05, then its process stopped: the lock went
      const left = async (threadId: string, runId: string, release: boolean) => {
        const lock = await store.lockThread(asThreadId(threadId));
        await store.createRun(
          runRecord({
            runId: asRunId(runId),
            threadId: asThreadId(threadId),
            startedAt: "2025-01-01T00:00:00.000Z",
          }),
        );
        const commit = commitOf({ callId: "a", runId: asRunId(runId), threadId: asThreadId(threadId) });
        const times = { startedAt: "2025-01-01T00:00:01.000Z", endedAt: "2025-01-01T00:00:05.000Z" };
        const outcome = await store.commitCall({ ...commit, record: { ...commit.record, ...times } });
        if (!outcome.ok) throw new Error(`commit refused: ${outcome.error.code}`);
        if (release) await lock.release();
      };
      await left("a-left-running", "r1", true);
      await left("b-still-held", "r2", false);
      const lock = await store.lockThread(asThreadId("c-no-call"));
      await store.createRun(
        runRecord({
          runId: asRunId("r3"),
          threadId: asThreadId("c-no-call"),
          startedAt: "2025-01-01T00:00:02.000Z",
        }),
      );
      await lock.release();
      clock.advance(9 * 86_400_000);
      const idle = async (since: string) =>
        (await store.listIdleThreads?.(since))?.map((thread) => thread.threadId);
      // idle since its last call's end (the start without a call); a run whose lock is held is active
      expect(await idle("2025-01-02T00:00:00.000Z")).toEqual(["a-left-running", "c-no-call"]);
      expect(await idle("2025-01-01T00:00:05.000Z")).toEqual(["c-no-call"]);
      expect(await idle("2025-01-01T00:00:02.000Z")).toEqual([]);
      // once a read marked them interrupted (endedAt: when found), the same: they were not active since
      const [marked] = await store.listRuns({ threadId: asThreadId("a-left-running") });
      expect(marked).toMatchObject({ status: "interrupted", endedAt: "2025-01-10T00:00:00.000Z" });
      await store.listRuns({ threadId: asThreadId("c-no-call") });
      expect(await idle("2025-01-02T00:00:00.000Z")).toEqual(["a-left-running", "c-no-call"]);
      expect(await idle("2025-01-01T00:00:05.000Z")).toEqual(["c-no-call"]);
    });

    it("answers STORE_CLOSED once the store is closed", async () => {
      const store = await openStore();
      await store.close();
      let failure: unknown;
      try {
        await store.listThreads?.();
      } catch (error) {
        failure = error;
      }
      expect(failure).toMatchObject({ name: "ObeliskError", code: "STORE_CLOSED" });
    });
  });
}
