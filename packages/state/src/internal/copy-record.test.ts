import { deepFreeze } from "@obelisk/core";
import { describe, expect, it, vi } from "vitest";
import { commitOf, THREAD, write } from "../conformance/commit-fixtures.js";
import { createMemoryStore } from "../memory-store.js";
import type { CallRecord } from "../store-types.js";

const NODES = 400;

describe("the record a commit keeps", () => {
  it("walks frozen parameters once for both of their bounds, and keeps them as they are", async () => {
    const store = createMemoryStore({ recordParamsBytes: 1_000_000 });
    const params = deepFreeze({ items: Array.from({ length: NODES }, (_, id) => ({ id })) });
    const commit = commitOf({ callId: "c1", writes: [write(["a"], 1)] });
    const record = { ...commit.record, params, startedAt: "x", endedAt: "y", callHash: "h", result: 1 };
    const checks = vi.spyOn(Object, "isFrozen");
    try {
      expect((await store.commitCall({ ...commit, record: record as CallRecord })).ok).toBe(true);
      // the parameters' 402 containers were walked once for the value limit, once for recordParamsBytes
      expect(checks.mock.calls.length).toBeLessThan(NODES + 50);
    } finally {
      checks.mockRestore();
    }
    const [kept] = await store.listCallRecords(commit.record.runId);
    expect(kept?.params).toBe(params);
    expect(kept?.threadId).toBe(THREAD);
  });
});
