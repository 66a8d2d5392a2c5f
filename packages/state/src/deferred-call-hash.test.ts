import { asCallId, asRunId, type JsonValue, type RunId } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { RUN, runRecord, THREAD, write } from "./conformance/commit-fixtures.js";
import { createMemoryStore } from "./memory-store.js";
import { createSqliteStore } from "./sqlite-store.js";
import type { CallCommit, CallRecord, StateStore } from "./store-types.js";

/** The hash a scheduler would compute, from the record's own fields. */
const hashOf = (record: CallRecord): string => `h:${record.tool}:${JSON.stringify(record.params)}`;

/**
 * A succeeded call writing `value` to `†state.<key>` (key undefined: storing it as its output): its hash
 * given (`eager`) or left to the store.
 */
function commitOf(
  callId: string,
  key: string | undefined,
  value: JsonValue,
  eager: boolean,
  runId: RunId = RUN,
): CallCommit {
  const writes = key === undefined ? [] : [write([key], value)];
  const record: CallRecord = {
    threadId: THREAD,
    runId,
    callId: asCallId(callId),
    tool: "tool",
    status: "succeeded",
    attempts: 1,
    endedAt: "2026-01-01T00:00:01.000Z",
    outputMethod: "set",
    wrote: [key === undefined ? `†calls.${callId}` : `†state.${key}`],
    startedAt: "2026-01-01T00:00:00.000Z",
    params: { key: key ?? null, value },
    ...(key === undefined ? {} : { outputPath: `†state.${key}` }),
    result: value,
  };
  const output = key === undefined ? { output: value } : {};
  if (eager) return { record: { ...record, callHash: hashOf(record) }, writes, ...output };
  return { record, writes, ...output, callHashOf: hashOf };
}

/** What a store shows of a scenario: every record as JSON (keys in order), and what the lookups find. */
async function shown(store: StateStore, runIds: readonly RunId[], hashes: readonly string[]) {
  const records: string[] = [];
  for (const runId of runIds)
    for (const record of await store.listCallRecords(runId)) {
      expect(Object.isFrozen(record)).toBe(true);
      records.push(JSON.stringify(record));
    }
  const found: (string | undefined)[] = [];
  for (const hash of hashes) found.push((await store.findCompletedCall(THREAD, hash))?.callId);
  return { records, found };
}

