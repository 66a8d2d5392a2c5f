import { describe, expect, it } from "vitest";
import { runRecord, THREAD } from "./conformance/commit-fixtures.js";
import { BIG, BIG_BYTES, commitCallOk, kept } from "./conformance/growth-fixtures.js";
import type { MemoryCallRecords } from "./internal/memory-call-records.js";
import { createMemoryStore } from "./memory-store.js";
import type { StateStore } from "./store-types.js";

/** The memory store's call records (a private field: introspection for tests only). */
const recordsOf = (store: StateStore): MemoryCallRecords =>
  (store as unknown as { records: MemoryCallRecords }).records;

/** Calls of the run (`run-1`), each storing one output and nothing else, oldest first. */
const CALLS = 2000;

describe("memory: evicting a run's call outputs looks at each record about once (security review 35 M1)", () => {
  it("retention past a run of 2,000 outputs scans the run's records once, not once per output", async () => {
    const store = createMemoryStore({ retention: { maxCallOutputs: Number.POSITIVE_INFINITY } });
    await store.createRun(runRecord());
    for (let n = 0; n < CALLS; n++)
      await commitCallOk(store, { callId: `c${n}`, callHash: `h${n}`, output: n === 0 ? BIG : n });
    const before = recordsOf(store).scanned;
    await store.applyRetention(THREAD, { maxCallOutputs: 10 }, new Date());
    // the oldest outputs go first: scanning from the end once per output looked at about 2,000,000 records
    expect(recordsOf(store).scanned - before).toBeLessThanOrEqual(2 * CALLS);
    expect((await store.stats(THREAD)).callOutputs).toBe(10);
    // the evicted outputs' records keep no large result, the kept ones theirs
    expect(await kept(store, "run-1", "c0")).toMatchObject({ result: "none", dropped: BIG_BYTES });
    expect((await kept(store, "run-1", `c${CALLS - 1}`)).result).toBe("kept");
  });
});
