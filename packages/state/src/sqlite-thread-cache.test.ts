import type { ThreadId } from "@obelisk/core";
import { asRunId, asThreadId, ObeliskError } from "@obelisk/core";
import { afterAll, describe, expect, it } from "vitest";
import { sqliteTempFiles } from "./__fixtures__/sqlite-store-files.js";
import { commitOf, commitOk, manualClock, runRecord, write } from "./conformance/commit-fixtures.js";
import { createMemoryStore } from "./memory-store.js";
import { createSqliteStore } from "./sqlite-store.js";
import type { StateStore } from "./store-types.js";
import { getValue } from "./variables/get-value.js";
import { setValue } from "./variables/set-value.js";

const { freshFile, open, closeAll } = sqliteTempFiles("obelisk-thread-cache-");
afterAll(closeAll);

const HOUR = 60 * 60 * 1000;
const thread = (i: number): ThreadId => asThreadId(`t${i}`);

/**
 * The threads whose models the store holds in memory (internal: the cache this bounds; the public
 * `StateStore` has no such count). Read, never changed, so measuring does not move the cache's order.
 */
function cachedThreads(store: StateStore): string[] {
  return [...(store as unknown as { models: Map<string, unknown> }).models.keys()];
}

/** Everything a thread shows through the store API, to compare a bounded store with an unbounded one. */
async function threadView(store: StateStore, threadId: ThreadId) {
  const info = await store.getThread(threadId);
  const outputs = await store.listCallOutputIds(threadId);
  return {
    info,
    state: await store.readState(threadId),
    variables: await store.listVariables(threadId),
    outputs,
    outputValues: await Promise.all(outputs.map((id) => store.getCallOutput(threadId, id))),
    tombstone: await store.getTombstone(threadId, "†state.gone"),
    log: await store.readWriteLog(threadId),
    records: await store.listCallRecords(asRunId(`run-${threadId}`)),
    next: await store.nextCallNumber?.(threadId),
  };
}

/** The same work on any store: 30 threads, interleaved, so a bounded store drops and reloads each often. */
async function workload(store: StateStore, threads: number): Promise<void> {
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < threads; i++) {
      const threadId = thread(i);
      const runId = asRunId(`run-${threadId}`);
      if (round === 0) {
        // a schema on a few threads only: a reload compiles it again (~17 ms here)
        if (i % 10 === 0)
          await store.openThread(threadId, {
            stateSchema: { type: "object", properties: { count: { type: "number" } } },
          });
        await commitOk(store, { callId: "gone", threadId, runId, writes: [write(["gone"], "x")] });
        await store.keepLastN(threadId, 0); // evicts †state.gone: a tombstone
      }
      await commitOk(store, {
        callId: `c${round}`,
        threadId,
        runId,
        writes: [write(["count"], round * 100 + i), write(["items"], round, "push")],
        output: { round, i },
        callHash: `h${round}-${i}`,
      });
      if (round === 1) await setValue(store, threadId, "†state.note", `note ${i}`);
      await store.reserveCallNumbers(threadId, 1);
      await store.readState(thread((i * 7) % threads)); // reads touch the cache too
    }
  }
}

