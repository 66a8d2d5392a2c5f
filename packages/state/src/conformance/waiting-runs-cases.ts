import { asRunId, asThreadId, ObeliskError, type ThreadId } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import type { CallStatus, RunStatus, RunsOptions, StateStore } from "../store-types.js";
import { commitOk, runRecord, THREAD } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";

const OTHER = asThreadId("thread-2");

/** Records a run on `threadId` with one call record of each of `statuses`, then ends it `status`. */
async function runWith(
  store: StateStore,
  runId: string,
  statuses: readonly CallStatus[],
  { threadId = THREAD, status = "succeeded" }: { threadId?: ThreadId; status?: RunStatus } = {},
): Promise<void> {
  await store.createRun(runRecord({ runId: asRunId(runId), threadId }));
  for (const [at, callStatus] of statuses.entries())
    await commitOk(store, { callId: `c${at}`, runId: asRunId(runId), threadId, status: callStatus });
  if (status !== "running") await store.finishRun(asRunId(runId), status, "2025-01-01T00:00:01.000Z");
}

/** The ids `listWaitingRuns` answers (a store without it fails here: the engine refuses `waiting` then). */
async function waiting(store: StateStore, options?: RunsOptions): Promise<string[]> {
  if (store.listWaitingRuns === undefined) throw new Error("the store has no listWaitingRuns()");
  return (await store.listWaitingRuns(options)).map((run) => run.runId);
}

/** `listWaitingRuns`: the runs with a call that ended `waiting` (an approval gate, SPEC §7). */
export function waitingRunsCases(openStore: OpenStore): void {
  describe("listWaitingRuns", () => {
    it("answers the runs with a waiting call record, newest first, filtered as listRuns, limit last", async () => {
      const store = await openStore();
      await runWith(store, "r1", ["succeeded", "waiting", "waiting"]);
      await runWith(store, "r2", ["succeeded", "blocked", "failed"], { status: "failed" });
      await runWith(store, "r3", ["waiting", "failed"], { threadId: OTHER, status: "failed" });
      await runWith(store, "r4", []);
      await runWith(store, "r5", ["waiting"]);
      expect(await waiting(store)).toEqual(["r5", "r3", "r1"]);
      expect(await waiting(store, { limit: 2 })).toEqual(["r5", "r3"]);
      expect(await waiting(store, { limit: 0 })).toEqual([]);
      expect(await waiting(store, { threadId: THREAD })).toEqual(["r5", "r1"]);
      expect(await waiting(store, { threadId: OTHER, status: "failed" })).toEqual(["r3"]);
      expect(await waiting(store, { status: "succeeded", limit: 1 })).toEqual(["r5"]);
      expect(await waiting(store, { status: "cancelled" })).toEqual([]);
      // the records themselves, as listRuns answers them
      expect((await store.listWaitingRuns?.({ threadId: OTHER })) ?? []).toEqual(
        await store.listRuns({ threadId: OTHER }),
      );
    });

    it("a running run is listed once a waiting record is committed; one whose process stopped reads interrupted", async () => {
      const store = await openStore();
      const lock = await store.lockThread(THREAD);
      await runWith(store, "live", ["succeeded"], { status: "running" });
      expect(await waiting(store)).toEqual([]);
      await commitOk(store, { callId: "gate", runId: asRunId("live"), status: "waiting" });
      expect(await waiting(store, { status: "running" })).toEqual(["live"]);
      await lock.release();
      // nobody holds the thread now: the run cannot be in progress
      expect(await waiting(store, { status: "running" })).toEqual([]);
      expect(await waiting(store, { status: "interrupted" })).toEqual(["live"]);
    });

    it("a pruned or deleted run is not listed", async () => {
      const store = await openStore();
      await runWith(store, "old", ["waiting"]);
      await runWith(store, "new", ["waiting"]);
      await runWith(store, "gone", ["waiting"], { threadId: OTHER });
      await store.pruneRuns?.({ threadId: THREAD, keepLast: 1 });
      await store.deleteThread?.(OTHER);
      expect(await waiting(store)).toEqual(["new"]);
    });

    it("refuses options listRuns refuses (USAGE)", async () => {
      const store = await openStore();
      for (const options of [null, [], "x", { status: "done" }, { limit: -1 }, { threadId: 7 }]) {
        let failure: unknown;
        try {
          await store.listWaitingRuns?.(options as never);
        } catch (error) {
          failure = error;
        }
        expect(ObeliskError.is(failure) && failure.code, JSON.stringify(options)).toBe("USAGE");
      }
    });
  });
}
