import { asCallId, asThreadId } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import type { CallCommit, StateStore } from "../store-types.js";
import { commitOf, commitOk, runRecord, THREAD, write } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";

const FRESH = asThreadId("fresh");
const schema = { type: "object", properties: { n: { type: "integer", minimum: 0 } } };

/** The commit of a numbered call `n$<number>` on `threadId` writing `†state.n`. */
const numbered =
  (value: unknown, threadId = THREAD) =>
  (callNumber: number): CallCommit => {
    const commit = commitOf({ callId: `n$${callNumber}`, threadId, writes: [write(["n"], value as never)] });
    return { ...commit, record: { ...commit.record, callId: asCallId(`n$${callNumber}`) } };
  };

/** What a store holds of a thread that a refused change must leave as it was. */
async function facts(store: StateStore, threadId = THREAD) {
  return {
    thread: await store.getThread(threadId),
    next: await store.nextCallNumber?.(threadId),
    state: await store.readState(threadId),
    log: await store.readWriteLog(threadId),
    stats: await store.stats(),
  };
}

/**
 * `commitNumbered` and the no-trace rule: a number, a thread or a schema is taken only by an accepted
 * change; reads and changes with nothing to do create no thread.
 */
export function numberedCases(openStore: OpenStore): void {
  describe("numbered commits and threads created only by accepted changes", () => {
    it("an accepted numbered commit creates the thread, takes the number and gives the schema", async () => {
      const store = await openStore();
      const result = await store.commitNumbered?.(FRESH, numbered(1, FRESH), { stateSchema: schema });
      expect(result).toEqual({ ok: true, callNumber: 1 });
      expect((await store.getThread(FRESH))?.stateSchema).toEqual(schema);
      expect(await store.nextCallNumber?.(FRESH)).toBe(2);
      expect(await store.readState(FRESH)).toEqual({ n: 1 });
      expect(await store.commitNumbered?.(FRESH, numbered(2, FRESH))).toEqual({ ok: true, callNumber: 2 });
      expect(await store.reserveCallNumbers(FRESH, 1)).toBe(3);
      // the schema came with the commit: a later write is held to it
      expect(await store.commitNumbered?.(FRESH, numbered(-1, FRESH))).toMatchObject({
        ok: false,
        error: { code: "OUTPUT_SCHEMA_VIOLATION" },
      });
    });

    it("a refused numbered commit creates no thread and takes no number", async () => {
      const store = await openStore();
      const before = await facts(store, FRESH);
      for (const value of [-1, 1.5]) {
        const refused = await store.commitNumbered?.(FRESH, numbered(value, FRESH), { stateSchema: schema });
        expect(refused).toMatchObject({ ok: false, error: { code: "OUTPUT_SCHEMA_VIOLATION" } });
      }
      expect(await facts(store, FRESH)).toEqual(before);
      expect(before.thread).toBeUndefined();
    });

    it("a refused numbered commit leaves a held thread's number, state and schema", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "a", writes: [write(["n"], "text")] });
      await store.reserveCallNumbers(THREAD, 2);
      const before = await facts(store);
      const refused = await store.commitNumbered?.(THREAD, numbered(-1), { stateSchema: schema });
      expect(refused).toMatchObject({ ok: false, error: { code: "OUTPUT_SCHEMA_VIOLATION" } });
      const tooBig = (n: number) => ({ ...numbered("x".repeat(50))(n), maxValueBytes: 10 });
      expect(await store.commitNumbered?.(THREAD, tooBig)).toMatchObject({
        ok: false,
        error: { code: "OUTPUT_WRITE_FAILED" },
      });
      expect(await facts(store)).toEqual(before);
      expect(before.thread?.stateSchema).toBeUndefined();
      // accepted: the schema comes with it, the number follows on
      expect(await store.commitNumbered?.(THREAD, numbered(4), { stateSchema: schema })).toEqual({
        ok: true,
        callNumber: 3,
      });
      expect((await store.getThread(THREAD))?.stateSchema).toEqual(schema);
    });

    it("a number another writer took meanwhile is not taken twice: the commit is built again", async () => {
      const store = await openStore();
      await store.openThread(THREAD);
      const asked: number[] = [];
      const result = await store.commitNumbered?.(THREAD, (callNumber) => {
        asked.push(callNumber);
        // another writer reserves the number this commit was given (once)
        if (asked.length === 1) void store.reserveCallNumbers(THREAD, 1);
        return numbered(1)(callNumber);
      });
      if (store.commitNumbered === undefined) return;
      expect(asked).toEqual([1, 2]);
      expect(result).toEqual({ ok: true, callNumber: 2 });
      expect((await store.listCallRecords(runRecord().runId)).map((r) => r.callId)).toEqual(["n$2"]);
      expect(await store.nextCallNumber?.(THREAD)).toBe(3);
    });

    it("a refused commit of a thread the store does not hold creates no thread; an accepted one does", async () => {
      const store = await openStore();
      await store.openThread(THREAD, { stateSchema: schema });
      const before = await facts(store, FRESH);
      const big = {
        ...commitOf({ callId: "c", threadId: FRESH, writes: [write(["s"], "xxxxx")] }),
        maxValueBytes: 3,
      };
      expect(await store.commitCall(big)).toMatchObject({
        ok: false,
        error: { code: "OUTPUT_WRITE_FAILED" },
      });
      const through = commitOf({
        callId: "c",
        threadId: FRESH,
        writes: [write(["s"], 1), write(["s", "x"], 2)],
      });
      expect(await store.commitCall(through)).toMatchObject({ ok: false });
      expect(await facts(store, FRESH)).toEqual(before);
      await commitOk(store, { callId: "c", threadId: FRESH, writes: [write(["s"], 1)] });
      expect(await store.getThread(FRESH)).toMatchObject({ threadId: FRESH });
      expect(await store.readState(FRESH)).toEqual({ s: 1 });
    });

    it("reads, refused arguments and changes with nothing to do create no thread", async () => {
      const store = await openStore();
      const before = await facts(store, FRESH);
      await expect(store.keepLastN(FRESH, -1)).rejects.toMatchObject({ code: "USAGE" });
      await expect(store.openThread(FRESH, { stateSchema: { type: 12 } })).rejects.toMatchObject({
        code: "USAGE",
      });
      await expect(Promise.resolve().then(() => store.reserveCallNumbers(FRESH, 0))).rejects.toMatchObject({
        code: "USAGE",
      });
      await expect(
        Promise.resolve().then(() => store.createRun(runRecord({ threadId: FRESH, input: 1n as never }))),
      ).rejects.toMatchObject({ code: expect.any(String) });
      await store.keepLastN(FRESH, 0);
      await store.reset(FRESH);
      await store.applyRetention(FRESH, { maxVariables: 0 }, new Date());
      expect(await store.expireStale(FRESH)).toBe(0);
      expect(await store.listVariables(FRESH)).toEqual([]);
      expect(await store.listCallOutputIds(FRESH)).toEqual([]);
      expect(await store.getCallOutput(FRESH, "x")).toBeUndefined();
      expect(await store.stats(FRESH)).toMatchObject({ threads: 0, variables: 0 });
      expect(await facts(store, FRESH)).toEqual(before);
      expect(await store.getThread(FRESH)).toBeUndefined();
    });
  });
}
