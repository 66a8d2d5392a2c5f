import BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { sqliteTempFiles } from "./__fixtures__/sqlite-store-files.js";
import { commitOk, manualClock, THREAD, write } from "./conformance/commit-fixtures.js";
import type { StateStore } from "./store-types.js";
import { getValue } from "./variables/get-value.js";
import { summarize } from "./variables/summarize.js";

const { freshFile, open, closeAll } = sqliteTempFiles("obelisk-deleted-thread-");
afterAll(closeAll);

const SSN = "123-45-6789";
const DELETED = { owner: "deleted user", ssn: SSN };
const NEW = { owner: "new conversation" };

/**
 * Decision record 0098. Two stores on one file stand for two processes: `stale` writes and caches thread
 * THREAD, `other` deletes it and starts it again with one commit of the same shape, so the new row's
 * `next_seq` is the one `stale`'s cached model holds (and, before the fix, its version too).
 */
function deletedAndStartedAgain(file = freshFile()) {
  const early = manualClock();
  const late = manualClock(Date.UTC(2025, 0, 2));
  const stale = open(file, { now: early.now });
  const other = open(file, { now: late.now });
  const prepare = async (): Promise<void> => {
    await commitOk(stale, { callId: "d", writes: [write(["profile"], DELETED)], output: DELETED });
    expect(stale.readState(THREAD)).toEqual({ profile: DELETED }); // cached, current
    expect(await other.deleteThread?.(THREAD)).toMatchObject({ deleted: true });
    await commitOk(other, { callId: "w", writes: [write(["profile"], NEW)], output: NEW });
  };
  return { file, stale, other, prepare, late };
}

/** Everything a store shows of THREAD, as text (to look for the deleted thread's data anywhere in it). */
async function shown(store: StateStore): Promise<string> {
  return JSON.stringify({
    state: await store.readState(THREAD),
    variables: await store.listVariables(THREAD),
    outputs: await store.getCallOutput(THREAD, "w"),
    summary: (await summarize(store, THREAD)).text,
  });
}

/** The first read of the stale store after the other's deletion and new commit, each on its own. */
const FIRST_READS: readonly [string, (store: StateStore) => Promise<unknown>][] = [
  ["readState", async (store) => store.readState(THREAD)],
  ["listVariables", async (store) => store.listVariables(THREAD)],
  ["listCallOutputIds", async (store) => store.listCallOutputIds(THREAD)],
  ["getCallOutput", async (store) => [store.getCallOutput(THREAD, "w"), store.getCallOutput(THREAD, "d")]],
  ["getThread", async (store) => store.getThread(THREAD)],
  ["openThread", async (store) => store.openThread(THREAD)],
  ["getValue", async (store) => getValue(store, THREAD, "†state.profile")],
  ["summarize", async (store) => (await summarize(store, THREAD)).text],
];

