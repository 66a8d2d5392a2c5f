import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asRunId } from "@obelisk/core";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { commitOk, manualClock, RUN, runRecord, THREAD, write } from "./conformance/commit-fixtures.js";
import { describeStoreConformance } from "./conformance/index.js";
import { createSqliteStore } from "./sqlite-store.js";
import type { StateStore } from "./store-types.js";
import { getValue } from "./variables/get-value.js";

const dir = mkdtempSync(join(tmpdir(), "obelisk-state-"));
let counter = 0;
const freshFile = (): string => join(dir, `store-${++counter}.db`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeStoreConformance("sqlite (file)", (options) => createSqliteStore(freshFile(), options));
describeStoreConformance("sqlite (:memory:)", (options) => createSqliteStore(":memory:", options));

describe("sqlite persistence", () => {
  const stores: StateStore[] = [];
  const open = (file: string, options = {}): StateStore => {
    const store = createSqliteStore(file, options);
    stores.push(store);
    return store;
  };
  afterAll(async () => {
    for (const store of stores) await store.close().catch(() => undefined);
  });

  it("shows everything committed after reopening the file (state, log, variables, records, runs, counters, tombstones)", async () => {
    const file = freshFile();
    const clock = manualClock();
    const first = open(file, { now: clock.now });
    await first.openThread(THREAD, {
      stateSchema: { type: "object", properties: { n: { type: "number" } } },
    });
    await first.reserveCallNumbers(THREAD, 7);
    await first.createRun(runRecord());
    await commitOk(first, {
      callId: "a",
      callHash: "h",
      writes: [write(["list"], [1], "concat"), write(["n"], 1)],
      description: "numbers",
    });
    await commitOk(first, { callId: "b", writes: [write(["list"], 2, "push")], output: { o: 1 } });
    await commitOk(first, { callId: "gone", writes: [write(["gone"], "x")] });
    await first.applyRetention(THREAD, { maxVariables: 2 }, new Date(clock.now()));
    const variables = await first.listVariables(THREAD);
    await first.close();

    const second = open(file, { now: clock.now });
    expect(await second.readState(THREAD)).toEqual({ list: [1, 2], gone: "x" });
    expect(await second.listVariables(THREAD)).toEqual(variables);
    expect((await second.readWriteLog(THREAD)).map((e) => e.op ?? e.write.method)).toEqual([
      "concat",
      "set",
      "push",
      "set",
      "unset",
    ]);
    expect(await second.findCompletedCall(THREAD, "h")).toMatchObject({ callId: "a" });
    expect((await second.listCallRecords(RUN)).map((r) => r.callId)).toEqual(["a", "b", "gone"]);
    // recorded `running` by a store closed without finishing it: read again, it is interrupted
    expect(await second.getRun(RUN)).toMatchObject({
      status: "interrupted",
      reason: expect.stringContaining("no run holds thread"),
    });
    expect(await second.getCallOutput(THREAD, "b")).toEqual({ value: { o: 1 } });
    expect(await second.reserveCallNumbers(THREAD, 1)).toBe(8);
    await expect(getValue(second, THREAD, "†state.n")).rejects.toMatchObject({
      code: "REF_EVICTED",
      data: { reason: "maxVariables" },
    });
    const refused = await second.commitCall({
      record: {
        threadId: THREAD,
        runId: asRunId("r2"),
        callId: "c" as never,
        tool: "t",
        status: "succeeded",
        attempts: 1,
        outputMethod: "set",
        wrote: [],
      },
      writes: [write(["n"], "not a number")],
    });
    expect(refused).toMatchObject({ ok: false, error: { code: "OUTPUT_SCHEMA_VIOLATION" } });
  });

  it("rebuilds the state from the write log when no snapshot was written (crash before close)", async () => {
    const file = freshFile();
    const first = open(file);
    await commitOk(first, { callId: "a", writes: [write(["a"], { x: 1 })] });
    await commitOk(first, { callId: "b", writes: [write(["a"], { y: 2 }, "merge")] });
    const second = open(file);
    expect(await second.readState(THREAD)).toEqual({ a: { x: 1, y: 2 } });
    await first.close();
  });

  it("keeps snapshots out of the threads row each commit updates, and still reads one written there by older files", async () => {
    const file = freshFile();
    const first = open(file);
    // a store writes a snapshot when it closes once the log after the last one is past half of 256 KiB
    await commitOk(first, { callId: "a", writes: [write(["big"], "x".repeat(200_000))] });
    await commitOk(first, { callId: "b", writes: [write(["n"], 1)] });
    await first.close();
    const raw = new BetterSqlite3(file);
    const row = () =>
      raw.prepare("SELECT snapshot, snapshot_seq FROM threads WHERE thread_id = ?").get(THREAD) as {
        snapshot: string;
        snapshot_seq: number;
      };
    const saved = raw
      .prepare("SELECT snapshot, snapshot_seq FROM snapshots WHERE thread_id = ?")
      .get(THREAD) as {
      snapshot: string;
      snapshot_seq: number;
    };
    expect(row()).toEqual({ snapshot: "{}", snapshot_seq: 1 });
    expect(JSON.parse(saved.snapshot)).toEqual({ big: "x".repeat(200_000), n: 1 });
    // the layout of older files: the snapshot in the threads row, no snapshots row; the log entries it
    // covers are removed so that only the snapshot can give the state back
    raw
      .prepare("UPDATE threads SET snapshot = ?, snapshot_seq = ? WHERE thread_id = ?")
      .run(saved.snapshot, saved.snapshot_seq, THREAD);
    raw.prepare("DELETE FROM snapshots").run();
    raw.prepare("DELETE FROM write_log WHERE seq < ?").run(saved.snapshot_seq);
    raw.close();
    const second = open(file);
    expect(await second.readState(THREAD)).toEqual({ big: "x".repeat(200_000), n: 1 });
    // enough written for the close to save a snapshot (past half of 256 KiB after the last one)
    await commitOk(second, { callId: "c", writes: [write(["n"], 2), write(["pad"], "y".repeat(150_000))] });
    await second.close();
    const reopened = new BetterSqlite3(file);
    expect(reopened.prepare("SELECT snapshot FROM threads WHERE thread_id = ?").get(THREAD)).toEqual({
      snapshot: "{}",
    });
    reopened.close();
    expect(await open(file).readState(THREAD)).toEqual({
      big: "x".repeat(200_000),
      n: 2,
      pad: "y".repeat(150_000),
    });
  });

  it("continues sequence numbers and counters after a restart, also after reset and keep-last-n", async () => {
    const file = freshFile();
    const first = open(file);
    await commitOk(first, { callId: "a", writes: [write(["a"], 1), write(["b"], 1)] });
    await first.keepLastN(THREAD, 1);
    await first.reserveCallNumbers(THREAD, 3);
    await first.close();
    const second = open(file);
    await commitOk(second, { callId: "c", writes: [write(["c"], 1)] });
    await second.reset(THREAD);
    expect(await second.reserveCallNumbers(THREAD, 1)).toBe(4);
    await second.close();
    const third = open(file);
    await commitOk(third, { callId: "d", writes: [write(["d"], 1)] });
    const seqs = (await third.readWriteLog(THREAD)).map((entry) => entry.seq);
    expect(seqs).toEqual([5, 6]);
    expect(await third.reserveCallNumbers(THREAD, 1)).toBe(5);
  });

  it("locks a thread across connections (another process's store sees THREAD_BUSY)", async () => {
    const file = freshFile();
    const one = open(file);
    const two = open(file);
    const lock = await one.lockThread(THREAD);
    await expect(two.lockThread(THREAD)).rejects.toMatchObject({ code: "THREAD_BUSY" });
    await lock.release();
    const taken = await two.lockThread(THREAD);
    await taken.release();
  });

  it("never loses an update between two connections writing one thread", async () => {
    const file = freshFile();
    const one = open(file);
    const two = open(file);
    await one.readState(THREAD);
    await two.readState(THREAD);
    await commitOk(one, { callId: "a", writes: [write(["log"], "one", "push")] });
    await commitOk(two, { callId: "b", writes: [write(["log"], "two", "push")] });
    await commitOk(one, { callId: "c", writes: [write(["log"], "three", "push")] });
    expect(await two.readState(THREAD)).toEqual({ log: ["one", "two", "three"] });
    expect(await one.readState(THREAD)).toEqual({ log: ["one", "two", "three"] });
  });

  it("clears a tombstone another connection left when the variable is written again", async () => {
    const file = freshFile();
    const one = open(file);
    const two = open(file);
    await commitOk(one, { callId: "a", writes: [write(["x"], 1)] });
    await commitOk(two, { callId: "b", writes: [write(["y"], 2)] });
    await two.keepLastN(THREAD, 1);
    expect(await one.getTombstone(THREAD, "†state.x")).toMatchObject({ reason: "keepLastN" });
    await commitOk(one, { callId: "c", writes: [write(["x"], 3)] });
    expect(await one.getTombstone(THREAD, "†state.x")).toBeUndefined();
    await two.reset(THREAD);
    await commitOk(one, { callId: "d", writes: [write(["y"], 4)] });
    expect(await two.getTombstone(THREAD, "†state.y")).toBeUndefined();
    expect(await two.getTombstone(THREAD, "†state.x")).toMatchObject({ reason: "reset" });
  });

  it("refuses use after close with STORE_CLOSED and wraps open failures in STORE_ERROR", async () => {
    const store = createSqliteStore(":memory:");
    await store.close();
    expect(() => store.readState(THREAD)).toThrow(expect.objectContaining({ code: "STORE_CLOSED" }));
    expect(() => createSqliteStore(join(dir, "missing", "dir", "x.db"))).toThrow(
      expect.objectContaining({ code: "STORE_ERROR" }),
    );
  });
});
