import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asCallId, ObeliskError } from "@obelisk/core";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitOf, commitOk, RUN, runRecord, THREAD, write } from "./conformance/commit-fixtures.js";
import { createSqliteStore } from "./sqlite-store.js";
import type { StateStore } from "./store-types.js";

const dir = mkdtempSync(join(tmpdir(), "obelisk-damaged-row-"));
const original = join(dir, "original.db");
let counter = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const store = createSqliteStore(original);
  await store.createRun(runRecord());
  // with a call hash, so pruning must read what the thread still holds (a record without one never stays)
  await commitOk(store, { callId: "c1", callHash: "h1", writes: [write(["a"], 1)], output: { x: 1 } });
  await store.finishRun(RUN, "succeeded", "t2");
  await store.close();
});

/** Runs SQL on a connection of its own. */
function raw(file: string, sql: string): unknown[] {
  const db = new Database(file);
  try {
    const statement = db.prepare(sql);
    return statement.reader ? statement.all() : [statement.run()];
  } finally {
    db.close();
  }
}

/** A copy of the store file with `sql` run on it (one damaged row). */
function damaged(sql: string): string {
  const file = join(dir, `case-${++counter}.db`);
  copyFileSync(original, file);
  raw(file, sql);
  return file;
}

/** What `read` threw (it must throw an ObeliskError). */
async function thrown(read: () => unknown): Promise<ObeliskError> {
  try {
    await read();
  } catch (error) {
    if (ObeliskError.is(error)) return error;
    throw error;
  }
  throw new Error("the read answered");
}

type Read = (store: StateStore) => unknown;
const BY_THREAD = { threadId: THREAD };
const BY_RUN = { threadId: THREAD, runId: RUN };

const CASES: [string, string, string, Read, Record<string, string>][] = [
  ["threads", "snapshot", "UPDATE threads SET snapshot = '{bad'", (s) => s.readState(THREAD), BY_THREAD],
  [
    "threads",
    "state_schema",
    "UPDATE threads SET state_schema = '{bad'",
    (s) => s.getThread(THREAD),
    BY_THREAD,
  ],
  [
    "threads",
    "state_schema",
    "UPDATE threads SET state_schema = '{bad'",
    (s) => s.listThreads?.(),
    BY_THREAD,
  ],
  ["variables", "meta", "UPDATE variables SET meta = '{bad'", (s) => s.listVariables(THREAD), BY_THREAD],
  ["write_log", "entry", "UPDATE write_log SET entry = '{bad'", (s) => s.readState(THREAD), BY_THREAD],
  ["write_log", "entry", "UPDATE write_log SET entry = '{bad'", (s) => s.readWriteLog(THREAD), BY_THREAD],
  ["runs", "record", "UPDATE runs SET record = '{bad'", (s) => s.getRun(RUN), BY_RUN],
  ["runs", "record", "UPDATE runs SET record = '{bad'", (s) => s.listRuns(), BY_RUN],
  [
    "call_records",
    "record",
    "UPDATE call_records SET record = '{bad'",
    (s) => s.listCallRecords(RUN),
    BY_RUN,
  ],
  [
    "call_outputs",
    "value",
    "UPDATE call_outputs SET value = '{bad'",
    (s) => s.getCallOutput(THREAD, asCallId("c1")),
    BY_THREAD,
  ],
];