describe("sqlite: a thread deleted by another connection and started again (decision 0098)", () => {
  it.each(FIRST_READS)("the stale store's first %s answers the new thread", async (_name, read) => {
    const { stale, other, prepare } = deletedAndStartedAgain();
    await prepare();
    const answer = JSON.stringify(await read(stale));
    expect(answer).not.toContain(SSN);
    expect(answer).toEqual(JSON.stringify(await read(other)));
  });

  it("a commit planned on the stale model is re-planned on the new thread: state and variables agree", async () => {
    const { file, stale, other, prepare, late } = deletedAndStartedAgain();
    await prepare();
    await commitOk(stale, { callId: "n", writes: [write(["profile", "note"], "hello")] });
    const expected = { profile: { ...NEW, note: "hello" } };
    expect(stale.readState(THREAD)).toEqual(expected);
    const fresh = open(file, { now: late.now });
    expect(fresh.readState(THREAD)).toEqual(expected);
    for (const store of [stale, other, fresh]) {
      const text = await shown(store);
      expect(text).not.toContain(SSN);
      expect(text).toEqual(await shown(fresh));
    }
    const profile = (await fresh.listVariables(THREAD)).find((meta) => meta.reference === "†state.profile");
    expect(profile?.preview).toBe(JSON.stringify(expected.profile));
  });

  it("a commit over the snapshot size from the stale model writes no snapshot of the deleted thread", async () => {
    const { file, stale, prepare } = deletedAndStartedAgain();
    await prepare();
    const blob = "h".repeat(300_000);
    await commitOk(stale, { callId: "n", writes: [write(["blob"], blob)] });
    const raw = new BetterSqlite3(file, { readonly: true });
    const snapshot = raw.prepare("SELECT snapshot FROM snapshots").get() as { snapshot: string };
    raw.close();
    expect(snapshot.snapshot).not.toContain(SSN);
    expect(open(file).readState(THREAD)).toEqual({ profile: NEW, blob });
  });

  it("close writes no snapshot of a model whose thread was deleted and started again", async () => {
    const file = freshFile();
    const stale = open(file);
    const other = open(file);
    // a logged write past half the snapshot size (close saves a snapshot then) but below it (no commit does)
    const blob = "d".repeat(200_000);
    await commitOk(stale, { callId: "w", writes: [write(["profile"], { ...DELETED, blob })] });
    expect(await other.deleteThread?.(THREAD)).toMatchObject({ deleted: true });
    await commitOk(other, { callId: "w", writes: [write(["profile"], NEW)] });
    await stale.close();
    const raw = new BetterSqlite3(file, { readonly: true });
    expect(raw.prepare("SELECT count(*) AS n FROM snapshots").get()).toEqual({ n: 0 });
    raw.close();
    expect(open(file).readState(THREAD)).toEqual({ profile: NEW });
  });

  it("reserveCallNumbers on a model whose thread another connection deleted starts the thread again", async () => {
    const file = freshFile();
    const stale = open(file);
    const other = open(file);
    await commitOk(stale, { callId: "w", writes: [write(["a"], 1)] });
    await stale.reserveCallNumbers?.(THREAD, 3);
    await other.deleteThread?.(THREAD);
    expect(await stale.reserveCallNumbers?.(THREAD, 1)).toBe(1);
    expect(stale.readState(THREAD)).toEqual({});
    expect(await other.nextCallNumber?.(THREAD)).toBe(2);
  });

  it("a thread started again at the raised version keeps its cached model across locks (no reload)", async () => {
    const store = open(freshFile());
    await commitOk(store, { callId: "a", writes: [write(["n"], 1)] });
    await store.deleteThread?.(THREAD);
    // created by a commit, then by openThread: each model stands at its row's first version
    for (const start of [
      () => commitOk(store, { callId: "a", writes: [write(["n"], 2)] }),
      () => store.openThread(THREAD),
    ]) {
      await start();
      const before = store.readState(THREAD);
      const lock = await store.lockThread(THREAD);
      await lock.release();
      expect(store.readState(THREAD)).toBe(before); // a reload parses the state again: another object
      await store.deleteThread?.(THREAD);
    }
  });

  it("a model cached before any of several deletions never matches the thread started again", async () => {
    const file = freshFile();
    const writer = open(file);
    const cachedAt: StateStore[] = [];
    const versions: number[] = [];
    const raw = new BetterSqlite3(file, { readonly: true });
    const version = (): number =>
      (raw.prepare("SELECT version FROM threads WHERE thread_id = ?").get(THREAD) as { version: number })
        .version;
    // commits per incarnation: the later ones end where earlier ones did (their `next_seq` and, before
    // decision 0098, their version)
    for (const [round, commits] of [2, 1, 2, 1].entries()) {
      if (round > 0) await writer.deleteThread?.(THREAD);
      for (let i = 0; i < commits; i++)
        await commitOk(writer, { callId: `c${i}`, writes: [write(["n"], round)] });
      versions.push(version());
      const reader = open(file);
      expect(reader.readState(THREAD)).toEqual({ n: round });
      cachedAt.push(reader);
    }
    raw.close();
    // every incarnation starts above every version the ones before had
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    for (const reader of cachedAt) {
      expect(reader.readState(THREAD)).toEqual({ n: 3 });
      expect(JSON.stringify(reader.listVariables(THREAD))).toContain('"preview":"3"');
    }
  });
});