describe("sqlite: the cached thread models are bounded (cachedThreads)", () => {
  it("keeps at most cachedThreads idle models, however many threads are committed or read", async () => {
    const file = freshFile();
    const store = open(file, { cachedThreads: 10 });
    for (let i = 0; i < 100; i++) {
      await commitOk(store, { callId: "a", threadId: thread(i), writes: [write(["n"], i)] });
      expect(cachedThreads(store).length).toBeLessThanOrEqual(10);
    }
    // the least recently used go: the last ten threads stay
    expect(cachedThreads(store)).toEqual(Array.from({ length: 10 }, (_, k) => `t${90 + k}`));
    // a read-only use fills the cache too, and is bounded the same way (another store on the file)
    const reader = open(file, { cachedThreads: 10 });
    for (let i = 0; i < 100; i++) {
      expect(await reader.readState(thread(i))).toEqual({ n: i });
      expect(await reader.listVariables(thread(i))).toHaveLength(1);
      expect(cachedThreads(reader).length).toBeLessThanOrEqual(10);
    }
    // a use moves a thread to the end: t90 (used again, last) stays while nine other threads come in
    for (let i = 91; i < 100; i++) await store.readState(thread(i));
    const kept = await store.readState(thread(90));
    for (let i = 0; i < 9; i++) await store.readState(thread(i));
    expect(cachedThreads(store)).toContain("t90");
    expect(await store.readState(thread(90))).toBe(kept); // not reloaded: the same snapshot
    // ten more threads: t90 goes with the others; its next use reloads it from the file
    for (let i = 40; i < 50; i++) await store.readState(thread(i));
    expect(cachedThreads(store)).not.toContain("t90");
    const reloaded = await store.readState(thread(90));
    expect(reloaded).not.toBe(kept);
    expect(reloaded).toEqual({ n: 90 });
  });

  it("defaults to 1,000 idle models; Infinity keeps every one (as before)", async () => {
    const bounded = open(freshFile());
    const unbounded = open(freshFile(), { cachedThreads: Number.POSITIVE_INFINITY });
    for (let i = 0; i < 1005; i++) {
      await commitOk(bounded, { callId: "a", threadId: thread(i), writes: [write(["n"], i)] });
      await commitOk(unbounded, { callId: "a", threadId: thread(i), writes: [write(["n"], i)] });
    }
    expect(cachedThreads(bounded)).toHaveLength(1000);
    expect(cachedThreads(unbounded)).toHaveLength(1005);
    expect(await bounded.readState(thread(0))).toEqual({ n: 0 });
  });

  it("a dropped thread's state, variables, records, tombstones, schema and later commits are intact", async () => {
    const clock = manualClock();
    const bounded = open(freshFile(), { cachedThreads: 3, now: clock.now });
    const reference = open(freshFile(), { now: clock.now });
    await workload(bounded, 30);
    await workload(reference, 30);
    expect(cachedThreads(bounded).length).toBeLessThanOrEqual(3);
    expect(cachedThreads(reference)).toHaveLength(30);
    for (let i = 0; i < 30; i++) {
      const view = await threadView(bounded, thread(i));
      expect(view).toEqual(await threadView(reference, thread(i)));
      expect(view.state).toMatchObject({ count: 200 + i, items: [0, 1, 2], note: `note ${i}` });
      expect(view.tombstone).toMatchObject({ reference: "†state.gone" });
      expect(view.records).toHaveLength(4);
    }
    // the schema came back with the reloaded model: a write against it is still refused
    expect(cachedThreads(bounded)).not.toContain("t0");
    const refused = await bounded.commitCall(
      commitOf({ callId: "bad", threadId: thread(0), writes: [write(["count"], "many")] }),
    );
    expect(refused.ok).toBe(false);
    // a satisfied check still finds the records of a dropped thread
    expect(await bounded.findCompletedCall(thread(1), "h2-1")).toMatchObject({ callId: "c2" });
    // later commits after a reload, on both stores: still the same
    for (let i = 0; i < 30; i++)
      for (const store of [bounded, reference])
        await commitOk(store, {
          callId: "later",
          threadId: thread(i),
          runId: asRunId(`run-${thread(i)}`),
          writes: [write(["items"], "later", "push")],
        });
    for (let i = 0; i < 30; i++)
      expect(await threadView(bounded, thread(i))).toEqual(await threadView(reference, thread(i)));
    expect(await getValue(bounded, thread(0), "†state.items")).toEqual({
      found: true,
      value: [0, 1, 2, "later"],
    });
  });

  it("never drops the model of a thread a run of this store holds, while other threads churn the cache", async () => {
    for (const bound of [2, 0]) {
      const store = open(freshFile(), { cachedThreads: bound });
      const held = asThreadId("held");
      const runId = asRunId(`run-held-${bound}`);
      const lock = await store.lockThread(held);
      await store.createRun(runRecord({ runId, threadId: held }));
      await commitOk(store, { callId: "c0", threadId: held, runId, writes: [write(["step"], 0)] });
      const snapshot = await store.readState(held);
      for (let step = 1; step <= 5; step++) {
        // other threads come and go between the run's commits (as other conversations would)
        for (let i = 0; i < 20; i++) {
          await commitOk(store, { callId: `x${step}`, threadId: thread(i), writes: [write(["n"], step)] });
          await store.readState(thread((i * 3) % 20));
          expect(cachedThreads(store)).toContain("held");
          expect(cachedThreads(store).length).toBeLessThanOrEqual(bound + 1);
        }
        if (step === 1) expect(await store.readState(held)).toBe(snapshot); // the very same model
        await commitOk(store, { callId: `c${step}`, threadId: held, runId, writes: [write(["step"], step)] });
      }
      await store.finishRun(runId, "succeeded", new Date().toISOString());
      expect(cachedThreads(store)).toContain("held");
      await lock.release();
      // idle now: the bound counts it
      expect(cachedThreads(store).length).toBeLessThanOrEqual(bound);
      expect(await store.readState(held)).toEqual({ step: 5 });
      expect((await store.listCallRecords(runId)).map((r) => r.callId)).toEqual([
        "c0",
        "c1",
        "c2",
        "c3",
        "c4",
        "c5",
      ]);
    }
  });

  it("cachedThreads: 0 keeps no idle model, and every use reloads the thread correctly", async () => {
    const store = open(freshFile(), { cachedThreads: 0 });
    for (let round = 0; round < 3; round++)
      for (let i = 0; i < 20; i++) {
        await commitOk(store, {
          callId: `c${round}`,
          threadId: thread(i),
          writes: [write(["items"], round, "push")],
          output: { round },
        });
        expect(cachedThreads(store)).toEqual([]);
      }
    for (let i = 0; i < 20; i++) {
      expect(await store.readState(thread(i))).toEqual({ items: [0, 1, 2] });
      expect(await store.listCallOutputIds(thread(i))).toEqual(["c0", "c1", "c2"]);
      expect(await store.getCallOutput(thread(i), "c1")).toEqual({ value: { round: 1 } });
    }
    await store.keepLastN(thread(0), 0);
    expect(await store.readState(thread(0))).toEqual({});
    expect(cachedThreads(store)).toEqual([]);
  });

  it("a read-only store keeps the model expiry on read changed last, even with cachedThreads: 0", async () => {
    const clock = manualClock();
    const file = freshFile();
    const writer = createSqliteStore(file, { now: clock.now });
    for (let i = 0; i < 5; i++) await commitOk(writer, { callId: "out", threadId: thread(i), output: { i } });
    await writer.close();
    clock.advance(2 * HOUR);
    const readonly = open(file, { readonly: true, now: clock.now, cachedThreads: 0 });
    expect(await readonly.getCallOutput(thread(0), "out")).toMatchObject({ reason: "maxCallOutputAgeMs" });
    for (let i = 1; i < 5; i++) await readonly.readState(thread(i));
    expect(cachedThreads(readonly)).toEqual(["t0"]);
    // what it shows stays expired: a reload from the file would bring the output back
    expect(await readonly.listCallOutputIds(thread(0))).toEqual([]);
    expect(await readonly.listCallOutputIds(thread(1))).toEqual(["out"]);
    // another thread expired: t0's model goes (the file holds it), and its next read expires it again
    expect(await readonly.getCallOutput(thread(1), "out")).toMatchObject({ reason: "maxCallOutputAgeMs" });
    expect(cachedThreads(readonly)).toEqual(["t1"]);
    expect(await readonly.getCallOutput(thread(0), "out")).toMatchObject({ reason: "maxCallOutputAgeMs" });
    expect(await readonly.getTombstone(thread(0), "†calls.out")).toMatchObject({
      reason: "maxCallOutputAgeMs",
    });
  });

  it("a long-lived read-only reader keeps at most cachedThreads models that expiry changed, and reads the same", async () => {
    // soak review: every thread a read-only store expired stayed in memory with its tombstones for good
    const clock = manualClock();
    const file = freshFile();
    const writer = createSqliteStore(file, { now: clock.now });
    for (let i = 0; i < 30; i++)
      await commitOk(writer, {
        callId: "old",
        threadId: thread(i),
        writes: [write(["old"], i)],
        output: { i },
      });
    clock.advance(HOUR + HOUR / 2);
    for (let i = 0; i < 30; i += 3)
      await commitOk(writer, { callId: "fresh", threadId: thread(i), writes: [write(["fresh"], i)] });
    await writer.close();
    clock.advance(HOUR / 2); // "old" and its output are past the age limits, "fresh" is not
    const retention = { maxAgeMs: HOUR };
    const bounded = open(file, { readonly: true, now: clock.now, retention, cachedThreads: 3 });
    const unbounded = open(file, { readonly: true, now: clock.now, retention });
    /** What reading a thread's values answers (a value, or the code and reason of the refusal). */
    const answers = async (store: StateStore, threadId: ThreadId) => {
      const shown = [];
      for (const reference of ["†state.old", "†state.fresh", "†calls.old"])
        shown.push(
          await getValue(store, threadId, reference).catch((error: ObeliskError) => ({
            code: error.code,
            reason: (error.data as { reason?: string }).reason,
          })),
        );
      return {
        shown,
        state: await store.readState(threadId),
        tombstone: await store.getTombstone(threadId, "†state.old"),
      };
    };
    for (let pass = 0; pass < 2; pass++)
      for (let i = 0; i < 30; i++) {
        const expected = await answers(unbounded, thread(i));
        expect(expected.shown[0]).toEqual({ code: "REF_EVICTED", reason: "maxAgeMs" });
        expect(expected.shown[2]).toEqual({ code: "REF_EVICTED", reason: "maxCallOutputAgeMs" });
        expect(expected.state).toEqual(i % 3 === 0 ? { fresh: i } : {});
        const seen = await answers(bounded, thread(i));
        // a thread read again after its model was dropped expired again: its tombstones are newer
        expect({ ...seen, tombstone: seen.tombstone?.reason }).toEqual({
          ...expected,
          tombstone: expected.tombstone?.reason,
        });
        // three idle models, and the one expiry changed last
        expect(cachedThreads(bounded).length).toBeLessThanOrEqual(4);
      }
    expect(cachedThreads(unbounded)).toHaveLength(30);
  });

  it("refuses a cachedThreads that is not a whole number >= 0 or Infinity with USAGE", () => {
    for (const bad of [-1, Number.NaN, 1.5, Number.NEGATIVE_INFINITY, "10", null]) {
      let error: unknown;
      try {
        createSqliteStore(":memory:", { cachedThreads: bad as number });
      } catch (thrown) {
        error = thrown;
      }
      expect(ObeliskError.is(error), String(bad)).toBe(true);
      expect(error).toMatchObject({ code: "USAGE", data: { cachedThreads: String(bad) } });
    }
  });
});

describe("memory store: its models are its data, never dropped", () => {
  it("keeps every thread (more than the SQLite default bound)", async () => {
    const store = createMemoryStore();
    for (let i = 0; i < 1100; i++)
      await commitOk(store, { callId: "a", threadId: thread(i), writes: [write(["n"], i)] });
    expect((await store.stats()).threads).toBe(1100);
    for (let i = 0; i < 1100; i += 97) expect(await store.readState(thread(i))).toEqual({ n: i });
  });
});
