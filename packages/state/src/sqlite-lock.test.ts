import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commitOf, commitOk, manualClock, THREAD, write } from "./conformance/commit-fixtures.js";
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
  // no heartbeat during the test: the clocks alone decide staleness
  const lock = { heartbeatMs: 3_600_000, ...options.lock };
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
