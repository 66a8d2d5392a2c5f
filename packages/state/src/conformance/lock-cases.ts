import { afterEach, describe, expect, it, vi } from "vitest";
import type { StateStore } from "../store-types.js";
import { commitOk, THREAD, write } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";

/** One "run": lock, read, commit a push, release. */
async function appendUnderLock(store: StateStore, callId: string, value: number): Promise<void> {
  const lock = await store.lockThread(THREAD, { waitMs: 60_000 });
  try {
    await commitOk(store, { callId, writes: [write(["log"], value, "push")] });
  } finally {
    await lock.release();
  }
}

/** Per-thread exclusive locks and lost updates. */
export function lockCases(openStore: OpenStore): void {
  describe("locks", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it("refuses a second locker at once with THREAD_BUSY", async () => {
      const store = await openStore();
      const lock = await store.lockThread(THREAD);
      await expect(store.lockThread(THREAD)).rejects.toMatchObject({ code: "THREAD_BUSY" });
      await lock.release();
      const again = await store.lockThread(THREAD);
      await again.release();
      await again.release();
    });

    it("lets a waiting locker in when the holder releases", async () => {
      const store = await openStore();
      const first = await store.lockThread(THREAD);
      let acquired = false;
      const second = store.lockThread(THREAD, { waitMs: 60_000 }).then((lock) => {
        acquired = true;
        return lock;
      });
      await Promise.resolve();
      expect(acquired).toBe(false);
      await first.release();
      const lock = await second;
      expect(acquired).toBe(true);
      await lock.release();
    });

    it("gives up with THREAD_BUSY when the wait time passes (fake timers)", async () => {
      const store = await openStore();
      vi.useFakeTimers();
      const first = await store.lockThread(THREAD);
      const second = store.lockThread(THREAD, { waitMs: 500 });
      const outcome = expect(second).rejects.toMatchObject({ code: "THREAD_BUSY" });
      await vi.advanceTimersByTimeAsync(500);
      await outcome;
      await first.release();
    });

    it("close() ends every wait for a lock: STORE_CLOSED with a hint, no lock handed over (s33 review)", async () => {
      const store = await openStore();
      const holder = await store.lockThread(THREAD);
      const waiting = store.lockThread(THREAD, { waitMs: 60_000 });
      const outcome = expect(waiting).rejects.toMatchObject({
        name: "ObeliskError",
        code: "STORE_CLOSED",
        hint: expect.stringContaining("closed"),
        data: { threadId: THREAD },
      });
      await store.close();
      await outcome;
      await holder.release();
    });

    it("a waiter handed the lock as close() begins gets STORE_CLOSED, not the lock", async () => {
      const store = await openStore();
      const holder = await store.lockThread(THREAD);
      const waiting = store.lockThread(THREAD, { waitMs: 60_000 });
      const outcome = expect(waiting).rejects.toMatchObject({
        code: "STORE_CLOSED",
        data: { threadId: THREAD },
      });
      // no await between: the lock is handed to the waiter, then the store closes before the waiter goes on
      const released = holder.release();
      const closed = store.close();
      await released;
      await closed;
      await outcome;
    });

    it("does not block other threads", async () => {
      const store = await openStore();
      const lock = await store.lockThread(THREAD);
      const other = await store.lockThread("thread-2" as typeof THREAD);
      await other.release();
      await lock.release();
    });

    it("never loses an update between concurrent runs on one thread", async () => {
      const store = await openStore();
      await Promise.all(Array.from({ length: 20 }, (_, index) => appendUnderLock(store, `c${index}`, index)));
      const state = (await store.readState(THREAD)) as { log: number[] };
      expect([...state.log].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => index));
    });

    it("never loses an update between interleaved writers without a lock (commits fold onto the current state)", async () => {
      const store = await openStore();
      const before = await store.readState(THREAD);
      await commitOk(store, { callId: "a", writes: [write(["n"], { a: 1 }, "merge")] });
      await commitOk(store, { callId: "b", writes: [write(["n"], { b: 2 }, "merge")] });
      expect(before).toEqual({});
      expect(await store.readState(THREAD)).toEqual({ n: { a: 1, b: 2 } });
    });
  });
}
