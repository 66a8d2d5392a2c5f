import { ObeliskError } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import type { StateStore } from "../store-types.js";
import { getValue } from "../variables/get-value.js";
import { commitOk, foldedLog, THREAD, write } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";

/** What `getValue` answers for a reference, with REF_EVICTED as data (`{ evicted: reason }`). */
export async function answer(store: StateStore, reference: string): Promise<unknown> {
  try {
    return await getValue(store, THREAD, reference);
  } catch (error) {
    if (ObeliskError.is(error) && error.code === "REF_EVICTED")
      return { evicted: (error.data as { reason: string }).reason };
    throw error;
  }
}

const MISSING = { found: false };
const EVICTED = { evicted: "keepLastN" };

/** `†state.list` of two element variables with `[0]` evicted: `[null, "y"]`, a hole with its tombstone. */
async function listWithHole(store: StateStore): Promise<void> {
  await commitOk(store, { callId: "l0", writes: [write(["list", 0], "x")] });
  await commitOk(store, { callId: "l1", writes: [write(["list", 1], "y")] });
  await store.keepLastN(THREAD, 1);
  expect(await store.readState(THREAD)).toEqual({ list: [null, "y"] });
  expect(await answer(store, "†state.list[0]")).toEqual(EVICTED);
}

/** Writes at, above and beside tombstoned paths: which tombstones a write supersedes (decision 0013). */
export function supersededTombstoneCases(openStore: OpenStore): void {
  describe("tombstones below a written path", () => {
    it("a set above an evicted path clears its tombstone: the path reads as missing", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "b", writes: [write(["a", "b"], 1)] });
      await commitOk(store, { callId: "k", writes: [write(["a", "b c"], 1)] });
      await commitOk(store, { callId: "x", writes: [write(["a", "x"], 2)] });
      await store.keepLastN(THREAD, 1);
      expect(await answer(store, "†state.a.b")).toEqual(EVICTED);
      expect(await answer(store, '†state.a["b c"]')).toEqual(EVICTED);
      await commitOk(store, { callId: "s", writes: [write(["a"], { c: 1 })] });
      expect(await answer(store, "†state.a.b")).toEqual(MISSING);
      expect(await answer(store, '†state.a["b c"]')).toEqual(MISSING);
      expect(await store.getTombstone(THREAD, "†state.a.b")).toBeUndefined();
      // deeper too, and when the eviction had removed the parent it created (decision 0010)
      await commitOk(store, { callId: "d", writes: [write(["p", "q", "r"], 1)] });
      await commitOk(store, { callId: "e", writes: [write(["e"], 1)] });
      await store.keepLastN(THREAD, 1);
      expect(await store.readState(THREAD)).toEqual({ e: 1 });
      await commitOk(store, { callId: "p", writes: [write(["p"], { q: {} })] });
      expect(await answer(store, "†state.p.q.r")).toEqual(MISSING);
      expect(await foldedLog(store)).toEqual(await store.readState(THREAD));
    });

    it("a set of an array over a hole: the null it writes there is a value, not a hole", async () => {
      const store = await openStore();
      await listWithHole(store);
      await commitOk(store, { callId: "s", writes: [write(["list"], [null, 5])] });
      expect(await answer(store, "†state.list[0]")).toEqual({ found: true, value: null });
      expect(await answer(store, "†state.list[-2]")).toEqual({ found: true, value: null });
      expect(await store.getTombstone(THREAD, "†state.list[0]")).toBeUndefined();
    });

    it("a write exactly at a tombstoned path clears that tombstone", async () => {
      const store = await openStore();
      await listWithHole(store);
      await commitOk(store, { callId: "s", writes: [write(["list", 0], null)] });
      expect(await answer(store, "†state.list[0]")).toEqual({ found: true, value: null });
      expect(await store.getTombstone(THREAD, "†state.list[0]")).toBeUndefined();
    });

    it("push and concat keep the holes they append after, and clear what they rebuild", async () => {
      const store = await openStore();
      await listWithHole(store);
      await commitOk(store, { callId: "p", writes: [write(["list"], null, "push")] });
      await commitOk(store, { callId: "c", writes: [write(["list"], [null], "concat")] });
      expect(await store.readState(THREAD)).toEqual({ list: [null, "y", null, null] });
      expect(await answer(store, "†state.list[0]")).toEqual(EVICTED);
      expect(await answer(store, "†state.list[2]")).toEqual({ found: true, value: null });
      // every element evicted: the list goes (decision 0013); a push builds a new one
      await store.keepLastN(THREAD, 0);
      expect(await store.readState(THREAD)).toEqual({});
      expect(await answer(store, "†state.list[1]")).toEqual(EVICTED);
      await commitOk(store, { callId: "p2", writes: [write(["list"], null, "push")] });
      expect(await answer(store, "†state.list[0]")).toEqual({ found: true, value: null });
      expect(await answer(store, "†state.list[1]")).toEqual(MISSING);
      await commitOk(store, { callId: "l0", writes: [write(["other", 0], 1)] });
      await commitOk(store, { callId: "l1", writes: [write(["other", 1], 2)] });
      await store.keepLastN(THREAD, 0);
      await commitOk(store, { callId: "c2", writes: [write(["other"], [null], "concat")] });
      expect(await answer(store, "†state.other[0]")).toEqual({ found: true, value: null });
      expect(await answer(store, "†state.other[1]")).toEqual(MISSING);
      expect(await foldedLog(store)).toEqual(await store.readState(THREAD));
    });

    it("assign clears the tombstones under the keys it names, and keeps the others", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "b", writes: [write(["a", "b"], 1)] });
      await commitOk(store, { callId: "c", writes: [write(["a", "c", "d"], 1)] });
      await commitOk(store, { callId: "x", writes: [write(["a", "x"], 2)] });
      await store.keepLastN(THREAD, 1);
      expect(await store.readState(THREAD)).toEqual({ a: { x: 2 } });
      await commitOk(store, { callId: "n", writes: [write(["a"], { c: { e: 1 }, n: 1 }, "assign")] });
      expect(await answer(store, "†state.a.c.d")).toEqual(MISSING);
      expect(await answer(store, "†state.a.b")).toEqual(EVICTED);
      await commitOk(store, { callId: "m", writes: [write(["a"], { b: null }, "assign")] });
      expect(await store.getTombstone(THREAD, "†state.a.b")).toBeUndefined();
    });

    it("a deep merge clears the tombstones under what it replaces, and keeps those it merges beside", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "c", writes: [write(["a", "b", "c"], 1)] });
      await commitOk(store, { callId: "g", writes: [write(["a", "f", "g"], 1)] });
      await commitOk(store, { callId: "d", writes: [write(["a", "b", "d"], 2)] });
      await commitOk(store, { callId: "h", writes: [write(["a", "f", "h"], 2)] });
      await commitOk(store, { callId: "x", writes: [write(["a", "x"], 3)] });
      await store.keepLastN(THREAD, 3);
      expect(await store.readState(THREAD)).toEqual({ a: { b: { d: 2 }, f: { h: 2 }, x: 3 } });
      // merged into b: c stays evicted
      await commitOk(store, { callId: "m1", writes: [write(["a"], { b: { e: 1 } }, "merge")] });
      expect(await answer(store, "†state.a.b.c")).toEqual(EVICTED);
      // f replaced by a non-object: g is gone with it
      await commitOk(store, { callId: "m2", writes: [write(["a"], { f: 5 }, "merge")] });
      expect(await answer(store, "†state.a.f.g")).toEqual(MISSING);
      // b replaced by the merge where it had been removed: c is gone with it
      await store.keepLastN(THREAD, 0);
      await commitOk(store, { callId: "y", writes: [write(["a", "y"], 1)] });
      await commitOk(store, { callId: "m3", writes: [write(["a"], { b: { e: 2 } }, "merge")] });
      expect(await answer(store, "†state.a.b.c")).toEqual(MISSING);
      expect(await answer(store, "†state.a.x")).toEqual(EVICTED);
      expect(await foldedLog(store)).toEqual(await store.readState(THREAD));
    });

    it("each write of a commit is judged against the state it found", async () => {
      const store = await openStore();
      await listWithHole(store);
      // the set clears the tombstone below, although the push after it appends
      await commitOk(store, {
        callId: "s",
        writes: [write(["list"], [null]), write(["list"], null, "push")],
      });
      expect(await answer(store, "†state.list[0]")).toEqual({ found: true, value: null });
      // the merge replaces b (removed with c): a write into the new b after it does not make it a merge
      const other = await openStore();
      await commitOk(other, { callId: "c", writes: [write(["a", "b", "c"], 1)] });
      await commitOk(other, { callId: "x", writes: [write(["a", "x"], 2)] });
      await other.keepLastN(THREAD, 1);
      expect(await other.readState(THREAD)).toEqual({ a: { x: 2 } });
      await commitOk(other, {
        callId: "m",
        writes: [write(["a"], { b: { e: 1 } }, "merge"), write(["a", "b", "f"], 1)],
      });
      expect(await answer(other, "†state.a.b.c")).toEqual(MISSING);
    });

    it("evicting or resetting a parent keeps the tombstones below it; a later write above clears them", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "b", writes: [write(["a", "b"], 1)] });
      await commitOk(store, { callId: "x", writes: [write(["a", "x"], 2)] });
      await store.keepLastN(THREAD, 1);
      await store.keepLastN(THREAD, 0);
      expect(await store.readState(THREAD)).toEqual({});
      expect(await answer(store, "†state.a.b")).toEqual(EVICTED);
      expect(await answer(store, "†state.a.x")).toEqual(EVICTED);
      await commitOk(store, { callId: "k", writes: [write(["k", "v"], 1)] });
      await store.reset(THREAD);
      expect(await answer(store, "†state.a.b")).toEqual(EVICTED);
      expect(await answer(store, "†state.k.v")).toEqual({ evicted: "reset" });
      await commitOk(store, { callId: "s", writes: [write(["a"], {})] });
      await commitOk(store, { callId: "t", writes: [write(["k"], { w: 1 })] });
      expect(await answer(store, "†state.a.b")).toEqual(MISSING);
      expect(await answer(store, "†state.a.x")).toEqual(MISSING);
      expect(await answer(store, "†state.k.v")).toEqual(MISSING);
    });

    it("a path written again after an eviction below it clears what that eviction left", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "x", writes: [write(["x"], 1)] });
      await commitOk(store, { callId: "y", writes: [write(["y"], 1)] });
      await store.keepLastN(THREAD, 1);
      // the thread has a tombstone; none below †state.a when it is written
      await commitOk(store, { callId: "a", writes: [write(["a"], { b: 1 })] });
      await commitOk(store, { callId: "b", writes: [write(["a", "b"], 2)] });
      await store.keepLastN(THREAD, 0);
      expect(await answer(store, "†state.a.b")).toEqual(EVICTED);
      await commitOk(store, { callId: "c", writes: [write(["a"], { c: 1 })] });
      expect(await answer(store, "†state.a.b")).toEqual(MISSING);
    });

    it("a write beside a tombstone leaves it (only what the write replaced is cleared)", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "bc", writes: [write(["a", "bc"], 1)] });
      await commitOk(store, { callId: "ab", writes: [write(["ab"], 1)] });
      await commitOk(store, { callId: "x", writes: [write(["a", "x"], 2)] });
      await store.keepLastN(THREAD, 1);
      await commitOk(store, { callId: "b", writes: [write(["a", "b"], { c: 1 })] });
      await commitOk(store, { callId: "y", writes: [write(["a", "y"], 1)] });
      await commitOk(store, { callId: "z", writes: [write(["a", "x"], { z: 1 })] });
      expect(await answer(store, "†state.a.bc")).toEqual(EVICTED);
      expect(await answer(store, "†state.ab")).toEqual(EVICTED);
    });
  });
}
