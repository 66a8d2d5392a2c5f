import { hostname } from "node:os";
import { threadId as currentThreadId } from "node:worker_threads";
import { asThreadId } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { THREAD } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";

/** This process, as a lock held by a store of this test names its holder. */
const HERE = { host: hostname(), pid: process.pid, workerThreadId: currentThreadId, sameProcess: true };

/** `lockHolder`: who holds a thread's lock, read without taking, refreshing or clearing it. */
export function lockHolderCases(openStore: OpenStore): void {
  describe("lockHolder", () => {
    it("answers undefined for a free thread, without taking its lock or creating the thread", async () => {
      const store = await openStore();
      expect(store.lockHolder).toBeTypeOf("function");
      expect(await store.lockHolder?.(THREAD)).toBeUndefined();
      expect(await store.getThread(THREAD)).toBeUndefined();
      // the lock was not taken: it is free for the next run
      const lock = await store.lockThread(THREAD);
      await lock.release();
    });

    it("names this process while a run of the store holds the lock, and nobody once it is released", async () => {
      const store = await openStore();
      const lock = await store.lockThread(THREAD);
      expect(await store.lockHolder?.(THREAD)).toMatchObject(HERE);
      // asking neither released nor refreshed it: the thread is still busy, and other threads are free
      await expect(store.lockThread(THREAD)).rejects.toMatchObject({ code: "THREAD_BUSY" });
      expect(await store.lockHolder?.(asThreadId("thread-2"))).toBeUndefined();
      await lock.release();
      expect(await store.lockHolder?.(THREAD)).toBeUndefined();
    });

    it("refuses a thread id that is not a string (USAGE) and a closed store (STORE_CLOSED)", async () => {
      const store = await openStore();
      for (const bad of [undefined, 7, { threadId: "t" }]) {
        expect(() => store.lockHolder?.(bad as never)).toThrow(expect.objectContaining({ code: "USAGE" }));
      }
      await store.close();
      expect(() => store.lockHolder?.(THREAD)).toThrow(expect.objectContaining({ code: "STORE_CLOSED" }));
    });
  });
}
