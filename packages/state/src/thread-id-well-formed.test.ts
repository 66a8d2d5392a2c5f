import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asThreadId } from "@obelisk/core";
import { afterAll, describe, expect, it } from "vitest";
import { commitOf, write } from "./conformance/commit-fixtures.js";
import { createMemoryStore } from "./memory-store.js";
import { createSqliteStore } from "./sqlite-store.js";
import type { StateStore } from "./store-types.js";

const dir = mkdtempSync(join(tmpdir(), "obelisk-thread-id-"));
let counter = 0;
const stores: StateStore[] = [];
afterAll(async () => {
  for (const store of stores) await store.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

const backends: Record<string, () => StateStore> = {
  memory: () => createMemoryStore(),
  sqlite: () => createSqliteStore(join(dir, `store-${++counter}.db`)),
};

/** A thread id cut in the middle of an emoji (its high surrogate only), and one of its low half only. */
const CUT = [asThreadId("user-\uD83D"), asThreadId("\uDE00-user"), asThreadId("a\uD83D\uD83Db")];
const WHOLE = asThreadId("user-\uD83D\uDE00");

describe.each(Object.keys(backends))(
  "%s: a thread id that is not well-formed UTF-16 (decision 0093)",
  (name) => {
    const open = (): StateStore => {
      const store = (backends[name] as () => StateStore)();
      stores.push(store);
      return store;
    };

    it.each(CUT)("refuses %j with USAGE and creates no thread", async (threadId) => {
      const store = open();
      const refused = expect.objectContaining({
        code: "USAGE",
        data: expect.objectContaining({ index: expect.any(Number) }),
      });
      await expect(Promise.resolve().then(() => store.lockThread(threadId))).rejects.toEqual(refused);
      await expect(Promise.resolve().then(() => store.openThread(threadId))).rejects.toEqual(refused);
      await expect(
        Promise.resolve().then(() =>
          store.commitCall(commitOf({ callId: "c", threadId, writes: [write(["a"], 1)] })),
        ),
      ).rejects.toEqual(refused);
      expect(await store.listThreads?.()).toEqual([]);
    });

    it("keeps a whole emoji in a thread id as it was given", async () => {
      const store = open();
      const lock = await store.lockThread(WHOLE);
      await store.commitCall(commitOf({ callId: "c", threadId: WHOLE, writes: [write(["a"], 1)] }));
      await lock.release();
      expect((await store.listThreads?.())?.map((thread) => thread.threadId)).toEqual([WHOLE]);
    });
  },
);
