import { asRunId, asThreadId } from "@obelisk/core";
import { describe, expect, it, vi } from "vitest";
import type { RunRecord } from "../store-types.js";
import { MemoryRuns } from "./memory-runs.js";

// Decision 0104 (review s41 r3 #2): a listing of one thread's runs, or a page of all, reads the runs it
// passes over (newest first, to its limit), not every run of the store; a thread's count is its index's.

const THREADS = 50;
const PER_THREAD = 20;

/** 1,000 finished runs, recorded round-robin over 50 threads: run `r<i>` is of thread `t<i % 50>`. */
function recorded(): MemoryRuns {
  const runs = new MemoryRuns();
  for (let i = 0; i < THREADS * PER_THREAD; i++)
    runs.add({
      runId: asRunId(`r${i}`),
      threadId: asThreadId(`t${i % THREADS}`),
      planHash: "sha256:x",
      plan: [],
      input: {},
      status: i % 2 === 0 ? "succeeded" : "failed",
      startedAt: "t",
    } as RunRecord);
  return runs;
}

/** A `waits` that counts the runs it is asked about (every run a `waiting` listing reads) and answers true. */
function counting(): { readonly waits: (run: RunRecord) => boolean; readonly visited: () => number } {
  let visited = 0;
  return {
    waits: () => {
      visited++;
      return true;
    },
    visited: () => visited,
  };
}

const query = { threadId: undefined, limit: undefined, statuses: undefined, waiting: true };

describe("memory run listings read only what they answer (decision 0104)", () => {
  it("one thread's newest run reads one run, not the thread's 20 nor the store's 1,000", () => {
    const runs = recorded();
    const { waits, visited } = counting();
    const listed = runs.query({ ...query, threadId: asThreadId("t7"), limit: 1 }, waits);
    expect(listed.map((run) => run.runId)).toEqual(["r957"]);
    expect(visited()).toBe(1);
  });

  it("a page of all runs reads the page; below a cursor, from the cursor", () => {
    const runs = recorded();
    const first = counting();
    expect(runs.query({ ...query, limit: 3 }, first.waits).map((run) => run.runId)).toEqual([
      "r999",
      "r998",
      "r997",
    ]);
    expect(first.visited()).toBe(3);
    const next = counting();
    const place = runs.place(asRunId("r500"))?.place;
    const page = runs.query({ ...query, limit: 2, before: place }, next.waits);
    expect(page.map((run) => run.runId)).toEqual(["r499", "r498"]);
    expect(next.visited()).toBe(2);
  });

  it("a status filter reads the runs passed over to fill the page, newest first", () => {
    const runs = recorded();
    const { waits, visited } = counting();
    const listed = runs.query(
      { ...query, threadId: asThreadId("t1"), statuses: ["failed"], limit: 2 },
      waits,
    );
    expect(listed.map((run) => run.runId)).toEqual(["r951", "r901"]);
    expect(visited()).toBe(2);
  });

  it("a thread's count is its index's size: no run is read", () => {
    const runs = recorded();
    const all = (runs as unknown as { runs: Map<string, RunRecord> }).runs;
    const values = vi.spyOn(all, "values");
    const entries = vi.spyOn(all, Symbol.iterator);
    expect(runs.count("t3")).toBe(PER_THREAD);
    expect(runs.count("none")).toBe(0);
    expect(values).not.toHaveBeenCalled();
    expect(entries).not.toHaveBeenCalled();
  });

  it("removed runs leave the listings and counts (also past compaction), a thread removed leaves none", () => {
    const runs = recorded();
    for (let i = 0; i < 900; i++) runs.remove(asRunId(`r${i}`));
    expect(runs.count("t0")).toBe(2);
    expect(runs.query({ ...query, threadId: asThreadId("t0") }, () => true).map((run) => run.runId)).toEqual([
      "r950",
      "r900",
    ]);
    expect(runs.query({ ...query, limit: 2 }, () => true).map((run) => run.runId)).toEqual(["r999", "r998"]);
    expect(runs.removeThread("t1")).toBe(2);
    expect(runs.count("t1")).toBe(0);
    expect(runs.count()).toBe(98);
    expect(runs.query(query, () => true)).toHaveLength(98);
  });
});
