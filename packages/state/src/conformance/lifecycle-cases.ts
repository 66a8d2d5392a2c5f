import { asRunId } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { getValue } from "../variables/get-value.js";
import { summarize } from "../variables/summarize.js";
import { commitOf, commitOk, foldedLog, manualClock, runRecord, THREAD, write } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";

const MINUTE = 60_000;

/** reset, keepLastN, retention, expiry on read and tombstones. */
export function lifecycleCases(openStore: OpenStore): void {
  describe("lifecycle", () => {
    it("every method after close answers STORE_CLOSED (an ObeliskError), reads included", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "a", writes: [write(["a"], 1)] });
      await store.close();
      const uses: [string, () => unknown][] = [
        ["openThread", () => store.openThread(THREAD)],
        ["readState", () => store.readState(THREAD)],
        ["lockThread", () => store.lockThread(THREAD)],
        ["reserveCallNumbers", () => store.reserveCallNumbers(THREAD, 1)],
        ["createRun", () => store.createRun(runRecord({ runId: asRunId("run-2") }))],
        ["finishRun", () => store.finishRun(asRunId("run-2"), "succeeded", new Date(0).toISOString())],
        ["getRun", () => store.getRun(asRunId("run-1"))],
        ["listRuns", () => store.listRuns({ threadId: THREAD })],
        ["listCallRecords", () => store.listCallRecords(asRunId("run-1"))],
        ["findCompletedCall", () => store.findCompletedCall(THREAD, "h")],
        ["commitCall", () => store.commitCall(commitOf({ callId: "b" }))],
        ["getCallOutput", () => store.getCallOutput(THREAD, "a")],
        ["listCallOutputIds", () => store.listCallOutputIds(THREAD)],
        ["readWriteLog", () => store.readWriteLog(THREAD)],
        ["listVariables", () => store.listVariables(THREAD)],
        ["getTombstone", () => store.getTombstone(THREAD, "†state.a")],
        ["reset", () => store.reset(THREAD)],
        ["keepLastN", () => store.keepLastN(THREAD, 1)],
        ["applyRetention", () => store.applyRetention(THREAD, {}, new Date(0))],
        ["stats", () => store.stats(THREAD)],
        ["getThread", () => store.getThread(THREAD)],
        ["expireStale", () => store.expireStale(THREAD)],
        ["getValue", () => getValue(store, THREAD, "†state.a")],
        ["summarize", () => summarize(store, THREAD)],
      ];
      for (const [name, use] of uses) {
        let failure: unknown;
        try {
          await use();
        } catch (error) {
          failure = error;
        }
        expect(failure, name).toMatchObject({
          name: "ObeliskError",
          code: "STORE_CLOSED",
          hint: expect.stringContaining("create a new store"),
        });
      }
    });

    it("reset clears state, outputs and variables, leaves tombstones, keeps runs and counters", async () => {
      const store = await openStore();
      await store.reserveCallNumbers(THREAD, 2);
      await commitOk(store, { callId: "a", writes: [write(["a"], 1)] });
      await commitOk(store, { callId: "b", output: "out" });
      await store.reset(THREAD);
      expect(await store.readState(THREAD)).toEqual({});
      expect(await store.listVariables(THREAD)).toEqual([]);
      expect(await store.listCallOutputIds(THREAD)).toEqual([]);
      expect(await store.getCallOutput(THREAD, "b")).toMatchObject({
        reference: "†calls.b",
        reason: "reset",
      });
      await expect(getValue(store, THREAD, "†state.a")).rejects.toMatchObject({
        code: "REF_EVICTED",
        data: { reason: "reset" },
      });
      expect(await store.listCallRecords(commitOf({ callId: "x" }).record.runId)).toHaveLength(2);
      expect((await store.readWriteLog(THREAD)).map((e) => e.op)).toEqual(["reset"]);
      expect(await store.reserveCallNumbers(THREAD, 1)).toBe(3);
      await commitOk(store, { callId: "c", writes: [write(["a"], 2)] });
      expect(await getValue(store, THREAD, "†state.a")).toEqual({ found: true, value: 2 });
    });

    it("reset forgets completed calls for the satisfied check but keeps them in the run history", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "a", callHash: "h-a", writes: [write(["a"], 1)] });
      expect(await store.findCompletedCall(THREAD, "h-a")).toMatchObject({ callId: "a" });
      await store.reset(THREAD);
      expect(await store.findCompletedCall(THREAD, "h-a")).toBeUndefined();
      expect(await store.findCompletedCalls?.(THREAD, "h-a", 10)).toEqual([]);
      expect(await store.listCallRecords(commitOf({ callId: "x" }).record.runId)).toMatchObject([
        { callId: "a", status: "succeeded" },
      ]);
      await commitOk(store, { callId: "a2", callHash: "h-a", writes: [write(["a"], 2)] });
      expect(await store.findCompletedCall(THREAD, "h-a")).toMatchObject({ callId: "a2" });
    });

    it("keepLastN keeps the most recently UPDATED variables (an update moves a variable to most recent)", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "x", writes: [write(["x"], 1)] });
      await commitOk(store, { callId: "y", writes: [write(["y"], 1)] });
      await commitOk(store, { callId: "z", writes: [write(["z"], 1)] });
      await commitOk(store, { callId: "x2", writes: [write(["x"], 2)] });
      await store.keepLastN(THREAD, 2);
      expect((await store.listVariables(THREAD)).map((v) => v.reference)).toEqual(["†state.x", "†state.z"]);
      expect(await store.readState(THREAD)).toEqual({ x: 2, z: 1 });
      await expect(getValue(store, THREAD, "†state.y")).rejects.toMatchObject({
        code: "REF_EVICTED",
        data: { reason: "keepLastN" },
      });
      const log = await store.readWriteLog(THREAD);
      expect(log.at(-1)).toMatchObject({ op: "unset", write: { reference: "†state.y" } });
      await expect(store.keepLastN(THREAD, -1)).rejects.toMatchObject({ code: "USAGE" });
      await expect(store.keepLastN(THREAD, 1.5)).rejects.toMatchObject({ code: "USAGE" });
      await expect(store.keepLastN(THREAD, Number.NaN)).rejects.toMatchObject({ code: "USAGE" });
      // Infinity keeps every variable, as it switches a retention limit off
      await store.keepLastN(THREAD, Number.POSITIVE_INFINITY);
      expect(await store.listVariables(THREAD)).toHaveLength(2);
      await store.keepLastN(THREAD, 0);
      expect(await store.listVariables(THREAD)).toEqual([]);
    });

    it("evicting a variable takes the variables below it and its tombstone answers reads below it", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "a", writes: [write(["a"], { b: { c: 1 } })] });
      await commitOk(store, { callId: "b", writes: [write(["other"], 1)] });
      await store.keepLastN(THREAD, 1);
      await expect(getValue(store, THREAD, "†state.a.b.c")).rejects.toMatchObject({ code: "REF_EVICTED" });
      expect(await store.getTombstone(THREAD, "†state.a")).toMatchObject({ reason: "keepLastN" });
    });

    it("evicting a variable removes the parents its write only created: the state reads as if never written", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "p", writes: [write(["user", "profile"], { name: "Ada" })] });
      await commitOk(store, { callId: "d", writes: [write(["a", "b", "c", "d"], 1)] });
      await commitOk(store, { callId: "l", writes: [write(["list", 0], "x")] });
      await commitOk(store, { callId: "o", writes: [write(["other"], 1)] });
      await store.keepLastN(THREAD, 1);
      // not { user: {}, a: { b: { c: {} } }, list: [], other: 1 }
      expect(await store.readState(THREAD)).toEqual({ other: 1 });
      expect(await getValue(store, THREAD, "†state.user")).toEqual({ found: false });
      await expect(getValue(store, THREAD, "†state.user.profile")).rejects.toMatchObject({
        code: "REF_EVICTED",
      });
      expect(await store.getTombstone(THREAD, "†state.user")).toBeUndefined();
      const unsets = (await store.readWriteLog(THREAD)).filter((entry) => entry.op === "unset");
      // the evicted variables, then the parents the batch left empty (outermost only)
      expect(unsets.map((entry) => entry.write.reference)).toEqual([
        "†state.user.profile",
        "†state.a.b.c.d",
        "†state.list[0]",
        "†state.user",
        "†state.list",
        "†state.a",
      ]);
      expect(await foldedLog(store)).toEqual(await store.readState(THREAD));
    });

    it("a container a write put there itself stays when emptied of others, and so does a parent still holding something", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "p", writes: [write(["user", "profile"], 1)] });
      await commitOk(store, { callId: "s", writes: [write(["user", "settings"], {})] });
      await commitOk(store, { callId: "b", writes: [write(["box"], {})] });
      await commitOk(store, { callId: "i", writes: [write(["box2", "item"], [])] });
      await store.keepLastN(THREAD, 3);
      // user still holds settings (an empty object its write put there): both stay
      expect(await store.readState(THREAD)).toEqual({ user: { settings: {} }, box: {}, box2: { item: [] } });
      await store.keepLastN(THREAD, 1);
      // box was written as {}: evicting it removes it; box2 was only item's parent and goes with item;
      // user went with settings, the last thing in it
      expect(await store.readState(THREAD)).toEqual({ box2: { item: [] } });
      await store.keepLastN(THREAD, 0);
      expect(await store.readState(THREAD)).toEqual({});
      expect(await foldedLog(store)).toEqual({});
    });

    it("applies retention by count, bytes and age, least recently updated first", async () => {
      const clock = manualClock();
      const store = await openStore({ now: clock.now });
      for (const name of ["a", "b", "c", "d"]) {
        await commitOk(store, { callId: name, writes: [write([name], name.repeat(10))] });
        clock.advance(MINUTE);
      }
      await store.applyRetention(THREAD, { maxVariables: 3 }, new Date(clock.now()));
      expect(await store.getTombstone(THREAD, "†state.a")).toEqual({
        reference: "†state.a",
        evictedAt: new Date(clock.now()).toISOString(),
        reason: "maxVariables",
      });
      await store.applyRetention(THREAD, { maxBytes: 30 }, new Date(clock.now()));
      expect(await store.getTombstone(THREAD, "†state.b")).toMatchObject({ reason: "maxBytes" });
      await store.applyRetention(THREAD, { maxAgeMs: 1.5 * MINUTE }, new Date(clock.now()));
      expect(await store.getTombstone(THREAD, "†state.c")).toMatchObject({ reason: "maxAgeMs" });
      expect(await store.readState(THREAD)).toEqual({ d: "dddddddddd" });
      await expect(store.applyRetention(THREAD, { maxBytes: -1 }, new Date())).rejects.toMatchObject({
        code: "USAGE",
      });
    });

    it("keeps at most 100 call outputs by default and never reuses their names", async () => {
      const store = await openStore();
      for (let index = 1; index <= 105; index++)
        await commitOk(store, { callId: `t$${index}`, output: index });
      await store.applyRetention(THREAD, {}, new Date());
      const ids = await store.listCallOutputIds(THREAD);
      expect(ids).toHaveLength(100);
      expect(ids[0]).toBe("t$6");
      expect(await store.getCallOutput(THREAD, "t$1")).toMatchObject({ reason: "maxCallOutputs" });
      await commitOk(store, { callId: "t$106", output: 106 });
      expect(await store.getCallOutput(THREAD, "t$1")).toMatchObject({ reason: "maxCallOutputs" });
    });

    it("expires call outputs after 60 minutes by default, after a run and on read", async () => {
      const clock = manualClock();
      const store = await openStore({ now: clock.now });
      await commitOk(store, { callId: "a", output: "a" });
      await commitOk(store, { callId: "b", output: "b" });
      // an expired output's tombstone says when it passed the limit (written + 60 min)
      const expiredAt = new Date(clock.now() + 60 * MINUTE).toISOString();
      clock.advance(60 * MINUTE);
      await store.applyRetention(THREAD, {}, new Date(clock.now()));
      expect(await store.getCallOutput(THREAD, "a")).toEqual({ value: "a" });
      clock.advance(1);
      await store.applyRetention(THREAD, {}, new Date(clock.now()));
      expect(await store.getCallOutput(THREAD, "a")).toEqual({
        reference: "†calls.a",
        evictedAt: expiredAt,
        reason: "maxCallOutputAgeMs",
      });
      await commitOk(store, { callId: "c", output: "c" });
      const cExpiredAt = new Date(clock.now() + 60 * MINUTE).toISOString();
      clock.advance(60 * MINUTE + 1);
      expect(await store.getCallOutput(THREAD, "c")).toMatchObject({
        reason: "maxCallOutputAgeMs",
        evictedAt: cExpiredAt,
      });
      expect(await store.getTombstone(THREAD, "†calls.b")).toMatchObject({ evictedAt: expiredAt });
    });

    it("stamps an age eviction with when the value passed the limit, not when a later read noticed it (s32 review M2)", async () => {
      const clock = manualClock();
      const store = await openStore({ now: clock.now });
      await commitOk(store, { callId: "a", output: "a" });
      await commitOk(store, { callId: "w", writes: [write(["s"], 1)] });
      const writtenAt = clock.now();
      // nothing ran or read for three hours: the first read expires them
      clock.advance(180 * MINUTE);
      expect(await store.getCallOutput(THREAD, "a")).toEqual({
        reference: "†calls.a",
        evictedAt: new Date(writtenAt + 60 * MINUTE).toISOString(),
        reason: "maxCallOutputAgeMs",
      });
      await store.applyRetention(THREAD, { maxAgeMs: 30 * MINUTE }, new Date(clock.now()));
      expect(await store.getTombstone(THREAD, "†state.s")).toEqual({
        reference: "†state.s",
        evictedAt: new Date(writtenAt + 30 * MINUTE).toISOString(),
        reason: "maxAgeMs",
      });
      // a later read says the same time
      clock.advance(MINUTE);
      expect(await store.getCallOutput(THREAD, "a")).toMatchObject({
        evictedAt: new Date(writtenAt + 60 * MINUTE).toISOString(),
      });
    });

    it("keeps the call-output defaults when the store sets other limits; Infinity disables a limit", async () => {
      const clock = manualClock();
      const partial = await openStore({ now: clock.now, retention: { maxAgeMs: 10 * MINUTE } });
      const unlimited = await openStore({
        now: clock.now,
        retention: { maxCallOutputs: Number.POSITIVE_INFINITY, maxCallOutputAgeMs: Number.POSITIVE_INFINITY },
      });
      for (const store of [partial, unlimited]) {
        for (let index = 1; index <= 101; index++)
          await commitOk(store, { callId: `t$${index}`, output: index });
        await store.applyRetention(THREAD, {}, new Date(clock.now()));
      }
      expect(await partial.listCallOutputIds(THREAD)).toHaveLength(100);
      expect(await unlimited.listCallOutputIds(THREAD)).toHaveLength(101);
      clock.advance(24 * 60 * MINUTE);
      expect(await partial.getCallOutput(THREAD, "t$2")).toMatchObject({ reason: "maxCallOutputAgeMs" });
      expect(await unlimited.getCallOutput(THREAD, "t$2")).toEqual({ value: 2 });
    });

    it("evicts call outputs by total bytes, least recently stored first, separately from state", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "s", writes: [write(["s"], "x".repeat(100))] });
      for (const id of ["a", "b", "c"]) await commitOk(store, { callId: id, output: id.repeat(8) });
      await store.applyRetention(THREAD, { maxCallOutputBytes: 20 }, new Date());
      expect(await store.listCallOutputIds(THREAD)).toEqual(["b", "c"]);
      expect(await store.getCallOutput(THREAD, "a")).toMatchObject({ reason: "maxCallOutputBytes" });
      expect(await store.readState(THREAD)).toEqual({ s: "x".repeat(100) });
    });

    it("expires on read against the clock, not only on writes", async () => {
      const clock = manualClock();
      const store = await openStore({
        now: clock.now,
        retention: { maxCallOutputAgeMs: 60 * MINUTE, maxAgeMs: 10 * MINUTE },
      });
      await commitOk(store, { callId: "old", output: [1] });
      await commitOk(store, { callId: "s", writes: [write(["s"], 1)] });
      clock.advance(11 * MINUTE);
      const summary = await summarize(store, THREAD);
      expect(summary.entries.map((entry) => entry.reference)).toEqual(["†calls.old"]);
      await expect(getValue(store, THREAD, "†state.s")).rejects.toMatchObject({
        code: "REF_EVICTED",
        data: { reason: "maxAgeMs" },
      });
      expect(await store.getCallOutput(THREAD, "old")).toEqual({ value: [1] });
      clock.advance(50 * MINUTE);
      expect(await store.getCallOutput(THREAD, "old")).toMatchObject({ reason: "maxCallOutputAgeMs" });
      await expect(getValue(store, THREAD, "†calls.old")).rejects.toMatchObject({ code: "REF_EVICTED" });
    });

    it("expiry on read applies a given policy's ages, its fields left out the store's own (decision 0104)", async () => {
      const clock = manualClock();
      // the store's own policy is the default (call outputs 60 min, values no age); the reader's is longer
      const store = await openStore({ now: clock.now });
      const reader = { maxCallOutputAgeMs: 24 * 60 * MINUTE, maxAgeMs: 10 * MINUTE };
      await commitOk(store, { callId: "out", output: [1] });
      await commitOk(store, { callId: "s", writes: [write(["s"], 1)] });
      clock.advance(120 * MINUTE);
      expect(await store.getCallOutput(THREAD, "out", reader)).toEqual({ value: [1] });
      // the reader's maxAgeMs evicts the value; its maxCallOutputAgeMs keeps the two-hour-old output
      expect(await store.expireStale(THREAD, reader)).toBe(1);
      expect(await getValue(store, THREAD, "†calls.out", { retention: reader })).toMatchObject({
        value: [1],
      });
      await expect(getValue(store, THREAD, "†state.s", { retention: reader })).rejects.toMatchObject({
        data: { reason: "maxAgeMs" },
      });
      const summary = await summarize(store, THREAD, { retention: reader });
      expect(summary.entries.map((entry) => entry.reference)).toEqual(["†calls.out"]);
      // a field the reader leaves out is the store's own: its 60 minutes evict the output
      expect(await store.expireStale(THREAD, { maxAgeMs: 10 * MINUTE })).toBe(1);
      expect(await store.getCallOutput(THREAD, "out")).toMatchObject({ reason: "maxCallOutputAgeMs" });
    });

    it("never evicts before the triggering write succeeds: a refused commit loses nothing", async () => {
      const store = await openStore();
      await store.openThread(THREAD, {
        stateSchema: { type: "object", properties: { n: { type: "number" } } },
      });
      await commitOk(store, { callId: "keep", output: "kept", writes: [write(["n"], 1)] });
      const refused = await store.commitCall(
        commitOf({ callId: "bad", output: "new", writes: [write(["n"], "x")] }),
      );
      expect(refused.ok).toBe(false);
      await store.applyRetention(THREAD, { maxCallOutputs: 1, maxVariables: 1 }, new Date());
      expect(await store.getCallOutput(THREAD, "keep")).toEqual({ value: "kept" });
      expect(await store.getCallOutput(THREAD, "bad")).toBeUndefined();
      expect(await store.readState(THREAD)).toEqual({ n: 1 });
    });
  });
}
