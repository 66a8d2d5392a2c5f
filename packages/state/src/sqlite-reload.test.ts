import BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { sqliteTempFiles } from "./__fixtures__/sqlite-store-files.js";
import { commitOf, commitOk, foldedLog, THREAD, write } from "./conformance/commit-fixtures.js";
import { answer } from "./conformance/superseded-tombstone-cases.js";
import type { StateStore } from "./store-types.js";
import { setValue } from "./variables/set-value.js";
import { unsetValue } from "./variables/unset-value.js";

const { freshFile, open, closeAll } = sqliteTempFiles("obelisk-reload-");
afterAll(closeAll);

/** One "run" on a connection: lock, then whatever `body` does, then release. */
async function underLock(store: StateStore, body: () => Promise<void> | void): Promise<void> {
  const lock = await store.lockThread(THREAD);
  try {
    await body();
  } finally {
    await lock.release();
  }
}

describe("sqlite: the cached thread model across runs", () => {
  it("keeps the cached model when a lock finds the thread unchanged (no reload per run)", async () => {
    const store = open(freshFile());
    await commitOk(store, { callId: "a", writes: [write(["n"], 1)], output: { o: 1 } });
    const before = store.readState(THREAD);
    await underLock(store, () => undefined);
    // a reload parses the state again: a different object
    expect(store.readState(THREAD)).toBe(before);
    await underLock(store, () => commitOk(store, { callId: "b", writes: [write(["m"], 2)] }));
    expect(store.readState(THREAD)).toEqual({ n: 1, m: 2 });
  });

  it("sees another connection's commit, call-output eviction and schema change at lock time", async () => {
    const file = freshFile();
    const one = open(file);
    const two = open(file);
    await commitOk(one, { callId: "a", output: { big: 1 } });
    await underLock(two, () => undefined);
    expect(two.listCallOutputIds(THREAD)).toEqual(["a"]);
    // an eviction of a call output does not move the thread's sequence number
    await one.applyRetention(THREAD, { maxCallOutputs: 0 }, new Date());
    await underLock(two, () => {
      expect(two.listCallOutputIds(THREAD)).toEqual([]);
    });
    await one.openThread(THREAD, {
      stateSchema: { type: "object", properties: { n: { type: "number" } } },
    });
    await underLock(two, () => {
      const refused = two.commitCall(commitOf({ callId: "b", writes: [write(["n"], "text")] }));
      expect(refused).toMatchObject({ ok: false, error: { code: "OUTPUT_SCHEMA_VIOLATION" } });
    });
    await commitOk(one, { callId: "c", writes: [write(["n"], 1)] });
    await underLock(two, () => {
      expect(two.readState(THREAD)).toEqual({ n: 1 });
    });
  });

  it("an eviction's emptied parents are gone for another connection and after a reopen too", async () => {
    const file = freshFile();
    const one = open(file);
    const two = open(file);
    await commitOk(one, { callId: "p", writes: [write(["user", "profile"], { name: "Ada" })] });
    await commitOk(one, { callId: "o", writes: [write(["other"], 1)] });
    expect(two.readState(THREAD)).toEqual({ user: { profile: { name: "Ada" } }, other: 1 });
    await one.keepLastN(THREAD, 1);
    expect(one.readState(THREAD)).toEqual({ other: 1 });
    await underLock(two, () => {
      expect(two.readState(THREAD)).toEqual({ other: 1 });
    });
    await one.close();
    expect(open(file).readState(THREAD)).toEqual({ other: 1 });
  });

  it("a removal (unsetValue) is seen by another connection, which numbers on from it, and after a reopen", async () => {
    const file = freshFile();
    const one = open(file);
    const two = open(file);
    await setValue(one, THREAD, "†state.approvals.pay", true);
    await setValue(one, THREAD, "†state.list[0]", "x");
    await setValue(one, THREAD, "†state.list[1]", "y");
    expect(two.readState(THREAD)).toMatchObject({ approvals: { pay: true } });
    // two's model is stale: its removal is planned again against the file
    await setValue(one, THREAD, "†state.n", 1);
    expect(await unsetValue(two, THREAD, "†state.approvals.pay")).toMatchObject({
      removed: true,
      callId: "obelisk-unset$5",
    });
    await unsetValue(two, THREAD, "†state.list[0]");
    expect(await setValue(one, THREAD, "†state.m", 2)).toMatchObject({ callId: "obelisk-set$7" });
    const expected = { list: [null, "y"], n: 1, m: 2 };
    expect(one.readState(THREAD)).toEqual(expected);
    await one.close();
    await two.close();
    const reopened = open(file);
    expect(reopened.readState(THREAD)).toEqual(expected);
    expect(await foldedLog(reopened)).toEqual(expected);
    expect(await answer(reopened, "†state.approvals.pay")).toEqual({ evicted: "unset" });
    expect(await answer(reopened, "†state.list[0]")).toEqual({ evicted: "unset" });
    expect((await reopened.listVariables(THREAD)).map((meta) => meta.reference).sort()).toEqual([
      "†state.list[1]",
      "†state.m",
      "†state.n",
    ]);
  });

  it("a write above tombstoned paths clears them in the file: right after a reopen, and the log still folds", async () => {
    const file = freshFile();
    const first = open(file);
    await commitOk(first, { callId: "b", writes: [write(["a", "b"], 1)] });
    await commitOk(first, { callId: "l0", writes: [write(["list", 0], "x")] });
    await commitOk(first, { callId: "x", writes: [write(["a", "x"], 2)] });
    await commitOk(first, { callId: "l1", writes: [write(["list", 1], "y")] });
    await first.keepLastN(THREAD, 2);
    await first.close();
    // a reopened store knows the thread has tombstones
    const second = open(file);
    expect(await answer(second, "†state.a.b")).toEqual({ evicted: "keepLastN" });
    expect(await answer(second, "†state.list[0]")).toEqual({ evicted: "keepLastN" });
    await commitOk(second, { callId: "s", writes: [write(["a"], { c: 1 }), write(["list"], [null, 5])] });
    expect(await answer(second, "†state.a.b")).toEqual({ found: false });
    expect(await answer(second, "†state.list[0]")).toEqual({ found: true, value: null });
    await second.close();
    const third = open(file);
    expect(third.readState(THREAD)).toEqual({ a: { c: 1 }, list: [null, 5] });
    expect(await foldedLog(third)).toEqual(third.readState(THREAD));
    expect(await answer(third, "†state.a.b")).toEqual({ found: false });
    expect(await answer(third, "†state.list[0]")).toEqual({ found: true, value: null });
    expect(third.getTombstone(THREAD, "†state.list[0]")).toBeUndefined();
  });

  it("a write above a path another connection evicted clears its tombstone", async () => {
    const file = freshFile();
    const one = open(file);
    const two = open(file);
    await commitOk(one, { callId: "b", writes: [write(["a", "b"], 1)] });
    await commitOk(one, { callId: "x", writes: [write(["a", "x"], 2)] });
    // two's model is loaded while the thread has no tombstone
    expect(two.readState(THREAD)).toEqual({ a: { b: 1, x: 2 } });
    await one.keepLastN(THREAD, 1);
    await commitOk(two, { callId: "s", writes: [write(["a"], { c: 1 })] });
    expect(await answer(two, "†state.a.b")).toEqual({ found: false });
    expect(await answer(one, "†state.a.b")).toEqual({ found: false });
    // two has written †state.a with nothing below it; one evicts below it, then two writes it again
    await commitOk(one, { callId: "d", writes: [write(["a", "d"], 1)] });
    await commitOk(one, { callId: "e", writes: [write(["e"], 1)] });
    await one.keepLastN(THREAD, 1);
    expect(await answer(two, "†state.a.d")).toEqual({ evicted: "keepLastN" });
    await commitOk(two, { callId: "t", writes: [write(["a"], { c: 2 })] });
    expect(await answer(two, "†state.a.d")).toEqual({ found: false });
  });

  it("re-plans a commit when another connection changed the thread without moving its sequence", async () => {
    const file = freshFile();
    const one = open(file);
    const two = open(file);
    await commitOk(one, { callId: "a", output: 1 });
    expect(two.listCallOutputIds(THREAD)).toEqual(["a"]);
    await one.applyRetention(THREAD, { maxCallOutputs: 0 }, new Date());
    // two's model still lists the evicted output; its commit must not bring it back into the variables
    await commitOk(two, { callId: "b", writes: [write(["x"], 1)] });
    expect(await two.listCallOutputIds(THREAD)).toEqual([]);
    expect((await two.listVariables(THREAD)).map((v) => v.reference)).toEqual(["†state.x"]);
    const fresh = open(file);
    expect(await fresh.listVariables(THREAD)).toEqual(await two.listVariables(THREAD));
  });

  it("migrates a schema-1 file (no threads.version) and keeps its data", async () => {
    const file = freshFile();
    const first = open(file);
    await commitOk(first, { callId: "a", writes: [write(["n"], 1)] });
    await first.close();
    const raw = new BetterSqlite3(file);
    raw.exec("ALTER TABLE threads DROP COLUMN version");
    raw.prepare("UPDATE meta SET value = '1' WHERE key = 'schema_version'").run();
    raw.close();
    const one = open(file);
    const two = open(file);
    expect(one.readState(THREAD)).toEqual({ n: 1 });
    await underLock(two, () => commitOk(two, { callId: "b", writes: [write(["n"], 2)] }));
    await underLock(one, () => {
      expect(one.readState(THREAD)).toEqual({ n: 2 });
    });
    const check = new BetterSqlite3(file);
    expect(check.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({
      value: "2",
    });
    expect(check.prepare("SELECT version FROM threads").get()).toEqual({ version: 1 });
    check.close();
  });

  it("sees a commit by a schema-1 writer (which advances next_seq but not version)", async () => {
    const file = freshFile();
    const one = open(file);
    await commitOk(one, { callId: "a", writes: [write(["n"], 1)] });
    const other = open(file);
    await commitOk(other, { callId: "b", writes: [write(["n"], 2)] });
    // make the file look as if an older writer had made the last commit: version unchanged
    const raw = new BetterSqlite3(file);
    raw.prepare("UPDATE threads SET version = version - 1").run();
    raw.close();
    await underLock(one, () => {
      expect(one.readState(THREAD)).toEqual({ n: 2 });
    });
  });

  it("writes a snapshot in the commit once the log after the last one outgrows it, so reloads stay bounded", async () => {
    const file = freshFile();
    const store = open(file);
    await commitOk(store, { callId: "a", writes: [write(["small"], 1)] });
    await commitOk(store, { callId: "b", writes: [write(["big"], "x".repeat(300_000))] });
    await commitOk(store, { callId: "c", writes: [write(["small"], 2)] });
    const raw = new BetterSqlite3(file);
    expect(raw.prepare("SELECT snapshot_seq FROM snapshots").get()).toEqual({ snapshot_seq: 3 });
    // only the snapshot and the log after it can give the state back
    raw.prepare("DELETE FROM write_log WHERE seq < 3").run();
    raw.close();
    expect(open(file).readState(THREAD)).toEqual({ small: 2, big: "x".repeat(300_000) });
  });
});
