import { asThreadId } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { commitOf, write } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";

/** Thread ids cut in the middle of an emoji: a high half alone, a low half alone, two high halves. */
const CUT = [asThreadId("user-\uD83D"), asThreadId("\uDE00-user"), asThreadId("a\uD83D\uD83Db")];
/** A thread id with a whole emoji (a surrogate pair). */
const WHOLE = asThreadId("user-\uD83D\uDE00");

/**
 * Thread ids that are not well-formed UTF-16 (decision 0093): USAGE on every backend, so none keeps one
 * (SQLite would list it under another id that finds nothing); a whole emoji is kept as given.
 */
export function threadIdCases(openStore: OpenStore): void {
  describe("thread ids", () => {
    it.each(CUT)("refuses %j (a lone surrogate) with USAGE and creates no thread", async (threadId) => {
      const store = await openStore();
      const refused = expect.objectContaining({
        code: "USAGE",
        data: expect.objectContaining({ index: expect.any(Number) }),
      });
      const attempt = (action: () => unknown) => Promise.resolve().then(action);
      await expect(attempt(() => store.lockThread(threadId))).rejects.toEqual(refused);
      await expect(attempt(() => store.openThread(threadId))).rejects.toEqual(refused);
      const commit = commitOf({ callId: "c", threadId, writes: [write(["a"], 1)] });
      await expect(attempt(() => store.commitCall(commit))).rejects.toEqual(refused);
      expect(await store.getThread(threadId)).toBeUndefined();
      expect(await store.listThreads?.()).toEqual([]);
    });

    it("keeps a thread id with a whole emoji as it was given", async () => {
      const store = await openStore();
      const lock = await store.lockThread(WHOLE);
      await store.commitCall(commitOf({ callId: "c", threadId: WHOLE, writes: [write(["a"], 1)] }));
      await lock.release();
      expect((await store.listThreads?.())?.map((thread) => thread.threadId)).toEqual([WHOLE]);
      expect(await store.readState(WHOLE)).toEqual({ a: 1 });
    });
  });
}
