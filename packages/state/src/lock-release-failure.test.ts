import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { commitOk, runRecord, THREAD, write } from "./conformance/commit-fixtures.js";
import { createMemoryStore } from "./memory-store.js";
import { createSqliteStore } from "./sqlite-store.js";
import type { StateStore } from "./store-types.js";

const dir = mkdtempSync(join(tmpdir(), "obelisk-release-"));
let counter = 0;
const stores: StateStore[] = [];
afterAll(async () => {
  for (const store of stores) await store.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

/** A memory store whose cross-process release part throws `failures` times (the shared logic of both stores). */
function failingRelease(failures: number) {
  const store = createMemoryStore();
  stores.push(store);
  let calls = 0;
  (store as unknown as { releaseExternal: () => void }).releaseExternal = () => {
    calls++;
    if (calls <= failures) throw new Error("external release failed");
  };
  return { store, calls: () => calls };
}

describe("a failed release of the cross-process lock part frees the thread in this process (decision 0093)", () => {
  it("throws the failure, yet the thread can be locked again at once", async () => {
    const { store } = failingRelease(1);
    const lock = await store.lockThread(THREAD);
    await expect(Promise.resolve().then(() => lock.release())).rejects.toThrow("external release failed");
    expect(await store.lockHolder?.(THREAD)).toBeUndefined();
    const again = await store.lockThread(THREAD);
    await commitOk(store, { callId: "after", writes: [write(["a"], 1)] });
    await again.release();
  });

  it("hands the lock to a waiter despite the failure", async () => {
    const { store } = failingRelease(1);
    const lock = await store.lockThread(THREAD);
    const waiter = store.lockThread(THREAD, { waitMs: 5_000 });
    expect(() => lock.release()).toThrow("external release failed");
    await (await waiter).release();
  });

  it("a retried release tries the cross-process part again, then does nothing", async () => {
    const { store, calls } = failingRelease(1);
    const lock = await store.lockThread(THREAD);
    expect(() => lock.release()).toThrow("external release failed");
    await lock.release();
    expect(calls()).toBe(2);
    await lock.release();
    expect(calls()).toBe(2);
  });

  it("a retried release leaves the part of a lock taken again meanwhile to its holder", async () => {
    const { store, calls } = failingRelease(1);
    const lock = await store.lockThread(THREAD);
    expect(() => lock.release()).toThrow("external release failed");
    const again = await store.lockThread(THREAD);
    await lock.release();
    expect(calls()).toBe(1);
    await again.release();
    expect(calls()).toBe(2);
  });

  it("marks the run left `running` interrupted when the thread is locked again", async () => {
    const { store } = failingRelease(1);
    const lock = await store.lockThread(THREAD);
    await store.createRun(runRecord());
    expect(() => lock.release()).toThrow("external release failed");
    await (await store.lockThread(THREAD)).release();
    expect(await store.getRun(runRecord().runId)).toMatchObject({ status: "interrupted" });
  });
});

describe("sqlite: a release while another program write-locks the file (decision 0093)", () => {
  /** A store that gives up on a write-locked file after 1 ms, and another connection to write-lock it. */
  function blockedFile() {
    const file = join(dir, `store-${++counter}.db`);
    const store = createSqliteStore(file, { busyTimeoutMs: 1 });
    stores.push(store);
    const other = new Database(file);
    const rows = () => other.prepare("SELECT thread_id FROM locks").all();
    return { file, store, other, rows };
  }

  it("throws STORE_ERROR, frees the thread here, and a retried release deletes the row", async () => {
    const { store, other, rows } = blockedFile();
    const lock = await store.lockThread(THREAD);
    await store.createRun(runRecord());
    other.exec("BEGIN IMMEDIATE");
    expect(() => lock.release()).toThrow(expect.objectContaining({ code: "STORE_ERROR" }));
    other.exec("ROLLBACK");
    // the row is left, but no store of this thread counts it held: nobody waits for it here
    expect(rows()).toHaveLength(1);
    expect(await store.lockHolder?.(THREAD)).toBeUndefined();
    await lock.release();
    expect(rows()).toHaveLength(0);
    const again = await store.lockThread(THREAD);
    expect(await store.getRun(runRecord().runId)).toMatchObject({ status: "interrupted" });
    await commitOk(store, { callId: "after", writes: [write(["a"], 1)] });
    await again.release();
    other.close();
  });

  it("another store of this process takes the left row over at once; the store deletes it at close", async () => {
    const { file, store, other, rows } = blockedFile();
    const lock = await store.lockThread(THREAD);
    other.exec("BEGIN IMMEDIATE");
    expect(() => lock.release()).toThrow(expect.objectContaining({ code: "STORE_ERROR" }));
    other.exec("ROLLBACK");
    const second = createSqliteStore(file);
    stores.push(second);
    await (await second.lockThread(THREAD)).release();
    await second.close();
    const third = await store.lockThread(THREAD);
    other.exec("BEGIN IMMEDIATE");
    expect(() => third.release()).toThrow(expect.objectContaining({ code: "STORE_ERROR" }));
    other.exec("ROLLBACK");
    expect(rows()).toHaveLength(1);
    await store.close();
    expect(rows()).toHaveLength(0);
    other.close();
  });
});
