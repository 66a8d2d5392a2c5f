import { asRunId } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import type { CallCommit, CallRecord } from "../store-types.js";
import { commitOf, THREAD, write } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";

/** The hash a scheduler would give, from the record's own fields (`CallCommit.callHashOf`). */
const hashOf = (record: CallRecord): string => `h:${record.tool}:${record.callId}`;

/** A succeeded commit of `tool` sent without its hash, the way to compute it given. */
function deferred(callId: string, tool: string, callHashOf: (record: CallRecord) => string): CallCommit {
  const commit = commitOf({ callId, tool, writes: [write([callId], callId)] });
  return { ...commit, callHashOf };
}

/**
 * Records sent without `callHash` and with `CallCommit.callHashOf` (decision 0038): the engine sends them
 * only to a store that has `holdsCompletedOf`, and reads them back as if the hash had been given.
 */
export function deferredHashCases(openStore: OpenStore): void {
  describe("call hashes filled in by the store (CallCommit.callHashOf)", () => {
    it("a record sent without its hash is listed frozen with it, and found by it", async () => {
      const store = await openStore();
      for (const callId of ["a", "b"])
        expect(await store.commitCall(deferred(callId, "tool", hashOf))).toEqual({ ok: true });
      const listed = await store.listCallRecords(asRunId("run-1"));
      expect(listed.map((record) => [record.callId, record.callHash, Object.isFrozen(record)])).toEqual([
        ["a", "h:tool:a", true],
        ["b", "h:tool:b", true],
      ]);
      expect((await store.findCompletedCall(THREAD, "h:tool:b"))?.callId).toBe("b");
    });

    it("holdsCompletedOf counts such records as held, per tool; a store without it hashes at commit", async () => {
      const store = await openStore();
      let hashed = 0;
      const counting = (record: CallRecord): string => {
        hashed++;
        return hashOf(record);
      };
      const holds = store.holdsCompletedOf?.bind(store);
      if (holds !== undefined) expect(holds(THREAD, "search")).toBe(false);
      await store.commitCall(deferred("s", "search", counting));
      await store.commitCall({
        ...commitOf({ callId: "f", tool: "fetch", status: "failed" }),
        callHashOf: counting,
      });
      if (holds === undefined) {
        // the engine sends such a store every hash; one given a callHashOf anyway computes it at once
        expect(hashed).toBe(1);
      } else {
        // an answer from the hash index alone would say false here, and "search" would never be satisfied
        expect(holds(THREAD, "search")).toBe(true);
        expect(holds(THREAD, "fetch")).toBe(false);
        expect(holds(THREAD, "other")).toBe(false);
      }
      expect((await store.findCompletedCall(THREAD, "h:search:s"))?.callId).toBe("s");
      expect(hashed).toBe(1);
    });
  });
}
