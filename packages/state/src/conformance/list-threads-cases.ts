import { asThreadId } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { setValue } from "../variables/set-value.js";
import { manualClock, THREAD, write } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";
import { commitCallOk } from "./growth-fixtures.js";

const SCHEMA = { type: "object" };

/** `listThreads` (the s32 user review, L10): every thread the store holds, by id, on every backend. */
export function listThreadsCases(openStore: OpenStore): void {
  describe("listThreads", () => {
    it("an empty store holds no thread", async () => {
      const store = await openStore();
      expect(await store.listThreads?.()).toEqual([]);
    });

    it("lists threads opened, written by a call and by a host's edit, by id, with creation time and schema", async () => {
      const clock = manualClock(Date.UTC(2025, 0, 1));
      const store = await openStore({ now: clock.now });
      await commitCallOk(store, { callId: "w", writes: [write(["a"], 1)] });
      clock.advance(1000);
      await setValue(store, asThreadId("b-edited"), "†state.x", 1);
      clock.advance(1000);
      await store.openThread(asThreadId("a-opened"), { stateSchema: SCHEMA });
      const threads = await store.listThreads?.();
      expect(threads?.map((thread) => thread.threadId)).toEqual(["a-opened", "b-edited", THREAD]);
      expect(threads?.[0]).toEqual({
        threadId: "a-opened",
        createdAt: "2025-01-01T00:00:02.000Z",
        stateSchema: SCHEMA,
      });
      expect(threads?.[1]).toEqual({ threadId: "b-edited", createdAt: "2025-01-01T00:00:01.000Z" });
    });

    it("ids are ordered by code unit on every backend (upper case before lower, a surrogate pair before U+FF5E as in JavaScript)", async () => {
      const store = await openStore();
      for (const id of ["b", "B", "\u{1F600}", "\uFF5E", "a"]) await store.openThread(asThreadId(id));
      expect((await store.listThreads?.())?.map((thread) => thread.threadId)).toEqual([
        "B",
        "a",
        "b",
        "\u{1F600}",
        "\uFF5E",
      ]);
    });

    it("a deleted thread is no longer listed; a reset one still is", async () => {
      const store = await openStore();
      await commitCallOk(store, { callId: "w", writes: [write(["a"], 1)] });
      await store.openThread(asThreadId("other"));
      await store.reset(THREAD);
      expect((await store.listThreads?.())?.map((thread) => thread.threadId)).toEqual(["other", THREAD]);
      await store.deleteThread?.(asThreadId("other"));
      expect((await store.listThreads?.())?.map((thread) => thread.threadId)).toEqual([THREAD]);
    });

    it("answers STORE_CLOSED once the store is closed", async () => {
      const store = await openStore();
      await store.close();
      let failure: unknown;
      try {
        await store.listThreads?.();
      } catch (error) {
        failure = error;
      }
      expect(failure).toMatchObject({ name: "ObeliskError", code: "STORE_CLOSED" });
    });
  });
}
