import { readFileSync, statSync } from "node:fs";
import { ObeliskError } from "@obelisk/core";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { sqliteTempFiles } from "./__fixtures__/sqlite-store-files.js";
import { foldedLog, RUN, runRecord, THREAD, write } from "./conformance/commit-fixtures.js";
import { BIG, commitCallOk, HUGE } from "./conformance/growth-fixtures.js";

const { freshFile, open, closeAll } = sqliteTempFiles("obelisk-bounded-");
afterAll(closeAll);

/** Rows and bytes of a table of the file (read through a connection of its own). */
function table(file: string, name: "write_log" | "call_records", column: "entry" | "record") {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare(`SELECT count(*) AS rows, coalesce(sum(length(${column})), 0) AS chars FROM ${name}`)
      .get() as {
      rows: number;
      chars: number;
    };
  } finally {
    db.close();
  }
}

describe("sqlite: bounded history across processes (decision 0029)", () => {
  it("short-lived processes overwriting a value keep the log bounded: closing compacts it once it grew", async () => {
    const file = freshFile();
    const value = (round: number) => `${round}${"v".repeat(100_000)}`;
    for (let round = 0; round < 6; round++) {
      const store = open(file);
      await commitCallOk(store, {
        callId: `c${round}`,
        callHash: `h${round}`,
        writes: [write(["latest"], value(round))],
      });
      await store.close();
      // the log after the last snapshot is folded at the next open: half of what a commit snapshots at
      expect(table(file, "write_log", "entry").rows).toBeLessThanOrEqual(2);
    }
    expect(table(file, "write_log", "entry").rows).toBe(1);
    // only the record of the value still held keeps its result
    expect(table(file, "call_records", "record").chars).toBeLessThan(2 * 100_000);
    const reopened = open(file);
    expect(await reopened.readState(THREAD)).toEqual({ latest: value(5) });
    expect(await foldedLog(reopened)).toEqual({ latest: value(5) });
    expect(await reopened.findCompletedCall(THREAD, "h5")).toMatchObject({ result: value(5) });
    expect(await reopened.findCompletedCall(THREAD, "h0")).toBeUndefined();
  });

  it("a process that writes a little and closes leaves the log as it is (no snapshot, no compaction)", async () => {
    const file = freshFile();
    for (let round = 1; round <= 3; round++) {
      const store = open(file);
      await commitCallOk(store, { callId: `c${round}`, writes: [write(["counter"], round)] });
      await store.close();
    }
    const reopened = open(file);
    expect((await reopened.readWriteLog(THREAD)).map((entry) => entry.write.value)).toEqual([1, 2, 3]);
  });

  it("a reopened store folds a compacted log with stand-ins to the same state", async () => {
    const file = freshFile();
    const first = open(file);
    await commitCallOk(first, { callId: "d", writes: [write(["gone"], HUGE)] });
    await commitCallOk(first, { callId: "a", writes: [write(["o", "x"], { deep: BIG })] });
    await commitCallOk(first, { callId: "b", writes: [write(["o", "x"], [1, 2])] });
    await commitCallOk(first, { callId: "c", writes: [write(["o", "x"], "push", "push")] });
    await first.keepLastN(THREAD, 1); // evicts gone: a's value, replaced by b's, becomes a stand-in
    const state = await first.readState(THREAD);
    const log = await first.readWriteLog(THREAD);
    expect(log.filter((entry) => entry.compacted === true)).toHaveLength(1);
    await commitCallOk(first, { callId: "e", writes: [write(["o", "y"], 1)] });
    await first.close();
    const second = open(file);
    expect(await second.readWriteLog(THREAD)).toEqual([
      ...log,
      expect.objectContaining({ call: { id: "e", tool: "tool" } }),
    ]);
    expect(await second.readState(THREAD)).toEqual({ ...state, o: { x: [1, 2, "push"], y: 1 } });
    expect(await foldedLog(second)).toEqual(await second.readState(THREAD));
  });

  it("pruneRuns and deleteThread leave a thread another connection runs on alone", async () => {
    const file = freshFile();
    const a = open(file);
    const b = open(file);
    await a.createRun(runRecord());
    await a.finishRun(RUN, "succeeded", "2025-01-01T00:00:00.000Z");
    const lock = await a.lockThread(THREAD);
    expect(await b.pruneRuns?.({ keepLast: 0 })).toMatchObject({ runIds: [], busyThreads: [THREAD] });
    await expect(b.deleteThread?.(THREAD)).rejects.toMatchObject({ code: "THREAD_BUSY" });
    expect(await b.getRun(RUN)).toMatchObject({ status: "succeeded" });
    await lock.release();
    expect(await b.deleteThread?.(THREAD)).toMatchObject({ deleted: true, runs: 1 });
    // the other connection's cached thread is gone too
    expect(await a.getThread(THREAD)).toBeUndefined();
    expect(await a.readState(THREAD)).toEqual({});
  });

  it("deleting a thread the file does not hold leaves the file byte for byte as it was", async () => {
    const file = freshFile();
    const store = open(file);
    await store.openThread(THREAD);
    await store.close();
    const before = readFileSync(file);
    const again = open(file);
    expect(await again.deleteThread?.("absent" as never)).toMatchObject({ deleted: false });
    await again.close();
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it("a read-only store refuses pruneRuns and deleteThread (STORE_ERROR, reason readonly)", async () => {
    const file = freshFile();
    const writer = open(file);
    await writer.createRun(runRecord({ status: "succeeded" }));
    await writer.close();
    const reader = open(file, { readonly: true });
    const attempts: (() => Promise<unknown> | undefined)[] = [
      () => reader.pruneRuns?.({ keepLast: 0 }),
      () => reader.deleteThread?.(THREAD),
    ];
    for (const attempt of attempts) {
      const error = await Promise.resolve()
        .then(attempt)
        .then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
      expect(ObeliskError.is(error) && error.code).toBe("STORE_ERROR");
      expect(error).toMatchObject({ data: { reason: "readonly" } });
    }
    expect(await reader.listRuns()).toHaveLength(1);
  });

  it("the pages a removal frees are used again: the file does not grow past its high-water mark", async () => {
    const file = freshFile();
    const store = open(file);
    const pages = () => {
      const db = new Database(file, { readonly: true });
      try {
        return Number(db.pragma("page_count", { simple: true }));
      } finally {
        db.close();
      }
    };
    const fill = async (round: number) => {
      await store.createRun(runRecord({ runId: `r${round}` as never }));
      for (let index = 0; index < 20; index++)
        await commitCallOk(store, {
          callId: `c${index}`,
          runId: `r${round}`,
          writes: [write([`k${index}`], BIG)],
        });
      await store.finishRun(`r${round}` as never, "succeeded", "2025-01-01T00:00:00.000Z");
    };
    await fill(0);
    await store.deleteThread?.(THREAD);
    const high = pages();
    for (let round = 1; round <= 3; round++) {
      await fill(round);
      await store.deleteThread?.(THREAD);
    }
    expect(pages()).toBeLessThanOrEqual(high + 2);
  });

  it("records stripped of a large result leave no mostly empty pages: the file grows by what it keeps", async () => {
    const file = freshFile();
    const store = open(file);
    const bytes = () => {
      const db = new Database(file, { readonly: true });
      try {
        return (
          Number(db.pragma("page_count", { simple: true })) * Number(db.pragma("page_size", { simple: true }))
        );
      } finally {
        db.close();
      }
    };
    // each tick overwrites a 20 KB value: the previous writer's record is stripped of its result (0029)
    const ticks = async (from: number, to: number) => {
      for (let tick = from; tick < to; tick++)
        await commitCallOk(store, {
          callId: `c${tick}`,
          runId: `r${tick}`,
          callHash: `h${tick}`,
          writes: [write(["doc"], `${tick}:${"d".repeat(20_000)}`)],
        });
    };
    await ticks(0, 200);
    const first = bytes();
    await ticks(200, 400);
    // a stripped record keeps ~0.4 KB; updated in place it kept its ~4 KB page (4.1 KB per tick here)
    expect((bytes() - first) / 200).toBeLessThan(1024);
    const records = await store.listCallRecords("r0" as never);
    expect(records).toEqual([expect.objectContaining({ callId: "c0", droppedResultBytes: 20_004 })]);
    expect(await store.findCompletedCall(THREAD, "h0")).toBeUndefined();
    expect(await store.findCompletedCall(THREAD, "h399")).toMatchObject({ callId: "c399" });
  });
});

describe("sqlite: a thread's host edits are found by their own indexes (decision 0034)", () => {
  it("the host-edit queries read a partial index by thread, not every thread's edits; an older file gets them", async () => {
    const file = freshFile();
    await open(file).close();
    const db = new Database(file);
    try {
      for (const [index, runId] of [
        ["call_records_set", "obelisk.set"],
        ["call_records_unset", "obelisk.unset"],
      ] as const) {
        const plan = db
          .prepare(
            `EXPLAIN QUERY PLAN SELECT id, call_id FROM call_records WHERE thread_id = ? AND run_id = '${runId}'`,
          )
          .all("t") as { detail: string }[];
        expect(plan.map((step) => step.detail).join("; ")).toContain(`USING INDEX ${index}`);
      }
      db.exec("DROP INDEX call_records_set; DROP INDEX call_records_unset");
    } finally {
      db.close();
    }
    // a file written before them (or by an older build) gets them at its next writable open
    await open(file).close();
    const names = new Database(file, { readonly: true });
    try {
      const rows = names.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'call_records_%set'").all();
      expect(rows).toEqual([{ name: "call_records_set" }, { name: "call_records_unset" }]);
    } finally {
      names.close();
    }
  });
});

describe("sqlite: the -wal does not keep the size of a burst", () => {
  it("after a large write, the next commit cuts the -wal back to 4 MiB (journal_size_limit)", async () => {
    const file = freshFile();
    const store = open(file);
    const wal = (): number => statSync(`${file}-wal`).size;
    await commitCallOk(store, { callId: "big", writes: [write(["big"], "x".repeat(6 * 1024 * 1024))] });
    expect(wal()).toBeGreaterThan(8 * 1024 * 1024);
    await commitCallOk(store, { callId: "small", writes: [write(["small"], 1)] });
    expect(wal()).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(await store.readState(THREAD)).toMatchObject({ small: 1 });
  });
});
