import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { threadId as currentThreadId } from "node:worker_threads";
import { asThreadId } from "@obelisk/core";
import { afterAll, describe, expect, it } from "vitest";
import { sqliteStoreFiles } from "./__fixtures__/sqlite-store-files.js";
import { runRecord, THREAD } from "./conformance/commit-fixtures.js";

const { storeFile, closeAll } = sqliteStoreFiles("obelisk-lock-holder-");
afterAll(closeAll);

/** The pid of a process that has exited (and been reaped): no process has it now. */
const deadPid = (): number => {
  const child = spawnSync(process.execPath, ["-e", ""]);
  if (child.pid === undefined) throw new Error("no child process");
  return child.pid;
};

const HERE = { host: hostname(), pid: process.pid, workerThreadId: currentThreadId, sameProcess: true };

/** A file whose thread lock a store holds (its heartbeat at the clock's start), and its row as read raw. */
async function heldFile() {
  const setup = storeFile();
  const holder = setup.open();
  const lock = await holder.lockThread(THREAD);
  await holder.createRun(runRecord());
  const row = () => setup.raw("SELECT * FROM locks WHERE thread_id = ?", THREAD);
  const start = setup.clock.now();
  return { ...setup, holder, lock, row, start };
}

describe("sqlite: lockHolder reads the thread's locks row", () => {
  it("names the row's owner as THREAD_BUSY does, with its heartbeat, its age by the store clock, and staleMs", async () => {
    const setup = await heldFile();
    const other = setup.open({ lock: { staleMs: 10_000 } });
    setup.clock.advance(2_500);
    expect(await other.lockHolder?.(THREAD)).toEqual({
      ...HERE,
      heartbeatAt: new Date(setup.start).toISOString(),
      heartbeatAgeMs: 2_500,
      staleMs: 10_000,
    });
    // the holding store answers the same of its own row (default staleMs)
    expect(await setup.holder.lockHolder?.(THREAD)).toMatchObject({
      ...HERE,
      heartbeatAgeMs: 2_500,
      staleMs: 30_000,
    });
    const busy = await Promise.resolve(other.lockThread(THREAD)).catch((error: unknown) => error);
    expect(busy).toMatchObject({ code: "THREAD_BUSY", data: { holder: HERE } });
    await setup.lock.release();
    expect(await other.lockHolder?.(THREAD)).toBeUndefined();
  });

  it("works on a store opened read-only, and leaves the row (owner, heartbeat) as it was", async () => {
    const setup = await heldFile();
    const before = setup.row();
    const readonly = setup.open({ readonly: true });
    setup.clock.advance(45_000);
    // a stale heartbeat is still answered: the process may be hung; the next lockThread takes it over
    expect(await readonly.lockHolder?.(THREAD)).toEqual({
      ...HERE,
      heartbeatAt: new Date(setup.start).toISOString(),
      heartbeatAgeMs: 45_000,
      staleMs: 30_000,
    });
    expect(setup.row()).toEqual(before);
    await expect(readonly.lockThread(THREAD)).rejects.toMatchObject({
      code: "STORE_ERROR",
      data: { reason: "readonly" },
    });
    expect(await readonly.lockHolder?.(THREAD)).toMatchObject({ heartbeatAgeMs: 45_000 });
    expect(await readonly.lockHolder?.(asThreadId("t2"))).toBeUndefined();
    expect(setup.row()).toEqual(before);
  });

  it("a row of another host, and one of an earlier version naming no worker thread", async () => {
    const setup = await heldFile();
    setup.raw(
      "UPDATE locks SET owner = 'build-7:4711:legacy', host = 'build-7', pid = 4711 WHERE thread_id = ?",
      THREAD,
    );
    const reader = setup.open({ readonly: true });
    expect(await reader.lockHolder?.(THREAD)).toEqual({
      host: "build-7",
      pid: 4711,
      sameProcess: false,
      heartbeatAt: new Date(setup.start).toISOString(),
      heartbeatAgeMs: 0,
      staleMs: 30_000,
    });
  });

  it("a row of a process of this host that is gone is no holder (it is taken over at once), and stays as it was", async () => {
    const setup = await heldFile();
    const pid = deadPid();
    setup.raw("UPDATE locks SET owner = 'gone', pid = ? WHERE thread_id = ?", pid, THREAD);
    const before = setup.row();
    const readonly = setup.open({ readonly: true });
    expect(await readonly.lockHolder?.(THREAD)).toBeUndefined();
    expect(setup.row()).toEqual(before);
    // as a lock taken now finds it: taken over at once
    const writer = setup.open();
    const taken = await writer.lockThread(THREAD);
    expect(await readonly.lockHolder?.(THREAD)).toMatchObject(HERE);
    await taken.release();
  });

  it("a row of this thread that no store of it holds (left behind) is no holder", async () => {
    const setup = await heldFile();
    setup.raw(
      "UPDATE locks SET owner = ? WHERE thread_id = ?",
      `${hostname()}:${process.pid}:t${currentThreadId}:no-such-store`,
      THREAD,
    );
    expect(await setup.open({ readonly: true }).lockHolder?.(THREAD)).toBeUndefined();
  });
});