describe("call hashes filled in later (CallCommit.callHashOf)", () => {
  it("a record committed without its hash is listed and found as if it had been given, hashed once", async () => {
    let hashed = 0;
    const counting = (record: CallRecord): string => {
      hashed++;
      return hashOf(record);
    };
    const deferred = createMemoryStore();
    const eager = createMemoryStore();
    expect(deferred.holdsCompletedOf?.(THREAD, "tool")).toBe(false);
    for (const [store, isEager] of [
      [deferred, false],
      [eager, true],
    ] as const) {
      for (let n = 0; n < 3; n++) {
        const commit = commitOf(`c${n}`, `k${n}`, { n }, isEager);
        const sent = isEager ? commit : { ...commit, callHashOf: counting };
        expect(await store.commitCall(sent)).toEqual({ ok: true });
      }
    }
    expect(hashed).toBe(0);
    expect(deferred.holdsCompletedOf?.(THREAD, "tool")).toBe(true);
    expect(deferred.holdsCompletedOf?.(THREAD, "other")).toBe(false);
    const hashes = [0, 1, 2].map((n) => hashOf(commitOf(`c${n}`, `k${n}`, { n }, false).record));
    const seen = await shown(deferred, [RUN], hashes);
    expect(seen).toEqual(await shown(eager, [RUN], hashes));
    expect(seen.found).toEqual(["c0", "c1", "c2"]);
    expect(hashed).toBe(3);
    await shown(deferred, [RUN], hashes);
    expect(hashed).toBe(3);
  });

  it("listing one run's records hashes only that run's, not every record the thread holds (review of stop 28)", async () => {
    let hashed = 0;
    const counting = (record: CallRecord): string => {
      hashed++;
      return hashOf(record);
    };
    const store = createMemoryStore();
    for (let n = 0; n < 50; n++)
      await store.commitCall({ ...commitOf(`c${n}`, `k${n}`, n, false), callHashOf: counting });
    const small = asRunId("small");
    await store.commitCall({ ...commitOf("s", "s", "one", false, small), callHashOf: counting });
    const [listed] = await store.listCallRecords(small);
    expect(hashed).toBe(1);
    expect(Object.isFrozen(listed)).toBe(true);
    expect(listed?.callHash).toBe(hashOf(commitOf("s", "s", "one", false, small).record));
    // the thread's first lookup hashes the rest, once
    expect(
      (await store.findCompletedCall(THREAD, hashOf(commitOf("c7", "k7", 7, false).record)))?.callId,
    ).toBe("c7");
    expect(hashed).toBe(51);
  });

  it("a record that loses its values before any lookup no longer satisfies, as one given its hash", async () => {
    const run2 = asRunId("run-2");
    const big = "x".repeat(50);
    const hashes = [
      hashOf(commitOf("a", "a", big, false).record),
      hashOf(commitOf("o", undefined, big, false).record),
      hashOf(commitOf("o", undefined, "again", false).record),
    ];
    const results: unknown[] = [];
    for (const eager of [false, true]) {
      // records keep results of at most 10 bytes once their values are gone: these lose result and hash
      const store = createMemoryStore({ recordResultBytes: 10 });
      await store.commitCall(commitOf("a", "a", big, eager));
      await store.reset(THREAD);
      // a later run stores another output under the same call id: the first record's output is gone
      await store.commitCall(commitOf("o", undefined, big, eager));
      await store.commitCall(commitOf("o", undefined, "again", eager, run2));
      results.push(await shown(store, [RUN, run2], hashes));
    }
    expect(results[0]).toEqual(results[1]);
    expect(results[1]).toMatchObject({ found: [undefined, undefined, "o"] });
  });

  it("after a reset the records it leaves keep their hash and no longer satisfy", async () => {
    const hash = hashOf(commitOf("s", "s", "small", false).record);
    const results: unknown[] = [];
    for (const eager of [false, true]) {
      const store = createMemoryStore();
      await store.commitCall(commitOf("s", "s", "small", eager));
      await store.reset(THREAD);
      results.push(await shown(store, [RUN], [hash]));
    }
    expect(results[0]).toEqual(results[1]);
    expect(results[0]).toMatchObject({ found: [undefined] });
    expect((results[0] as { records: string[] }).records[0]).toContain(`"callHash":${JSON.stringify(hash)}`);
  });

  it("pruning keeps the records a re-sent call would be satisfied by, as for those given their hash", async () => {
    const run2 = asRunId("run-2");
    const hashes = [
      hashOf(commitOf("held", "a", 1, false).record),
      hashOf(commitOf("gone", "b", 1, false).record),
    ];
    const results: unknown[] = [];
    for (const eager of [false, true]) {
      const store = createMemoryStore();
      await store.createRun(runRecord({ runId: RUN }));
      await store.finishRun(RUN, "succeeded", "2025-01-01T00:00:00.000Z");
      await store.commitCall(commitOf("held", "a", 1, eager));
      await store.commitCall(commitOf("gone", "b", 1, eager));
      await store.createRun(runRecord({ runId: run2 }));
      await store.finishRun(run2, "succeeded", "2025-01-01T00:00:01.000Z");
      await store.commitCall(commitOf("over", "b", 2, eager, run2));
      const pruned = await store.pruneRuns?.({ keepLast: 1 });
      results.push({ pruned, shown: await shown(store, [RUN, run2], hashes) });
    }
    expect(results[0]).toEqual(results[1]);
    expect(results[0]).toMatchObject({
      pruned: { keptCallRecords: 1 },
      shown: { found: ["held", undefined] },
    });
  });

  it("a store that does not fill hashes in later (SQLite) computes it at commit", async () => {
    const store = createSqliteStore(":memory:");
    expect(store.holdsCompletedOf).toBeUndefined();
    const commit = commitOf("c", "k", 1, false);
    await store.commitCall(commit);
    const hash = hashOf(commit.record);
    expect((await store.listCallRecords(RUN))[0]?.callHash).toBe(hash);
    expect((await store.findCompletedCall(THREAD, hash))?.callId).toBe("c");
    await store.close();
  });
});
