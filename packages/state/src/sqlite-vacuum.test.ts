import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { hostname } from "node:os";
import { asRunId, asThreadId } from "@obelisk/core";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { digest } from "./__fixtures__/file-fixtures.js";
import { sqliteStoreFiles } from "./__fixtures__/sqlite-store-files.js";
import { runRecord, THREAD, write } from "./conformance/commit-fixtures.js";
import { commitCallOk } from "./conformance/growth-fixtures.js";
import { createMemoryStore } from "./memory-store.js";
import type { StateStore } from "./store-types.js";

const { storeFile, closeAll } = sqliteStoreFiles("obelisk-vacuum-");
afterAll(closeAll);

/** The file and its `-wal` on disk, in bytes. */
const onDisk = (file: string): number =>
  statSync(file).size + (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);

/** The file's and its `-wal`'s bytes, for "left byte for byte as it was". */
const contents = (file: string) => ({
  file: digest(file),
  wal: existsSync(`${file}-wal`) ? digest(`${file}-wal`) : undefined,
});

/** `runs` finished runs on {@link THREAD}, each writing a new 20 KB `†state.doc` (a large history). */
async function history(store: StateStore, runs: number): Promise<void> {
  for (let tick = 0; tick < runs; tick++) {
    const runId = asRunId(`run-${tick}`);
    await store.createRun(runRecord({ runId, startedAt: `t${tick}` }));
    await commitCallOk(store, {
      callId: `c${tick}`,
      runId,
      callHash: `h${tick}`,
      writes: [write(["doc"], `${tick}:${"d".repeat(20_000)}`)],
    });
    await store.finishRun(runId, "succeeded", `e${tick}`);
  }
}

/** The error a promise rejects with (undefined when it resolves). */
const rejection = (attempt: Promise<unknown>): Promise<unknown> =>
  attempt.then(
    () => undefined,
    (error: unknown) => error,
  );

describe("sqlite: vacuum gives a store file's free space back", () => {
  it("shrinks the file after a large history is pruned, answering its size before and after; data intact", async () => {
    const setup = storeFile();
    const store = setup.open();
    await history(store, 120);
    const pruned = await store.pruneRuns?.({ keepLast: 1 });
    expect(pruned?.runIds).toHaveLength(119);
    // the main file alone, once its -wal is checkpointed into it: the pages the prune freed are in it
    setup.raw("PRAGMA wal_checkpoint(TRUNCATE)");
    const mainFile = statSync(setup.file).size;
    const beforeOnDisk = onDisk(setup.file);
    const result = await store.vacuum?.();
    if (result === undefined) throw new Error("the SQLite store has no vacuum");
    expect(result.bytesBefore).toBe(beforeOnDisk);
    expect(result.bytesBefore).toBeGreaterThan(500_000);
    expect(result.bytesAfter).toBeLessThan(mainFile / 2);
    expect(existsSync(`${setup.file}-wal`) ? statSync(`${setup.file}-wal`).size : 0).toBe(0);
    expect(result.walBytesAfter).toBe(0);
    expect(onDisk(setup.file)).toBe(result.bytesAfter);
    // the same data, in this store and in another connection; the store goes on working
    expect(store.readState(THREAD)).toEqual({ doc: `119:${"d".repeat(20_000)}` });
    expect((await store.listRuns()).map((run) => run.runId)).toEqual(["run-119"]);
    await commitCallOk(store, { callId: "after", runId: "run-119", writes: [write(["n"], 1)] });
    const other = setup.open();
    expect(await other.readState(THREAD)).toMatchObject({ n: 1, doc: `119:${"d".repeat(20_000)}` });
    // nothing left to give back: a second vacuum answers about the same size
    const again = await store.vacuum?.();
    expect(again?.bytesAfter).toBeLessThanOrEqual(result.bytesAfter + 8_192);
  });

  it("refuses with THREAD_BUSY naming the thread while a run of another store holds it; the file stays byte for byte", async () => {
    const setup = storeFile();
    const holder = setup.open();
    await history(holder, 20);
    await holder.pruneRuns?.({ keepLast: 1 });
    const busyThread = asThreadId("busy");
    const lock = await holder.lockThread(busyThread);
    const other = setup.open();
    const before = contents(setup.file);
    const refused = await rejection(other.vacuum?.() ?? Promise.resolve());
    expect(refused).toMatchObject({
      code: "THREAD_BUSY",
      data: { threadId: "busy", holder: { host: hostname(), pid: process.pid, sameProcess: true } },
    });
    expect(String((refused as Error).message)).toContain('thread "busy"');
    // the store whose run holds the thread refuses too
    await expect(holder.vacuum?.()).rejects.toMatchObject({
      code: "THREAD_BUSY",
      data: { threadId: "busy" },
    });
    expect(contents(setup.file)).toEqual(before);
    await lock.release();
    const result = await other.vacuum?.();
    expect(result?.bytesAfter).toBeLessThan(result?.bytesBefore ?? 0);
  });

  it("says how much of the store waits in the -wal when another connection's read kept the checkpoint back", async () => {
    const setup = storeFile();
    const store = setup.open();
    await history(store, 60);
    await store.pruneRuns?.({ keepLast: 1 });
    // another process's run, in the middle of a read
    const reader = new Database(setup.file, { readonly: true });
    reader.prepare("BEGIN").run();
    reader.prepare("SELECT count(*) FROM runs").get();
    const held = await store.vacuum?.();
    expect(held?.walBytesAfter).toBeGreaterThan(100_000);
    expect(held?.bytesAfter).toBe(onDisk(setup.file));
    reader.prepare("COMMIT").run();
    reader.close();
    expect(await store.vacuum?.()).toMatchObject({ walBytesAfter: 0 });
  });

  it("a lock row deleteThread would take over (stale heartbeat, a gone process) does not refuse it, and stays", async () => {
    const setup = storeFile();
    const holder = setup.open();
    await holder.lockThread(THREAD);
    const other = setup.open();
    setup.clock.advance(45_000); // over the default staleMs, 30,000: a hung or gone holder
    expect(await other.vacuum?.()).toMatchObject({ bytesBefore: expect.any(Number) });
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    setup.raw(
      "UPDATE locks SET pid = ?, heartbeat_ms = ? WHERE thread_id = ?",
      dead,
      setup.clock.now(),
      THREAD,
    );
    expect(await other.vacuum?.()).toMatchObject({ bytesAfter: expect.any(Number) });
    expect(setup.raw("SELECT thread_id, pid FROM locks")).toEqual([{ thread_id: THREAD, pid: dead }]);
  });

  it("a read-only store refuses with STORE_ERROR (reason readonly), the file left as it was", async () => {
    const setup = storeFile();
    const writer = setup.open();
    await history(writer, 5);
    await writer.close();
    const before = contents(setup.file);
    const readonly = setup.open({ readonly: true });
    await expect(readonly.vacuum?.()).rejects.toMatchObject({
      code: "STORE_ERROR",
      data: { reason: "readonly" },
    });
    await readonly.close();
    expect(contents(setup.file)).toEqual(before);
  });

  it("a closed store refuses; the memory store has no vacuum (no file)", async () => {
    const setup = storeFile();
    const store = setup.open();
    await store.close();
    await expect(store.vacuum?.()).rejects.toMatchObject({ code: "STORE_CLOSED" });
    expect(createMemoryStore().vacuum).toBeUndefined();
  });
});