describe("sqlite store: one damaged row (not JSON) is STORE_ERROR naming its table and owner (review s33r F7)", () => {
  it.each(CASES)(
    "%s.%s (%s, read %#): corrupt, with a hint, nothing written",
    async (table, column, sql, read, owner) => {
      const file = damaged(sql);
      const store = createSqliteStore(file);
      try {
        const error = await thrown(() => read(store));
        expect(error).toMatchObject({
          code: "STORE_ERROR",
          data: { reason: "corrupt", table, column, ...owner },
        });
        expect(error.message).toContain(`the store's ${table}.${column} of `);
        expect(error.message).toContain("is damaged: not JSON (");
        expect(error.hint).toMatch(
          /^restore the file from a backup, or delete (the|the run's) thread \(deleteThread \/ obelisk state delete --thread "thread-1"\)/,
        );
      } finally {
        await store.close();
      }
      expect(raw(file, "SELECT count(*) AS n FROM locks")).toEqual([{ n: 0 }]);
    },
  );

  it("a commit on a thread whose snapshot is damaged writes nothing; the message and hint in full", async () => {
    const file = damaged("UPDATE threads SET snapshot = '{bad'");
    const store = createSqliteStore(file);
    try {
      const error = await thrown(() => store.readState(THREAD));
      // the parser's own words after "not JSON (" differ between Node.js versions
      expect(error.message).toMatch(
        /^the store's threads\.snapshot of thread "thread-1" is damaged: not JSON \(Expected property name/,
      );
      expect(error.hint).toBe(
        `restore the file from a backup, or delete the thread (deleteThread / obelisk state delete --thread "${THREAD}"): the store never repairs a damaged row`,
      );
      const commit = await thrown(async () => {
        const result = await store.commitCall(commitOf({ callId: "c2", writes: [write(["b"], 2)] }));
        if (!result.ok) throw result.error;
      });
      expect(commit).toMatchObject({ code: "STORE_ERROR", data: { reason: "corrupt", table: "threads" } });
    } finally {
      await store.close();
    }
    expect(raw(file, "SELECT count(*) AS n FROM write_log")).toEqual([{ n: 1 }]);
    expect(raw(file, "SELECT count(*) AS n FROM call_records")).toEqual([{ n: 1 }]);
  });

  it.each([
    ["threads.snapshot", "UPDATE threads SET snapshot = '{bad'"],
    ["variables.meta", "UPDATE variables SET meta = '{bad'"],
    ["write_log.entry", "UPDATE write_log SET entry = '{bad'"],
  ])("deleteThread removes a thread whose %s is damaged, as the hint offers", async (_what, sql) => {
    const file = damaged(sql);
    const store = createSqliteStore(file);
    try {
      expect(await store.deleteThread?.(THREAD)).toMatchObject({ deleted: true });
      expect(await store.getThread(THREAD)).toBeUndefined();
    } finally {
      await store.close();
    }
    expect(raw(file, "SELECT count(*) AS n FROM threads")).toEqual([{ n: 0 }]);
    expect(raw(file, "SELECT count(*) AS n FROM locks")).toEqual([{ n: 0 }]);
  });

  it("a run listing that meets a damaged run record names it; deleting its thread, as the hint offers, clears it", async () => {
    const file = damaged("UPDATE runs SET record = '{bad'");
    const store = createSqliteStore(file);
    try {
      const error = await thrown(() => store.listRuns());
      expect(error.hint).toContain(
        `delete the run's thread (deleteThread / obelisk state delete --thread "${THREAD}")`,
      );
      expect(await store.deleteThread?.(THREAD)).toMatchObject({ deleted: true, runs: 1 });
      expect(await store.listRuns()).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it.each([
    ["call_records", "record", "UPDATE call_records SET record = '{bad'"],
    ["write_log", "entry", "UPDATE write_log SET entry = '{bad'"],
  ])("pruneRuns meeting a damaged %s.%s names it too, and removes nothing", async (table, column, sql) => {
    const file = damaged(sql);
    const store = createSqliteStore(file);
    try {
      const error = await thrown(() => store.pruneRuns?.({ keepLast: 0 }));
      expect(error).toMatchObject({
        code: "STORE_ERROR",
        data: { reason: "corrupt", table, column, threadId: THREAD },
      });
    } finally {
      await store.close();
    }
    expect(raw(file, "SELECT count(*) AS n FROM runs")).toEqual([{ n: 1 }]);
    expect(raw(file, "SELECT count(*) AS n FROM locks")).toEqual([{ n: 0 }]);
  });
});
