import { ObeliskError } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { THREAD, write } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";
import { BIG, BIG_BYTES, commitCallOk, HUGE, HUGE_BYTES, kept } from "./growth-fixtures.js";

/** A record that dropped its result of `bytes`. */
const stripped = (bytes: number) => ({ result: "none", dropped: bytes, callHash: undefined });
const STRIPPED = stripped(BIG_BYTES);
const HUGE_STRIPPED = stripped(HUGE_BYTES);

/**
 * Decision record 0029: a call record keeps its `result` while the thread holds a value the call wrote;
 * once nothing it wrote is there, a result over `recordResultBytes` goes, and the record stops making a
 * re-sent call `satisfied`: at once for stored outputs, `reset` and calls that wrote nothing, with the
 * log's compaction for overwritten and evicted writes (these cases evict a HUGE value to have it now).
 */
export function recordResultCases(openStore: OpenStore): void {
  describe("call records keep no large result of values the thread lost", () => {
    it("an evicted value: its record drops a large result and no longer satisfies; a small one stays", async () => {
      const store = await openStore();
      await commitCallOk(store, { callId: "big", callHash: "h-big", writes: [write(["big"], HUGE)] });
      await commitCallOk(store, { callId: "small", callHash: "h-small", writes: [write(["small"], "s")] });
      await commitCallOk(store, { callId: "other", writes: [write(["other"], 1)] });
      expect(await kept(store, "run-1", "big")).toMatchObject({ result: "kept", callHash: "h-big" });
      await store.keepLastN(THREAD, 1);
      expect(await kept(store, "run-1", "big")).toEqual(HUGE_STRIPPED);
      expect(await store.findCompletedCall(THREAD, "h-big")).toBeUndefined();
      // at most recordResultBytes: kept, so a re-sent call is satisfied and writes the value back
      expect(await kept(store, "run-1", "small")).toEqual({
        result: "kept",
        dropped: undefined,
        callHash: "h-small",
      });
      expect(await store.findCompletedCall(THREAD, "h-small")).toMatchObject({ result: "s" });
      // the record itself stays (run history), with everything but the result
      expect((await store.listCallRecords("run-1" as never)).map((r) => r.callId)).toEqual([
        "big",
        "small",
        "other",
      ]);
    });

    it("an overwritten value: its record drops a large result; the record of the value now held satisfies", async () => {
      const store = await openStore();
      await commitCallOk(store, { callId: "a", runId: "r1", callHash: "h", writes: [write(["x"], BIG)] });
      await commitCallOk(store, { callId: "z", runId: "r2", writes: [write(["z"], HUGE)] });
      await commitCallOk(store, { callId: "a", runId: "r2", callHash: "h", writes: [write(["x"], BIG)] });
      await store.keepLastN(THREAD, 1); // evicts z; the log is compacted: r1's overwritten write goes
      expect(await kept(store, "r1", "a")).toEqual(STRIPPED);
      expect(await store.findCompletedCall(THREAD, "h")).toMatchObject({ runId: "r2", result: BIG });
      expect(await store.findCompletedCalls?.(THREAD, "h", 16)).toHaveLength(1);
      await commitCallOk(store, { callId: "y", runId: "r2", writes: [write(["y"], HUGE)] });
      await store.keepLastN(THREAD, 0); // evicts x and y
      expect(await kept(store, "r2", "a")).toEqual(STRIPPED);
      expect(await store.findCompletedCall(THREAD, "h")).toBeUndefined();
      expect(await store.findCompletedCalls?.(THREAD, "h", 16)).toEqual([]);
    });

    it("a record that wrote several values keeps its result while one of them is held", async () => {
      const store = await openStore();
      await commitCallOk(store, {
        callId: "two",
        callHash: "h",
        writes: [write(["a"], HUGE), write(["b"], HUGE)],
      });
      await commitCallOk(store, { callId: "c", writes: [write(["c"], 1)] });
      await store.keepLastN(THREAD, 2); // evicts a: b is still held
      expect(await kept(store, "run-1", "two")).toMatchObject({ result: "kept", callHash: "h" });
      await store.keepLastN(THREAD, 1); // evicts b
      expect(await kept(store, "run-1", "two")).toEqual(HUGE_STRIPPED);
    });

    it("an evicted or replaced stored output: its record drops a large result at once", async () => {
      const store = await openStore();
      await commitCallOk(store, { callId: "out", runId: "r1", callHash: "h1", output: BIG });
      await commitCallOk(store, { callId: "out2", runId: "r1", callHash: "h2", output: BIG });
      // another run stores another value under the same call id: r1's output is replaced
      await commitCallOk(store, { callId: "out", runId: "r2", callHash: "h3", output: { other: 1 } });
      expect(await kept(store, "r1", "out")).toEqual(STRIPPED);
      expect(await kept(store, "r1", "out2")).toMatchObject({ result: "kept" });
      await store.applyRetention(THREAD, { maxCallOutputs: 1 }, new Date());
      expect(await kept(store, "r1", "out2")).toEqual(STRIPPED);
      expect(await store.findCompletedCall(THREAD, "h2")).toBeUndefined();
      expect(await kept(store, "r2", "out")).toMatchObject({ result: "kept", callHash: "h3" });
    });

    it("reset drops the large results of every record of the thread", async () => {
      const store = await openStore();
      await commitCallOk(store, { callId: "w", callHash: "h1", writes: [write(["w"], BIG)] });
      await commitCallOk(store, { callId: "o", callHash: "h2", output: BIG });
      await commitCallOk(store, { callId: "s", callHash: "h3", writes: [write(["s"], 1)] });
      await store.reset(THREAD);
      expect(await kept(store, "run-1", "w")).toEqual(STRIPPED);
      expect(await kept(store, "run-1", "o")).toEqual(STRIPPED);
      // a small result stays in the record; reset forgets it for the satisfied check all the same
      expect((await kept(store, "run-1", "s")).result).toBe("kept");
      expect(await store.findCompletedCall(THREAD, "h3")).toBeUndefined();
    });

    it("a satisfied call that writes nothing keeps no large result (its targets hold the value)", async () => {
      const store = await openStore();
      await commitCallOk(store, { callId: "a", runId: "r1", callHash: "h", writes: [write(["x"], BIG)] });
      await commitCallOk(store, {
        callId: "a",
        runId: "r2",
        callHash: "h",
        status: "satisfied",
        result: BIG,
      });
      await commitCallOk(store, { callId: "b", runId: "r2", status: "satisfied", result: "small" });
      expect(await kept(store, "r2", "a")).toEqual(STRIPPED);
      expect(await kept(store, "r2", "b")).toMatchObject({ result: "kept" });
      expect(await store.findCompletedCall(THREAD, "h")).toMatchObject({ runId: "r1", result: BIG });
    });

    it("recordResultBytes: Infinity keeps every result, 0 none; anything else is refused", async () => {
      const keepAll = await openStore({ recordResultBytes: Number.POSITIVE_INFINITY });
      await commitCallOk(keepAll, { callId: "a", callHash: "h", writes: [write(["a"], HUGE)] });
      await commitCallOk(keepAll, { callId: "b", writes: [write(["b"], 1)] });
      await keepAll.keepLastN(THREAD, 1);
      expect(await kept(keepAll, "run-1", "a")).toEqual({
        result: "kept",
        dropped: undefined,
        callHash: "h",
      });
      const keepNone = await openStore({ recordResultBytes: 0 });
      await commitCallOk(keepNone, { callId: "a", callHash: "h", writes: [write(["a"], 1)] });
      await commitCallOk(keepNone, { callId: "z", writes: [write(["z"], HUGE)] });
      await commitCallOk(keepNone, { callId: "b", writes: [write(["b"], 1)] });
      await keepNone.keepLastN(THREAD, 1); // evicts a and z: the log is compacted
      expect(await kept(keepNone, "run-1", "a")).toEqual({ result: "none", dropped: 1, callHash: undefined });
      for (const recordResultBytes of [-1, 1.5, Number.NaN, "1024"]) {
        let refused: unknown;
        try {
          await openStore({ recordResultBytes: recordResultBytes as number });
        } catch (error) {
          refused = error;
        }
        expect(ObeliskError.is(refused) && refused.code, String(recordResultBytes)).toBe("USAGE");
      }
    });
  });
}
