import { formatReference } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { foldedLog, THREAD, write } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";
import { commitCallOk, HUGE } from "./growth-fixtures.js";

/**
 * Decision record 0029: the write log keeps only what still folds into the state. It is compacted at
 * `reset`, by an eviction of at least 256 KiB of state variables, and once the log grew by the state's
 * size (at least 256 KiB) since the last time: values no later entry needs are dropped, or left as
 * stand-ins (`compacted: true`), and the log still folds to the state. (A HUGE value makes it happen now.)
 */
export function logCompactionCases(openStore: OpenStore): void {
  describe("write log compaction", () => {
    it("removals below a parent that stays keep their order; the values they removed are stand-ins", async () => {
      // each under a parent of its own that it made (a key made below a parent the log shows holding only
      // what writes below it made goes with its removal: see "written and evicted every run" below)
      const store = await openStore();
      await commitCallOk(store, { callId: "p", writes: [write(["r", "user", "profile"], { name: HUGE })] });
      await commitCallOk(store, { callId: "d", writes: [write(["s", "a", "b"], [1, 2])] });
      await commitCallOk(store, { callId: "l", writes: [write(["t", "list", 0], "x")] });
      const keep = ["r", "s", "t"].map((parent) => write([parent, "keep"], 1));
      await commitCallOk(store, { callId: "k", writes: keep });
      await store.keepLastN(THREAD, 3);
      expect(await store.readState(THREAD)).toEqual({ r: { keep: 1 }, s: { keep: 1 }, t: { keep: 1 } });
      const log = await store.readWriteLog(THREAD);
      expect(log.map((entry) => [entry.op ?? entry.write.method, entry.write.reference])).toEqual([
        ["set", "†state.r.user.profile"],
        ["set", "†state.s.a.b"],
        ["set", "†state.t.list[0]"],
        ["set", "†state.r.keep"],
        ["set", "†state.s.keep"],
        ["set", "†state.t.keep"],
        // the evicted variables, then the parents the batch left empty (outermost only)
        ["unset", "†state.r.user.profile"],
        ["unset", "†state.s.a.b"],
        ["unset", "†state.t.list[0]"],
        ["unset", "†state.r.user"],
        ["unset", "†state.s.a"],
        ["unset", "†state.t.list"],
      ]);
      // the removed values are kept as stand-ins of their kind: the writes still create the parents
      expect(log.slice(0, 4).map((entry) => [entry.compacted ?? false, entry.write.value])).toEqual([
        [true, {}],
        [true, []],
        [true, null],
        [false, 1],
      ]);
      expect(log[0]).toMatchObject({ call: { id: "p", tool: "tool" }, runId: "run-1" });
      expect(await foldedLog(store)).toEqual(await store.readState(THREAD));
    });

    it("a thread that writes a new key and evicts the last one every run keeps one entry", async () => {
      const store = await openStore();
      for (let round = 0; round < 5; round++) {
        await commitCallOk(store, {
          callId: `c${round}`,
          writes: [write([`tick${round}`], `${round}${HUGE}`)],
        });
        await store.keepLastN(THREAD, 1);
        expect(await store.readWriteLog(THREAD)).toHaveLength(1);
      }
      expect(await foldedLog(store)).toEqual({ tick4: `4${HUGE}` });
      // the tombstones still answer why an old key reads nothing
      expect(await store.getTombstone(THREAD, "†state.tick3")).toMatchObject({ reason: "keepLastN" });
    });

    it("overwrites of one key keep the log and the records to a few values without any eviction", async () => {
      const store = await openStore();
      for (let round = 0; round < 8; round++) {
        await commitCallOk(store, {
          callId: `c${round}`,
          callHash: `h${round}`,
          writes: [write(["latest"], `${round}${HUGE}`)],
        });
        const log = await store.readWriteLog(THREAD);
        expect(log.filter((entry) => entry.compacted !== true).length, `round ${round}`).toBeLessThanOrEqual(
          3,
        );
        const records = await store.listCallRecords("run-1" as never);
        expect(records.filter((record) => record.result !== undefined).length).toBeLessThanOrEqual(3);
      }
      expect(await foldedLog(store)).toEqual(await store.readState(THREAD));
      expect(await store.findCompletedCall(THREAD, "h7")).toMatchObject({ callId: "c7" });
      expect(await store.findCompletedCall(THREAD, "h0")).toBeUndefined();
    });

    /**
     * A thread overwriting a nested path each run (soak review: `†state.latest.msg`, 2,083 → 30,827 log rows
     * over 28k runs): every overwrite used to leave a stand-in for ever. Now the first write of the path keeps
     * its place (a stand-in: it created `latest`) and the others go, so the log's length does not depend on
     * how many overwrites came before. A HUGE write at the end makes compaction happen there.
     */
    for (const between of [false, true]) {
      const label = between ? "with other writes between them" : "alone";
      it(`overwrites of a nested path, ${label}, keep the log at a length that does not grow`, async () => {
        const lengths: number[] = [];
        for (const rounds of [50, 500]) {
          const store = await openStore();
          for (let round = 0; round < rounds; round++) {
            await commitCallOk(store, {
              callId: `c${round}`,
              writes: [
                write(["latest", "msg"], { text: `m${round}`, n: round }),
                ...(between
                  ? [
                      write(["count"], round),
                      write(["latest", "other"], [round]),
                      write(["last"], `q${round}`),
                    ]
                  : []),
              ],
            });
          }
          await commitCallOk(store, { callId: "pad", writes: [write(["pad"], HUGE)] });
          const last = `c${rounds - 1}`;
          const state = {
            latest: {
              msg: { text: `m${rounds - 1}`, n: rounds - 1 },
              ...(between ? { other: [rounds - 1] } : {}),
            },
            ...(between ? { count: rounds - 1, last: `q${rounds - 1}` } : {}),
            pad: HUGE,
          };
          expect(await store.readState(THREAD)).toEqual(state);
          expect(await foldedLog(store)).toEqual(state);
          const log = await store.readWriteLog(THREAD);
          lengths.push(log.length);
          // the first write of each nested path stands in (it created `latest`); the live writes are whole
          const shown = log.map((entry) => [entry.write.reference, entry.call.id, entry.compacted ?? false]);
          expect(shown).toEqual([
            ["†state.latest.msg", "c0", true],
            ...(between ? [["†state.latest.other", "c0", true]] : []),
            ["†state.latest.msg", last, false],
            ...(between
              ? [
                  ["†state.count", last, false],
                  ["†state.latest.other", last, false],
                  ["†state.last", last, false],
                ]
              : []),
            ["†state.pad", "pad", false],
          ]);
          const live = log.filter((entry) => entry.compacted !== true);
          expect(live.find((entry) => entry.write.reference === "†state.latest.msg")?.write.value).toEqual(
            state.latest.msg,
          );
          expect(live[0]).toMatchObject({ call: { id: last, tool: "tool" }, runId: "run-1" });
          // the variables still name their last writer
          const writers = (await store.listVariables(THREAD)).map((meta) => [
            meta.reference,
            meta.writer.callId,
          ]);
          expect(writers).toContainEqual(["†state.latest.msg", last]);
          if (between) expect(writers).toContainEqual(["†state.latest.other", last]);
        }
        expect(lengths).toEqual(between ? [7, 7] : [3, 3]);
      });
    }

    /**
     * Soak review (stop 25): a thread alternating `set a.b` and `set a.b.c` kept every value of `a.b` (the
     * next `set a.b.c` walks into it), and a nested value written and evicted every run kept a stand-in and
     * a removal per run. Both now keep their first and last cycles, however many came between.
     */
    it("a path written alternately with a path below it keeps a log whose length does not grow", async () => {
      const lengths: number[] = [];
      for (const rounds of [50, 500]) {
        const store = await openStore();
        for (let round = 0; round < rounds; round++) {
          await commitCallOk(store, { callId: `b${round}`, writes: [write(["a", "b"], { n: round, c: 0 })] });
          await commitCallOk(store, { callId: `c${round}`, writes: [write(["a", "b", "c"], round)] });
        }
        await commitCallOk(store, { callId: "pad", writes: [write(["pad"], HUGE)] });
        const state = { a: { b: { n: rounds - 1, c: rounds - 1 } }, pad: HUGE };
        expect(await store.readState(THREAD)).toEqual(state);
        expect(await foldedLog(store)).toEqual(state);
        const log = await store.readWriteLog(THREAD);
        lengths.push(log.length);
        expect(log.map((entry) => [entry.write.reference, entry.call.id, entry.compacted ?? false])).toEqual([
          ["†state.a.b", "b0", false],
          ["†state.a.b.c", "c0", true],
          ["†state.a.b", `b${rounds - 1}`, false],
          ["†state.a.b.c", `c${rounds - 1}`, false],
          ["†state.pad", "pad", false],
        ]);
      }
      expect(lengths).toEqual([5, 5]);
    });

    const evictedEveryRun = {
      "beside a sibling that stays": (_round: number) => ["x", "y"],
      "a new key each run": (round: number) => ["x", `t${round}`],
      // its eviction also removes the parent `x.p` it made (decision record 0010)
      "with the parent it made": (_round: number) => ["x", "p", "y"],
    };
    for (const [label, pathOf] of Object.entries(evictedEveryRun)) {
      it(`a nested value written and evicted every run, ${label}, keeps a log whose length does not grow`, async () => {
        const lengths: number[] = [];
        for (const rounds of [50, 500]) {
          const store = await openStore();
          for (let round = 0; round < rounds; round++) {
            await commitCallOk(store, { callId: `y${round}`, writes: [write(pathOf(round), { n: round })] });
            await commitCallOk(store, { callId: `z${round}`, writes: [write(["x", "z"], round)] });
            await store.keepLastN(THREAD, 1);
          }
          await commitCallOk(store, { callId: "pad", writes: [write(["pad"], HUGE)] });
          const state = { x: { z: rounds - 1 }, pad: HUGE };
          expect(await store.readState(THREAD)).toEqual(state);
          expect(await foldedLog(store)).toEqual(state);
          lengths.push((await store.readWriteLog(THREAD)).length);
          // the last eviction still answers why the value is gone
          const reference = formatReference("state", pathOf(rounds - 1));
          expect(await store.getTombstone(THREAD, reference)).toMatchObject({ reason: "keepLastN" });
        }
        expect(lengths[1]).toBe(lengths[0]);
      });
    }

    it("reset leaves the reset alone in the log", async () => {
      const store = await openStore();
      await commitCallOk(store, { callId: "a", writes: [write(["a"], 1)] });
      await store.reset(THREAD);
      expect((await store.readWriteLog(THREAD)).map((entry) => entry.op ?? "write")).toEqual(["reset"]);
      await commitCallOk(store, { callId: "b", writes: [write(["b"], HUGE)] });
      await store.keepLastN(THREAD, 0);
      expect((await store.readWriteLog(THREAD)).map((entry) => entry.op ?? "write")).toEqual(["reset"]);
      expect(await foldedLog(store)).toEqual({});
    });
  });
}
