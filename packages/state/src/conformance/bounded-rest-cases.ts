import { asCallId, asRunId, asThreadId, jsonByteSize, ObeliskError } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import type { StoreOptions } from "../store-options.js";
import type { CallCommit, StateStore } from "../store-types.js";
import { setValue } from "../variables/set-value.js";
import { unsetValue } from "../variables/unset-value.js";
import { manualClock, runRecord, THREAD, write } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";
import { commitCallOk, recordOf } from "./growth-fixtures.js";

const OTHER = asThreadId("thread-2");
/** A value over the default `recordParamsBytes` (4,096 bytes of JSON). */
const LARGE = "l".repeat(5000);

/** Opening a store with `options` is refused with USAGE. */
async function refusedOption(openStore: OpenStore, options: StoreOptions): Promise<void> {
  let refused: unknown;
  try {
    await openStore(options);
  } catch (error) {
    refused = error;
  }
  expect(ObeliskError.is(refused) && refused.code, JSON.stringify(options)).toBe("USAGE");
}

/** A store whose clock the test moves, with the thread holding variables `v0`… written one second apart. */
async function storeWithVariables(openStore: OpenStore, count: number, options: StoreOptions = {}) {
  const clock = manualClock();
  const store = await openStore({ now: clock.now, ...options });
  for (let index = 0; index < count; index++) {
    await commitCallOk(store, { callId: `w${index}`, writes: [write([name(index)], index)] });
    clock.advance(1000);
  }
  return { store, clock };
}

/** The name of the `index`th variable, in the order both stores sort its reference. */
const name = (index: number): string => `v${String(index).padStart(4, "0")}`;

/** The references of `v0`… (of `count`) that still have a tombstone. */
async function tombstoned(store: StateStore, count: number, threadId = THREAD): Promise<string[]> {
  const held: string[] = [];
  for (let index = 0; index < count; index++) {
    const reference = `†state.${name(index)}`;
    if ((await store.getTombstone(threadId, reference)) !== undefined) held.push(name(index));
  }
  return held;
}

/** A commit whose record was dispatched with `params`. */
function withParams(callId: string, params: Record<string, unknown>, callHash = `h-${callId}`): CallCommit {
  return {
    record: {
      threadId: THREAD,
      runId: asRunId("run-1"),
      callId: asCallId(callId),
      tool: "tool",
      status: "succeeded",
      attempts: 1,
      callHash,
      params: params as never,
      outputMethod: "set",
      result: 1,
      wrote: [`†state.${callId}`],
    },
    writes: [write([callId], 1)],
  };
}

/** The callIds of the records of a thread's host edits under one shared run id. */
const edits = async (store: StateStore, runId = "obelisk.set", threadId = THREAD) =>
  (await store.listCallRecords(asRunId(runId)))
    .filter((record) => record.threadId === threadId)
    .map((record) => record.callId);

/**
 * Decision record 0034: what 0029 left unbounded in a long-lived thread — tombstones (`maxTombstones`),
 * a record's parameters (`recordParamsBytes`) and the records of host edits (`pruneRuns`).
 */
