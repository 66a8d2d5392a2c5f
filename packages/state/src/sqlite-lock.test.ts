import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it, vi } from "vitest";
import {
  commitOf,
  commitOk,
  manualClock,
  RUN,
  runRecord,
  THREAD,
  write,
} from "./conformance/commit-fixtures.js";
import { createSqliteStore, type SqliteStoreOptions } from "./sqlite-store.js";
import type { StateStore } from "./store-types.js";

const dir = mkdtempSync(join(tmpdir(), "obelisk-lock-"));
let counter = 0;
const stores: StateStore[] = [];
afterAll(async () => {
  for (const store of stores) await store.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

/** Two connections on one file (two processes in production), each with its own manual clock. */
function twoConnections(options: SqliteStoreOptions = {}) {
  const file = join(dir, `store-${++counter}.db`);
  // no heartbeat during the test (a beat would write the manual clock's time anyway): the clocks alone
  // decide staleness; the heartbeat stays under the default staleMs, as the store requires
  const lock = { heartbeatMs: 29_000, ...options.lock };
  const clockA = manualClock();
  const clockB = manualClock();
  const a = createSqliteStore(file, { ...options, now: clockA.now, lock });
  const b = createSqliteStore(file, { ...options, now: clockB.now, lock });
  stores.push(a, b);
  return { a, b, clockB };
}

describe("sqlite: a lock taken over as stale never loses an update (M1)", () => {
  it("refuses the commit of a live owner whose lock was taken over, with THREAD_BUSY", async () => {
    const { a, b, clockB } = twoConnections();
    await commitOk(a, { callId: "init", writes: [write(["n"], 0)] });
    const lockA = await a.lockThread(THREAD);
    // a reads n = 0, then its event loop blocks for longer than staleMs: b takes the lock over
    expect(a.readState(THREAD)).toEqual({ n: 0 });
    await expect(b.lockThread(THREAD)).rejects.toMatchObject({ code: "THREAD_BUSY" });
    clockB.advance(30_001);
    const lockB = await b.lockThread(THREAD);
    await commitOk(b, { callId: "incB", writes: [write(["n"], 1)] });
    // a wakes up and commits its increment computed from n = 0
    expect(() => a.commitCall(commitOf({ callId: "incA", writes: [write(["n"], 1)] }))).toThrow(
      expect.objectContaining({ code: "THREAD_BUSY" }),
    );
    expect(() => a.commitCalls?.([commitOf({ callId: "incA2", writes: [write(["m"], 1)] })])).toThrow(
      expect.objectContaining({ code: "THREAD_BUSY" }),
    );
    await expect(a.keepLastN(THREAD, 0)).rejects.toMatchObject({ code: "THREAD_BUSY" });
    // a's release leaves b's lock alone
    await lockA.release();
    await expect(a.lockThread(THREAD)).rejects.toMatchObject({ code: "THREAD_BUSY" });
    await commitOk(b, { callId: "incB2", writes: [write(["n"], 2)] });
    await lockB.release();
    expect(a.readState(THREAD)).toEqual({ n: 2 });
    expect((await b.readWriteLog(THREAD)).map((entry) => entry.call?.id)).toEqual(["init", "incB", "incB2"]);
  });

  it("a store whose lock was taken over leaves the run record as the taker and a cancel made it", async () => {
    const { a, b, clockB } = twoConnections();
    await a.lockThread(THREAD);
    await a.createRun(runRecord());
    clockB.advance(30_001);
    const lockB = await b.lockThread(THREAD);
    expect(await b.getRun(RUN)).toMatchObject({ status: "interrupted" });
    await b.finishRun(RUN, "cancelled", new Date(clockB.now()).toISOString());
    await lockB.release();
    // a wakes up, its commits refused, and ends its run failed: the record stays cancelled
    await a.finishRun(RUN, "failed", new Date().toISOString());
    expect(await b.getRun(RUN)).toMatchObject({ status: "cancelled" });
  });

  it("refuses a commit after the taker released the lock too (the row is gone, not this store's)", async () => {
    const { a, b, clockB } = twoConnections();
    await a.lockThread(THREAD);
    clockB.advance(30_001);
    const lockB = await b.lockThread(THREAD);
    await lockB.release();
    expect(() => a.commitCall(commitOf({ callId: "late", writes: [write(["x"], 1)] }))).toThrow(
      expect.objectContaining({ code: "THREAD_BUSY" }),
    );
    expect(b.readState(THREAD)).toEqual({});
  });

  it("still commits without a lock, and under a lock it holds", async () => {
    const { a, b } = twoConnections();
    await commitOk(a, { callId: "free", writes: [write(["x"], 1)] });
    const lock = await b.lockThread(THREAD);
    await commitOk(b, { callId: "held", writes: [write(["y"], 1)] });
    await lock.release();
    expect(a.readState(THREAD)).toEqual({ x: 1, y: 1 });
  });
});

describe("sqlite: the lock heartbeat", () => {
  it("skips a beat while another program write-locks the file, instead of throwing out of its timer", async () => {
    const file = join(dir, `store-${++counter}.db`);
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      const clock = manualClock();
      const store = createSqliteStore(file, { now: clock.now, busyTimeoutMs: 1, lock: { heartbeatMs: 10 } });
      stores.push(store);
      const lock = await store.lockThread(THREAD);
      const other = new Database(file);
      const heartbeat = () =>
        (
          other.prepare("SELECT heartbeat_ms FROM locks WHERE thread_id = ?").get(THREAD) as {
            heartbeat_ms: number;
          }
        ).heartbeat_ms;
      const before = heartbeat();
      other.exec("BEGIN IMMEDIATE");
      clock.advance(1_000);
      expect(() => vi.advanceTimersByTime(25)).not.toThrow();
      other.exec("ROLLBACK");
      expect(heartbeat()).toBe(before);
      // the next beat after the file is free again goes through
      clock.advance(1_000);
      vi.advanceTimersByTime(10);
      expect(heartbeat()).toBe(before + 2_000);
      other.close();
      await lock.release();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("sqlite: expiry on read waits while a run of another connection holds the thread", () => {
  it("keeps an expired call output while the other store's lock is live, and expires it once released", async () => {
    const { a, b, clockB } = twoConnections({ retention: { maxCallOutputAgeMs: 1_000 } });
    const lockA = await a.lockThread(THREAD);
    await commitOk(a, { callId: "c1", writes: [], output: { big: 1 } });
    clockB.advance(5_000);
    // b's clock says the output expired, but a's run holds the thread (its heartbeat is fresh for b's staleMs)
    expect(await b.getCallOutput(THREAD, "c1")).toEqual({ value: { big: 1 } });
    expect(await b.expireStale(THREAD)).toBe(0);
    expect(await a.getCallOutput(THREAD, "c1")).toEqual({ value: { big: 1 } });
    await lockA.release();
    expect(await b.getCallOutput(THREAD, "c1")).toMatchObject({ reason: "maxCallOutputAgeMs" });
  });
});
