import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asRunId, ObeliskError, type ThreadId } from "@obelisk/core";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { commitOk, manualClock, runRecord, THREAD, write } from "./conformance/commit-fixtures.js";
import { createMemoryStore } from "./memory-store.js";
import { createSqliteStore } from "./sqlite-store.js";
import type {
  CallStatus,
  HistoryPolicy,
  PruneRunsResult,
  RunRecord,
  RunStatus,
  StateStore,
} from "./store-types.js";

const root = mkdtempSync(join(tmpdir(), "obelisk-prune-history-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let files = 0;

const BACKENDS: readonly [string, () => StateStore][] = [
  ["memory", () => createMemoryStore()],
  ["sqlite", () => createSqliteStore(join(root, `s${++files}.db`))],
];

/** The time runs end in these tests, and the `now` pruning is given (a minute later). */
const ENDED = "2025-01-01T00:00:00.000Z";
const NOW = new Date("2025-01-01T00:01:00.000Z");

interface RunSpec {
  /** Its status once recorded (`running`: left so). */
  readonly status?: RunStatus;
  /** The statuses of its call records (each writes nothing but `waiting`/`blocked`; `succeeded` writes x). */
  readonly calls?: readonly CallStatus[];
  readonly endedAt?: string;
  readonly changes?: Partial<RunRecord>;
}

/** Records a run with call records, ended `status` at `endedAt`. */
async function record(store: StateStore, runId: string, spec: RunSpec = {}): Promise<void> {
  const { status = "succeeded", calls = ["succeeded"], endedAt = ENDED, changes = {} } = spec;
  await store.createRun(runRecord({ runId: asRunId(runId), startedAt: ENDED, ...changes }));
  for (const [at, callStatus] of calls.entries())
    await commitOk(store, {
      callId: `c${at}`,
      runId: asRunId(runId),
      status: callStatus,
      ...(callStatus === "succeeded" ? { writes: [write(["x"], runId)] } : {}),
    });
  if (status !== "running") await store.finishRun(asRunId(runId), status, endedAt);
}

const ids = async (store: StateStore, threadId: ThreadId = THREAD): Promise<string[]> =>
  (await store.listRuns({ threadId })).map((run) => run.runId);

/** `pruneHistory` under the thread's lock, as the engine calls it after a run. */
async function prune(store: StateStore, policy: HistoryPolicy, now = NOW): Promise<PruneRunsResult> {
  const lock = await store.lockThread(THREAD);
  try {
    return await (store.pruneHistory?.(THREAD, policy, now) ?? Promise.reject(new Error("no pruneHistory")));
  } finally {
    await lock.release();
  }
}

/** The error a promise rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown> | undefined): Promise<ObeliskError> {
  try {
    await promise;
  } catch (error) {
    if (ObeliskError.is(error)) return error;
    throw error;
  }
  throw new Error("it resolved");
}

describe.each(BACKENDS)("pruneHistory (%s store, decision 0075)", (_name, makeStore) => {
  const open: StateStore[] = [];
  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
  });
  const openStore = (): StateStore => {
    const store = makeStore();
    open.push(store);
    return store;
  };

  it("keeps the newest keepRuns runs and removes the older ones, oldest first, with their call records", async () => {
    const store = openStore();
    for (const runId of ["r1", "r2", "r3", "r4"]) await record(store, runId);
    const result = await prune(store, { keepRuns: 2 });
    expect(result).toEqual({ runIds: ["r2", "r1"], callRecords: 2, keptCallRecords: 0, busyThreads: [] });
    expect(await ids(store)).toEqual(["r4", "r3"]);
    expect(await store.listCallRecords(asRunId("r1"))).toEqual([]);
    // the state is not history: it stays
    expect(store.readState(THREAD)).toEqual({ x: "r4" });
    // nothing more to remove
    expect((await prune(store, { keepRuns: 2 })).runIds).toEqual([]);
  });

  it("keepRuns defaults to 1: olderThanMs alone never removes the thread's newest run", async () => {
    const store = openStore();
    await record(store, "r1");
    await record(store, "r2");
    expect((await prune(store, { olderThanMs: 0 })).runIds).toEqual(["r1"]);
    expect(await ids(store)).toEqual(["r2"]);
  });

  it("olderThanMs keeps the runs that ended more recently than that before now (or at a time nobody can read)", async () => {
    const store = openStore();
    await record(store, "old", { endedAt: "2024-12-31T23:00:00.000Z" });
    await record(store, "recent", { endedAt: "2025-01-01T00:00:30.000Z" });
    await record(store, "unreadable", { endedAt: "not a time" });
    await record(store, "newest");
    expect((await prune(store, { olderThanMs: 60_000 })).runIds).toEqual(["old"]);
    expect(await ids(store)).toEqual(["newest", "unreadable", "recent"]);
    // both given: a run goes when both select it (beyond the newest 3, and old enough)
    await record(store, "newer");
    expect(
      (await prune(store, { keepRuns: 2, olderThanMs: 60_000 }, new Date("2025-01-01T00:02:00.000Z"))).runIds,
    ).toEqual(["recent"]);
  });

  it("never removes a running or interrupted run, nor one waiting for a person until a run resumed it", async () => {
    const store = openStore();
    await record(store, "crashed", { status: "running" }); // marked interrupted when the lock is taken
    await record(store, "gate", { calls: ["succeeded", "waiting"] });
    await record(store, "failed", { status: "failed", calls: ["failed"] });
    await record(store, "plain");
    await record(store, "newest");
    expect((await prune(store, { keepRuns: 1 })).runIds).toEqual(["plain", "failed"]);
    expect(await ids(store)).toEqual(["newest", "gate", "crashed"]);
    expect(await store.getRun(asRunId("crashed"))).toMatchObject({ status: "interrupted" });
    // the approval given, a run resumes the waiting one: it is history now; the interrupted run stays until
    // a resume or runs.cancel ends it
    await record(store, "resume", { changes: { resumeOf: asRunId("gate") } });
    expect((await prune(store, { keepRuns: 1 })).runIds).toEqual(["newest", "gate"]);
    await store.finishRun(asRunId("crashed"), "cancelled", ENDED, undefined, { reason: "given up" });
    expect((await prune(store, { keepRuns: 1 })).runIds).toEqual(["crashed"]);
    expect(await ids(store)).toEqual(["resume"]);
  });

  it("never removes a run whose resume chain still ends in an open run (its records are what that resume reads)", async () => {
    const store = openStore();
    await record(store, "first", { status: "failed", calls: ["succeeded", "failed"] });
    await record(store, "again", {
      status: "cancelled",
      changes: { resumeOf: asRunId("first") },
      endedAt: ENDED,
    });
    await record(store, "crashed", { status: "running", changes: { resumeOf: asRunId("again") } });
    await record(store, "plain");
    await record(store, "newest");
    // crashed (interrupted once the lock is taken) resumes again, which resumed first: both stay
    expect((await prune(store, { keepRuns: 1 })).runIds).toEqual(["plain"]);
    expect(await ids(store)).toEqual(["newest", "crashed", "again", "first"]);
    await store.finishRun(asRunId("crashed"), "cancelled", ENDED, undefined, { reason: "given up" });
    expect((await prune(store, { keepRuns: 1 })).runIds).toEqual(["crashed", "again", "first"]);
  });

  it("removes at most 32 runs per call, oldest first, and runs it keeps do not stop it", async () => {
    const store = openStore();
    for (let at = 0; at < 40; at++) await record(store, `w${at}`, { calls: ["waiting"] });
    for (let at = 0; at < 40; at++) await record(store, `r${String(at).padStart(2, "0")}`);
    const first = await prune(store, { keepRuns: 1 });
    expect(first.runIds.length).toBe(32);
    expect(first.runIds.at(-1)).toBe("r00");
    expect(first.runIds[0]).toBe("r31");
    expect((await prune(store, { keepRuns: 1 })).runIds).toEqual([
      "r38",
      "r37",
      "r36",
      "r35",
      "r34",
      "r33",
      "r32",
    ]);
    expect((await ids(store)).length).toBe(41);
  });

  it("keeps the records a re-sent call would be satisfied by for a value the thread still holds", async () => {
    const store = openStore();
    await record(store, "r1", { calls: [] });
    await commitOk(store, {
      callId: "held",
      runId: asRunId("r1"),
      callHash: "h",
      writes: [write(["kept"], 1)],
    });
    await record(store, "r2", { calls: [] });
    const result = await prune(store, { keepRuns: 1 });
    expect(result).toMatchObject({ runIds: ["r1"], callRecords: 0, keptCallRecords: 1 });
    expect(await store.findCompletedCall(THREAD, "h")).toMatchObject({ callId: "held" });
  });

  it("refuses a policy it cannot read, and a caller without the thread's lock (USAGE, nothing removed)", async () => {
    const store = openStore();
    await record(store, "r1");
    await record(store, "r2");
    for (const policy of [
      undefined,
      null,
      [],
      {},
      { keepRuns: 0 },
      { keepRuns: 1.5 },
      { keepRuns: "2" },
      { olderThanMs: -1 },
      { olderThanMs: Number.NaN },
      { keepruns: 1 },
    ]) {
      const error = await rejection(prune(store, policy as never));
      expect(error.code, JSON.stringify(policy)).toBe("USAGE");
    }
    const unlocked = await rejection(store.pruneHistory?.(THREAD, { keepRuns: 1 }, NOW));
    expect(unlocked).toMatchObject({ code: "USAGE", data: { threadId: THREAD } });
    expect(unlocked.message).toContain("needs the thread's lock");
    expect(await ids(store)).toEqual(["r2", "r1"]);
  });
});

describe("pruneHistory on SQLite: one transaction (decision 0075, crash-cut)", () => {
  it("a prune that fails part-way (after removing runs) leaves every run and record; the next prune removes them", async () => {
    const file = join(root, `cut${++files}.db`);
    const store = createSqliteStore(file);
    try {
      for (const runId of ["r1", "r2", "r3"]) await record(store, runId);
      // a host edit's record that holds no value (x is written again by r2, r3), damaged on disk: pruning reads
      // it only after it has removed r1 and r2 in the same transaction
      await commitOk(store, { callId: "set$1", runId: asRunId("obelisk.set"), writes: [write(["y"], 1)] });
      await commitOk(store, { callId: "set$2", runId: asRunId("obelisk.set"), writes: [write(["y"], 2)] });
      const db = new BetterSqlite3(file);
      db.prepare(
        "UPDATE call_records SET record = '{' WHERE run_id = 'obelisk.set' AND call_id = 'set$1'",
      ).run();
      db.close();
      const error = await rejection(prune(store, { keepRuns: 1 }));
      expect(error).toMatchObject({
        code: "STORE_ERROR",
        data: { reason: "corrupt", table: "call_records" },
      });
      expect(await ids(store)).toEqual(["r3", "r2", "r1"]);
      expect((await store.listCallRecords(asRunId("r1"))).map((call) => call.callId)).toEqual(["c0"]);
      const repair = new BetterSqlite3(file);
      repair.prepare("DELETE FROM call_records WHERE run_id = 'obelisk.set' AND call_id = 'set$1'").run();
      repair.close();
      expect((await prune(store, { keepRuns: 1 })).runIds).toEqual(["r2", "r1"]);
      expect(await store.listCallRecords(asRunId("r1"))).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe("pruneHistory on SQLite: a lock taken over meanwhile (decision 0075)", () => {
  it("is refused with THREAD_BUSY in its transaction, removing nothing", async () => {
    const file = join(root, `takeover${++files}.db`);
    const [clockA, clockB] = [manualClock(), manualClock()];
    // no heartbeat during the test: the clocks alone decide staleness (as in sqlite-lock.test.ts)
    const lock = { heartbeatMs: 29_000 };
    const a = createSqliteStore(file, { now: clockA.now, lock });
    const b = createSqliteStore(file, { now: clockB.now, lock });
    try {
      for (const runId of ["r1", "r2", "r3"]) await record(a, runId);
      const lockA = await a.lockThread(THREAD);
      clockB.advance(30_001);
      const lockB = await b.lockThread(THREAD);
      const error = await rejection(a.pruneHistory?.(THREAD, { keepRuns: 1 }, NOW));
      expect(error).toMatchObject({ code: "THREAD_BUSY", data: { threadId: THREAD } });
      expect(await ids(b)).toEqual(["r3", "r2", "r1"]);
      await lockB.release();
      await lockA.release();
    } finally {
      await a.close();
      await b.close();
    }
  });
});
