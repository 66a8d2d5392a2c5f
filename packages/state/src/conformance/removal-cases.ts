import { asCallId, asRunId, asThreadId } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import type { CallRecord, StateStore } from "../store-types.js";
import { getValue } from "../variables/get-value.js";
import { setValue } from "../variables/set-value.js";
import { unsetValue } from "../variables/unset-value.js";
import { commitOk, foldedLog, manualClock, THREAD, write } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";

const UNSET_RUN = asRunId("obelisk.unset");
const FRESH = asThreadId("fresh");

/** Everything of a thread a refused or empty removal must leave as it was. */
async function facts(store: StateStore, threadId = THREAD) {
  return {
    thread: await store.getThread(threadId),
    next: await store.nextCallNumber?.(threadId),
    state: await store.readState(threadId),
    log: await store.readWriteLog(threadId),
    variables: await store.listVariables(threadId),
    records: await store.listCallRecords(UNSET_RUN),
    stats: await store.stats(),
  };
}

const references = async (store: StateStore): Promise<string[]> =>
  (await store.listVariables(THREAD)).map((meta) => meta.reference).sort();

/** `removeNumbered` through `unsetValue`: one value taken back the way eviction removes it (decision 0026). */
export function removalCases(openStore: OpenStore): void {
  describe("removing one value (unsetValue)", () => {
    it("removes a variable as a numbered call: value, variable, tombstone, log entry and record", async () => {
      const clock = manualClock();
      const store = await openStore({ now: clock.now });
      await setValue(store, THREAD, "†state.approvals.refund", { by: "ops" }, { now: clock.now });
      await setValue(store, THREAD, "†state.approvals.deploy", true, { now: clock.now });
      await commitOk(store, { callId: "c", writes: [write(["n"], 1)] });
      clock.advance(1_000);
      const result = await unsetValue(store, THREAD, "†state.approvals.refund", { now: clock.now });
      expect(result).toEqual({
        removed: true,
        reference: "†state.approvals.refund",
        variables: ["†state.approvals.refund"],
        callId: "obelisk-unset$3",
      });
      expect(await store.readState(THREAD)).toEqual({ approvals: { deploy: true }, n: 1 });
      expect(await references(store)).toEqual(["†state.approvals.deploy", "†state.n"]);
      expect(await store.getTombstone(THREAD, "†state.approvals.refund")).toEqual({
        reference: "†state.approvals.refund",
        evictedAt: "2025-01-01T00:00:01.000Z",
        reason: "unset",
      });
      await expect(getValue(store, THREAD, "†state.approvals.refund.by")).rejects.toMatchObject({
        code: "REF_EVICTED",
        data: { reason: "unset" },
      });
      expect((await store.readWriteLog(THREAD)).at(-1)).toMatchObject({
        op: "unset",
        runId: "obelisk.unset",
        call: { id: "obelisk-unset$3", tool: "obelisk.unset" },
        write: { reference: "†state.approvals.refund", path: ["approvals", "refund"] },
      });
      expect(await store.listCallRecords(UNSET_RUN)).toEqual([
        expect.objectContaining({
          callId: "obelisk-unset$3",
          tool: "obelisk.unset",
          status: "succeeded",
          outputPath: "†state.approvals.refund",
          wrote: [],
        }),
      ]);
      expect(await store.nextCallNumber?.(THREAD)).toBe(4);
      expect(await foldedLog(store)).toEqual(await store.readState(THREAD));
      // written again, it is a value again
      await setValue(store, THREAD, "†state.approvals.refund", true);
      expect(await getValue(store, THREAD, "†state.approvals.refund")).toEqual({ found: true, value: true });
    });

    it("removes the parents only the removed value created, and leaves an array element as a hole", async () => {
      const store = await openStore();
      await setValue(store, THREAD, "†state.approvals.pay", true);
      await setValue(store, THREAD, "†state.list[0]", "a");
      await setValue(store, THREAD, "†state.list[1]", "b");
      await setValue(store, THREAD, "†state.box", {});
      await setValue(store, THREAD, "†state.box.x", 1);
      await unsetValue(store, THREAD, "†state.approvals.pay");
      await unsetValue(store, THREAD, "†state.list[0]");
      await unsetValue(store, THREAD, "†state.box.x");
      // approvals was only the parent of pay (0010); list keeps its length (0013); box was written as {}
      expect(await store.readState(THREAD)).toEqual({ list: [null, "b"], box: {} });
      expect(await getValue(store, THREAD, "†state.approvals")).toEqual({ found: false });
      await expect(getValue(store, THREAD, "†state.list[0]")).rejects.toMatchObject({ code: "REF_EVICTED" });
      expect(await getValue(store, THREAD, "†state.box")).toEqual({ found: true, value: {} });
      // the box's facts follow its value
      const box = (await store.listVariables(THREAD)).find((meta) => meta.reference === "†state.box");
      expect(box).toMatchObject({ bytes: 2, count: 0 });
      // the last element goes, and the array of holes with it
      await unsetValue(store, THREAD, "†state.list[1]");
      expect(await store.readState(THREAD)).toEqual({ box: {} });
      expect(await foldedLog(store)).toEqual(await store.readState(THREAD));
    });

    it("removes every variable below a container only their writes created", async () => {
      const store = await openStore();
      await setValue(store, THREAD, "†state.approvals.a", true);
      await setValue(store, THREAD, "†state.approvals.b.by", "ops");
      await setValue(store, THREAD, "†state.keep", 1);
      const result = await unsetValue(store, THREAD, "†state.approvals");
      expect(result.removed).toBe(true);
      expect([...result.variables].sort()).toEqual(["†state.approvals.a", "†state.approvals.b.by"]);
      expect(await store.readState(THREAD)).toEqual({ keep: 1 });
      expect(await references(store)).toEqual(["†state.keep"]);
      expect(await foldedLog(store)).toEqual({ keep: 1 });
    });

    it("removes a variable below another and the variables below it", async () => {
      const store = await openStore();
      await setValue(store, THREAD, "†state.a", { b: { c: 1 }, d: 2 });
      await setValue(store, THREAD, "†state.a.b.c", 5);
      await setValue(store, THREAD, "†state.x", { y: 1 });
      await setValue(store, THREAD, "†state.x.y", 2);
      const before = (await store.listVariables(THREAD)).find((meta) => meta.reference === "†state.a");
      expect((await unsetValue(store, THREAD, "†state.a.b.c")).variables).toEqual(["†state.a.b.c"]);
      const after = (await store.listVariables(THREAD)).find((meta) => meta.reference === "†state.a");
      expect(after?.version).toBe((before?.version ?? 0) + 1);
      expect(after?.bytes).toBeLessThan(before?.bytes ?? 0);
      expect((await unsetValue(store, THREAD, "†state.x")).variables.slice().sort()).toEqual([
        "†state.x",
        "†state.x.y",
      ]);
      await expect(getValue(store, THREAD, "†state.x.y")).rejects.toMatchObject({ code: "REF_EVICTED" });
      expect(await foldedLog(store)).toEqual(await store.readState(THREAD));
    });

    it("a path that holds nothing is removed: false, and nothing changes (no number taken)", async () => {
      const store = await openStore();
      await setValue(store, THREAD, "†state.list[0]", "a");
      await setValue(store, THREAD, "†state.gone", 1);
      await setValue(store, THREAD, "†state.list[1]", "b");
      await store.keepLastN(THREAD, 1);
      expect(await store.readState(THREAD)).toEqual({ list: [null, "b"] });
      const before = await facts(store);
      const freshBefore = await facts(store, FRESH);
      // missing; below a missing parent; through a string; evicted; a hole
      for (const reference of [
        "†state.none",
        "†state.a.b",
        "†state.list[1].x",
        "†state.gone",
        "†state.list[0]",
      ])
        expect(await unsetValue(store, THREAD, reference)).toEqual({
          removed: false,
          reference,
          variables: [],
        });
      expect(await facts(store)).toEqual(before);
      expect(await unsetValue(store, FRESH, "†state.x")).toMatchObject({ removed: false });
      expect(await facts(store, FRESH)).toEqual(freshBefore);
      expect(await store.getThread(FRESH)).toBeUndefined();
    });

    it("refuses, changing nothing: a path inside a variable's value, a state the schema needs", async () => {
      const store = await openStore();
      await store.openThread(THREAD, { stateSchema: { type: "object", required: ["must"] } });
      await setValue(store, THREAD, "†state.must", 1);
      await setValue(store, THREAD, "†state.obj", { inner: 1, list: [1, null] });
      const before = await facts(store);
      for (const reference of ["†state.obj.inner", "†state.obj.list[1]"]) {
        await expect(unsetValue(store, THREAD, reference)).rejects.toMatchObject({
          code: "USAGE",
          data: { reference, variable: "†state.obj" },
          hint: expect.stringContaining("†state.obj"),
        });
      }
      await expect(unsetValue(store, THREAD, "†state.must")).rejects.toMatchObject({
        code: "OUTPUT_SCHEMA_VIOLATION",
        data: { reference: "†state.must" },
      });
      for (const [reference, code] of [
        ["†state", "USAGE"],
        ["†state.l[-1]", "USAGE"],
        ["†calls.c", "OUTPUT_PATH_READONLY"],
        ["†input.x", "OUTPUT_PATH_READONLY"],
        ["†state.a b", "REF_SYNTAX"],
        ["state.obj", "REF_SYNTAX"],
      ] as const)
        await expect(unsetValue(store, THREAD, reference)).rejects.toMatchObject({ code });
      expect(await facts(store)).toEqual(before);
      // what the schema does not need goes
      expect((await unsetValue(store, THREAD, "†state.obj")).removed).toBe(true);
    });

    it("a number another writer took meanwhile is not taken twice: the record is built again", async () => {
      const store = await openStore();
      await setValue(store, THREAD, "†state.a", 1);
      if (store.removeNumbered === undefined) return;
      const asked: number[] = [];
      const record = (callNumber: number): CallRecord => {
        asked.push(callNumber);
        if (asked.length === 1) void store.reserveCallNumbers(THREAD, 1);
        return {
          threadId: THREAD,
          runId: UNSET_RUN,
          callId: asCallId(`u$${callNumber}`),
          tool: "obelisk.unset",
          status: "succeeded",
          attempts: 1,
          outputMethod: "set",
          wrote: [],
        };
      };
      const result = await store.removeNumbered(THREAD, { path: ["a"], reference: "†state.a" }, record);
      expect(asked).toEqual([2, 3]);
      expect(result).toEqual({ ok: true, removed: ["†state.a"], callNumber: 3 });
      expect((await store.listCallRecords(UNSET_RUN)).map((r) => r.callId)).toEqual(["u$3"]);
      expect(await store.nextCallNumber?.(THREAD)).toBe(4);
    });
  });
}
