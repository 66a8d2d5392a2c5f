import { asRunId } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { runRecord, THREAD, write } from "./conformance/commit-fixtures.js";
import { commitCallOk } from "./conformance/growth-fixtures.js";
import type { MemoryCallRecords } from "./internal/memory-call-records.js";
import { createMemoryStore } from "./memory-store.js";
import type { StateStore } from "./store-types.js";

/** The memory store's call records (a private field: introspection for tests only). */
const recordsOf = (store: StateStore): MemoryCallRecords =>
  (store as unknown as { records: MemoryCallRecords }).records;

async function run(
  store: StateStore,
  runId: string,
  spec: { output?: number; value?: number },
): Promise<void> {
  await store.createRun(runRecord({ runId: asRunId(runId) }));
  if (spec.output !== undefined)
    await commitCallOk(store, { callId: `o-${runId}`, runId, callHash: `h-o-${runId}`, output: spec.output });
  if (spec.value !== undefined)
    await commitCallOk(store, {
      callId: `w-${runId}`,
      runId,
      callHash: `h-w-${runId}`,
      writes: [write(["x"], spec.value)],
    });
  await store.finishRun(asRunId(runId), "succeeded", "2025-01-01T00:00:00.000Z");
}

describe("memory: pruneRuns forgets the pruned runs", () => {
  it("the thread's run ids no longer name the runs pruned, once none of their records is kept", async () => {
    const store = createMemoryStore();
    for (let n = 1; n <= 5; n++) await run(store, `r${n}`, { value: n });
    expect([...recordsOf(store).runIdsOf(THREAD)].sort()).toEqual(["r1", "r2", "r3", "r4", "r5"]);
    await store.pruneRuns?.({ keepLast: 1 });
    expect([...recordsOf(store).runIdsOf(THREAD)]).toEqual(["r5"]);
    expect(recordsOf(store).count()).toBe(1);
  });

  it("a run whose record pruning kept stays named until the record goes", async () => {
    const store = createMemoryStore();
    await run(store, "r1", { output: 1 });
    await run(store, "r2", { value: 2 });
    await store.pruneRuns?.({ keepLast: 1 });
    expect([...recordsOf(store).runIdsOf(THREAD)].sort()).toEqual(["r1", "r2"]);
    await store.applyRetention(THREAD, { maxCallOutputs: 0 }, new Date(Date.UTC(2025, 0, 1)));
    await store.pruneRuns?.({ keepLast: 1 });
    expect([...recordsOf(store).runIdsOf(THREAD)]).toEqual(["r2"]);
    expect(recordsOf(store).count()).toBe(1);
    await store.deleteThread?.(THREAD);
    expect([...recordsOf(store).runIdsOf(THREAD)]).toEqual([]);
    expect(recordsOf(store).count()).toBe(0);
  });
});