export function boundedRestCases(openStore: OpenStore): void {
  describe("tombstones: a thread keeps the newest maxTombstones", () => {
    it("past the bound the oldest evictions' tombstones go; the newest still answer, per thread", async () => {
      const { store, clock } = await storeWithVariables(openStore, 4, { maxTombstones: 2 });
      await commitCallOk(store, { callId: "o", threadId: OTHER, writes: [write(["o"], 1)] });
      for (const keep of [3, 2, 1]) {
        await store.keepLastN(THREAD, keep); // evicts v0000, then v0001, then v0002, a second apart
        clock.advance(1000);
      }
      await store.keepLastN(OTHER, 0);
      expect(await tombstoned(store, 4)).toEqual(["v0001", "v0002"]);
      expect(await store.getTombstone(THREAD, "†state.v0002")).toMatchObject({ reason: "keepLastN" });
      expect(await store.getTombstone(OTHER, "†state.o")).toMatchObject({ reason: "keepLastN" });
      // a path whose tombstone went is written and evicted again as any other
      await commitCallOk(store, { callId: "again", writes: [write(["v0000"], 1)] });
      expect(await store.readState(THREAD)).toEqual({ v0000: 1, v0003: 3 });
      await store.keepLastN(THREAD, 0);
      expect(await tombstoned(store, 4)).toEqual(["v0000", "v0003"]);
    });

    it("tombstones of one eviction go by reference: both stores keep the same ones", async () => {
      const clock = manualClock();
      const store = await openStore({ now: clock.now, maxTombstones: 2 });
      // written z, m, a: one keepLastN(0) evicts them in that order, in the same millisecond
      for (const key of ["z", "m", "a"])
        await commitCallOk(store, { callId: key, writes: [write([key], 1)] });
      await store.keepLastN(THREAD, 0);
      const held: string[] = [];
      for (const key of ["a", "m", "z"])
        if ((await store.getTombstone(THREAD, `†state.${key}`)) !== undefined) held.push(key);
      expect(held).toEqual(["m", "z"]);
    });

    it("by default a thread keeps at most 1,000: past it, the oldest go down to 900", async () => {
      const { store, clock } = await storeWithVariables(openStore, 1001);
      await store.keepLastN(THREAD, 1); // one eviction of 1,000 variables: all kept
      expect(await tombstoned(store, 1001)).toHaveLength(1000);
      clock.advance(1000);
      await store.keepLastN(THREAD, 0); // the 1,001st: the 101 oldest go
      const held = await tombstoned(store, 1001);
      expect(held).toHaveLength(900);
      expect([held[0], held[899]]).toEqual(["v0101", "v1000"]);
    });

    it("maxTombstones: Infinity keeps every one, 0 none; anything else is refused", async () => {
      const all = await storeWithVariables(openStore, 3, { maxTombstones: Number.POSITIVE_INFINITY });
      await all.store.keepLastN(THREAD, 0);
      expect(await tombstoned(all.store, 3)).toEqual(["v0000", "v0001", "v0002"]);
      const none = await storeWithVariables(openStore, 3, { maxTombstones: 0 });
      await commitCallOk(none.store, { callId: "out", output: { o: 1 } });
      await none.store.keepLastN(THREAD, 0);
      await none.store.applyRetention(THREAD, { maxCallOutputs: 0 }, new Date(none.clock.now()));
      expect(await tombstoned(none.store, 3)).toEqual([]);
      expect(await none.store.getCallOutput(THREAD, "out")).toBeUndefined();
      for (const maxTombstones of [-1, 2.5, Number.NaN, "10", null])
        await refusedOption(openStore, { maxTombstones: maxTombstones as number });
    });
  });

  describe("call records keep parameters of at most recordParamsBytes", () => {
    it("larger parts of the parameters become null, the rest stays; the call is still satisfied", async () => {
      const store = await openStore();
      const params = { doc: LARGE, ctx: { page: LARGE, n: 1 }, list: [1, LARGE], k: "v" };
      const outcome = await store.commitCall(withParams("a", params));
      expect(outcome.ok).toBe(true);
      const record = await recordOf(store, "run-1", "a");
      expect(record.params).toEqual({ doc: null, ctx: { page: null, n: 1 }, list: [1, null], k: "v" });
      expect(record.droppedParamsBytes).toBe(jsonByteSize(params));
      expect(await store.findCompletedCall(THREAD, "h-a")).toMatchObject({ callId: "a", result: 1 });
      // parameters within the bound are kept as they are
      await store.commitCall(withParams("b", { text: "x".repeat(4000) }));
      const small = await recordOf(store, "run-1", "b");
      expect(small.params).toEqual({ text: "x".repeat(4000) });
      expect(small.droppedParamsBytes).toBeUndefined();
    });

    it("parameters still too large once their large parts are null are not kept at all", async () => {
      const store = await openStore({ recordParamsBytes: 100 });
      const params = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`key${i}`, "0123456789"]));
      await store.commitCall(withParams("many", params));
      const record = await recordOf(store, "run-1", "many");
      expect(record.params).toBeUndefined();
      expect(record.droppedParamsBytes).toBe(jsonByteSize(params));
      expect(record.callHash).toBe("h-many");
    });

    it("the plan's parameters a confirm hook replaced (plannedParams) are kept beside them, trimmed alike", async () => {
      const store = await openStore();
      const commit = withParams("m", { to: "ops@example.com" });
      const plannedParams = { to: "eve@example.com", doc: LARGE };
      await store.commitCall({ ...commit, record: { ...commit.record, plannedParams } });
      const record = await recordOf(store, "run-1", "m");
      expect([record.params, record.plannedParams]).toEqual([
        { to: "ops@example.com" },
        { to: "eve@example.com", doc: null },
      ]);
      expect(await store.findCompletedCall(THREAD, "h-m")).toMatchObject({
        callId: "m",
        plannedParams: { doc: null },
      });
    });

    it("recordParamsBytes: Infinity keeps all, 0 none; anything else is refused", async () => {
      const all = await openStore({ recordParamsBytes: Number.POSITIVE_INFINITY });
      await all.commitCall(withParams("a", { doc: LARGE }));
      expect(await recordOf(all, "run-1", "a")).toMatchObject({ params: { doc: LARGE } });
      const none = await openStore({ recordParamsBytes: 0 });
      await none.commitCall(withParams("a", { n: 1 }));
      const record = await recordOf(none, "run-1", "a");
      expect([record.params, record.droppedParamsBytes]).toEqual([undefined, 7]);
      for (const recordParamsBytes of [-1, 0.5, Number.NaN, "4096"])
        await refusedOption(openStore, { recordParamsBytes: recordParamsBytes as number });
    });
  });

  describe("pruneRuns removes the records of host edits no value needs", () => {
    it("a thread edited by hand only: every edit record goes but those of values it holds", async () => {
      const clock = manualClock();
      const store = await openStore({ now: clock.now });
      for (const value of [1, 2, 3]) await setValue(store, THREAD, "†state.x", value, { now: clock.now });
      await setValue(store, THREAD, "†state.y", "y", { now: clock.now });
      await setValue(store, THREAD, "†state.z", "z", { now: clock.now });
      await unsetValue(store, THREAD, "†state.z", { now: clock.now });
      await setValue(store, OTHER, "†state.x", 1, { now: clock.now });
      await setValue(store, OTHER, "†state.x", 2, { now: clock.now });
      expect(await store.pruneRuns?.({ threadId: THREAD, keepLast: 0 })).toEqual({
        runIds: [],
        callRecords: 4,
        keptCallRecords: 0,
        busyThreads: [],
      });
      expect(await edits(store)).toEqual(["obelisk-set$3", "obelisk-set$4"]);
      expect(await edits(store, "obelisk.unset")).toEqual([]);
      expect(await edits(store, "obelisk.set", OTHER)).toHaveLength(2);
      expect(await store.readState(THREAD)).toEqual({ x: 3, y: "y" });
      // every thread's, when none is named
      expect(await store.pruneRuns?.({ keepLast: 0 })).toMatchObject({ callRecords: 1 });
      expect(await edits(store, "obelisk.set", OTHER)).toEqual(["obelisk-set$2"]);
    });

    it("keepLast: edits before the oldest run kept go; olderThanMs: edits that ended longer ago", async () => {
      const clock = manualClock();
      const store = await openStore({ now: clock.now });
      const at = () => new Date(clock.now()).toISOString();
      const edit = async (value: number) => {
        await setValue(store, THREAD, "†state.x", value, { now: clock.now });
        clock.advance(1000);
      };
      const run = async (runId: string) => {
        await store.createRun(runRecord({ runId: asRunId(runId), startedAt: at() }));
        await store.finishRun(asRunId(runId), "succeeded", at());
        clock.advance(1000);
      };
      await edit(1);
      await run("r1");
      await edit(2);
      await run("r2");
      await edit(3);
      await edit(4);
      await edit(5);
      // r2 is kept: the edits before it go (1, 2); 3 and 4 stay, 5 holds x
      expect(await store.pruneRuns?.({ keepLast: 1 })).toMatchObject({ runIds: ["r1"], callRecords: 2 });
      expect(await edits(store)).toEqual(["obelisk-set$3", "obelisk-set$4", "obelisk-set$5"]);
      // edit 3 ended 3 s ago, edit 4 2 s ago (r2 4 s ago)
      expect(await store.pruneRuns?.({ olderThanMs: 2500 })).toMatchObject({
        runIds: ["r2"],
        callRecords: 1,
      });
      expect(await edits(store)).toEqual(["obelisk-set$4", "obelisk-set$5"]);
      // a thread a run holds is left alone
      const lock = await store.lockThread(THREAD);
      expect(await store.pruneRuns?.({ keepLast: 0 })).toMatchObject({ callRecords: 0 });
      await lock.release();
      expect(await store.pruneRuns?.({ keepLast: 0 })).toMatchObject({ runIds: [], callRecords: 1 });
      expect(await edits(store)).toEqual(["obelisk-set$5"]);
      expect(await store.readState(THREAD)).toEqual({ x: 5 });
    });
  });
}
