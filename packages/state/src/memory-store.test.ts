import { hostname } from "node:os";
import { threadId as currentThreadId } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { THREAD } from "./conformance/commit-fixtures.js";
import { describeStoreConformance } from "./conformance/index.js";
import { createMemoryStore } from "./memory-store.js";

describeStoreConformance("memory", (options) => createMemoryStore(options));

describe("memory: lockHolder", () => {
  it("names this thread of this process while a run of the store holds the lock, without heartbeat fields", async () => {
    const store = createMemoryStore();
    const lock = await store.lockThread(THREAD);
    expect(await store.lockHolder?.(THREAD)).toEqual({
      host: hostname(),
      pid: process.pid,
      workerThreadId: currentThreadId,
      sameProcess: true,
    });
    // another memory store of this process holds nothing: each has its own locks
    expect(await createMemoryStore().lockHolder?.(THREAD)).toBeUndefined();
    await lock.release();
    expect(await store.lockHolder?.(THREAD)).toBeUndefined();
  });
});
