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

describe("a record handed over (CallCommit.recordHandedOver)", () => {
  /** A completed record in the stored key order, with frozen JSON parts, as the scheduler hands one over. */
  function handedOver(callId: string) {
    const value = 7;
    const commit = commitOf({ callId, writes: [write(["a", callId], value)] });
    const record = {
      threadId: commit.record.threadId,
      runId: commit.record.runId,
      callId: commit.record.callId,
      tool: commit.record.tool,
      status: "succeeded",
      attempts: 1,
      startedAt: "2025-01-01T00:00:00.000Z",
      endedAt: "2025-01-01T00:00:01.000Z",
      callHash: "h",
      params: deepFreeze({ n: 1 }),
      outputPath: `†state.a.${callId}`,
      outputMethod: "set",
      result: value,
      wrote: Object.freeze([`†state.a.${callId}`]),
    } as CallRecord;
    return { ...commit, record };
  }

  it("is kept itself, frozen, with the same fields a copy would have", async () => {
    const store = createMemoryStore();
    const given = handedOver("c1");
    expect((await store.commitCall({ ...given, recordHandedOver: true })).ok).toBe(true);
    const copied = handedOver("c2");
    expect((await store.commitCall(copied)).ok).toBe(true);
    const [kept, copy] = await store.listCallRecords(given.record.runId);
    expect(kept).toBe(given.record);
    expect(Object.isFrozen(kept)).toBe(true);
    expect(copy).not.toBe(copied.record);
    expect(Object.keys(kept ?? {})).toEqual(Object.keys(copy ?? {}));
    // copied as before: a record frozen already, or one whose parameters are not frozen JSON
    const frozen = handedOver("c3");
    Object.freeze(frozen.record);
    const open = handedOver("c4");
    const record = { ...open.record, params: { n: 1 } } as CallRecord;
    expect((await store.commitCall({ ...frozen, recordHandedOver: true })).ok).toBe(true);
    expect((await store.commitCall({ ...open, record, recordHandedOver: true })).ok).toBe(true);
    const [, , third, fourth] = await store.listCallRecords(given.record.runId);
    expect(third).not.toBe(frozen.record);
    expect(fourth).not.toBe(record);
    expect(Object.isFrozen(fourth?.params)).toBe(true);
  });
});
