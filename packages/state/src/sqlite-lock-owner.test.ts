import { existsSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import { threadId as currentThreadId } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import { sqliteStoreFiles } from "./__fixtures__/sqlite-store-files.js";
import { commitOf, RUN, runRecord, THREAD, write } from "./conformance/commit-fixtures.js";
import { createMemoryStore } from "./memory-store.js";
import type { StateStore } from "./store-types.js";

const { storeFile, closeAll } = sqliteStoreFiles("obelisk-lock-owner-");
afterAll(closeAll);

/** One file, stores on it in this thread of this process (two engines of one process), one manual clock. */
function ownerFile() {
  const { clock, open, raw } = storeFile();
  const row = () =>
    raw("SELECT owner, host, pid FROM locks WHERE thread_id = ?", THREAD)[0] as
      | { owner: string; host: string; pid: number }
      | undefined;
  /** Makes the thread's row another owner's (text as written), with a fresh heartbeat. */
  const ownedBy = (owner: string, pid = process.pid, host = hostname()) =>
    raw(
      "UPDATE locks SET owner = ?, host = ?, pid = ?, heartbeat_ms = ? WHERE thread_id = ?",
      owner,
      host,
      pid,
      clock.now(),
      THREAD,
    );
  return { clock, open, raw, row, ownedBy };
}

const here = `pid ${process.pid} on ${hostname()}`;
const HINT =
  "runs on one thread never overlap: wait for the other run, or let this one wait for the lock (the engine's lockWaitMs, the CLI's --lock-wait <ms>)";

async function busyError(store: StateStore): Promise<Record<string, unknown>> {
  return (await Promise.resolve(store.lockThread(THREAD)).then(
    () => expect.unreachable("the lock was taken"),
    (error: unknown) => error,
  )) as Record<string, unknown>;
}

describe("sqlite: the lock's owner names process, host, worker thread and store", () => {
  it("writes host, pid, this worker thread's id and a per-store token in the row", async () => {
    const setup = ownerFile();
    const a = setup.open();
    const b = setup.open();
    const lockA = await a.lockThread(THREAD);
    const rowA = setup.row();
    expect(rowA).toMatchObject({ host: hostname(), pid: process.pid });
    // then, on Linux, the boot and pid namespace: `@<boot id>.<namespace inode>`
    const tail = `:${process.pid}:t${currentThreadId}:[0-9a-f-]{36}(@[0-9a-f-]{36}\\.\\d+)?$`;
    expect(rowA?.owner).toMatch(new RegExp(tail));
    await lockA.release();
    expect(setup.row()).toBeUndefined();
    const lockB = await b.lockThread(THREAD);
    // the same process and thread, another store: another token
    expect(setup.row()?.owner).toMatch(new RegExp(tail));
    expect(setup.row()?.owner).not.toBe(rowA?.owner);
    await lockB.release();
  });

  it("two stores on one file in one process: THREAD_BUSY says another engine of this process, with the hint every lock gives", async () => {
    const setup = ownerFile();
    const a = setup.open();
    const b = setup.open();
    const lock = await a.lockThread(THREAD);
    const error = await busyError(b);
    expect(error).toMatchObject({
      code: "THREAD_BUSY",
      message: `thread "thread-1" is locked by another engine (store) of this process, on the same JavaScript thread (${here})`,
      hint: HINT,
      data: {
        threadId: THREAD,
        waitMs: 0,
        holder: { host: hostname(), pid: process.pid, workerThreadId: currentThreadId, sameProcess: true },
      },
    });
    // the in-process lock of one store gives the same hint
    await expect(a.lockThread(THREAD)).rejects.toMatchObject({ code: "THREAD_BUSY", hint: HINT });
    const memory = createMemoryStore();
    await memory.lockThread(THREAD);
    await expect(memory.lockThread(THREAD)).rejects.toMatchObject({ code: "THREAD_BUSY", hint: HINT });
    await lock.release();
    await (await b.lockThread(THREAD)).release();
  });

  it("names another worker thread of this process, the main thread, an old row's process and another process", async () => {
    const setup = ownerFile();
    const a = setup.open();
    const b = setup.open();
    await a.lockThread(THREAD);
    const other = currentThreadId + 7;
    setup.ownedBy(`${hostname()}:${process.pid}:t${other}:token-of-a-worker`);
    expect(await busyError(b)).toMatchObject({
      message: `thread "thread-1" is locked by the worker thread ${other} of this process (${here}); a worker terminated while it held the lock keeps it until its heartbeat is 30000 ms old`,
      hint: HINT,
      data: { holder: { workerThreadId: other, sameProcess: true } },
    });
    if (currentThreadId !== 0) {
      setup.ownedBy(`${hostname()}:${process.pid}:t0:token-of-main`);
      expect(await busyError(b)).toMatchObject({
        message: `thread "thread-1" is locked by the main thread of this process (${here})`,
        hint: HINT,
      });
    }
    // a row written before worker threads were named
    setup.ownedBy(`${hostname()}:${process.pid}:0b0c`);
    const old = await busyError(b);
    expect(old).toMatchObject({
      message: `thread "thread-1" is locked by another engine or worker thread of this process (${here})`,
      hint: HINT,
    });
    expect((old.data as { holder: object }).holder).toEqual({
      host: hostname(),
      pid: process.pid,
      sameProcess: true,
    });
    setup.ownedBy("build-7:4711:t0:token", 4711, "build-7");
    expect(await busyError(b)).toMatchObject({
      message: `thread "thread-1" is locked by process 4711 on host build-7`,
      hint: HINT,
      data: { holder: { host: "build-7", pid: 4711, workerThreadId: 0, sameProcess: false } },
    });
  });

  it("another worker thread's row is taken over by its heartbeat only; the run it left is marked with who held it", async () => {
    const setup = ownerFile();
    const a = setup.open();
    const b = setup.open();
    await a.lockThread(THREAD);
    await a.createRun(runRecord());
    const other = currentThreadId + 3;
    setup.ownedBy(`${hostname()}:${process.pid}:t${other}:gone-worker`);
    // a terminated worker cannot be told from a live one: reads leave its run running
    expect(await b.getRun(RUN)).toMatchObject({ status: "running" });
    await expect(b.lockThread(THREAD)).rejects.toMatchObject({ code: "THREAD_BUSY" });
    setup.clock.advance(30_001);
    const lock = await b.lockThread(THREAD);
    expect(await b.getRun(RUN)).toMatchObject({
      status: "interrupted",
      reason: `thread "thread-1" was locked again, its lock taken over from ${here} (worker thread ${other}) (no heartbeat for 30001 ms, over staleMs 30000): the run did not end`,
    });
    await lock.release();
  });

  it("a row of this thread that no store here holds (an earlier process with this pid) is taken over at once", async () => {
    const setup = ownerFile();
    const a = setup.open();
    await a.lockThread(THREAD);
    await a.createRun(runRecord());
    setup.ownedBy(`${hostname()}:${process.pid}:t${currentThreadId}:left-by-an-earlier-process`);
    const b = setup.open();
    const gone = `${here} (${currentThreadId === 0 ? "main thread" : `worker thread ${currentThreadId}`})`;
    // reading finds the run's holder gone
    expect(await b.getRun(RUN)).toMatchObject({
      status: "interrupted",
      reason: `the lock of thread "thread-1" (${gone}) was left behind (no store of its thread holds it: closed, or left by an earlier process with this pid): whoever held it stopped without ending this run`,
    });
    // and locking takes the row over without waiting for its heartbeat to go stale
    const lock = await b.lockThread(THREAD);
    expect(setup.row()?.owner).not.toContain("left-by-an-earlier-process");
    await lock.release();
  });

  // without /proc (not Linux) a process names no namespace, and host and pid are all there is
  it.skipIf(!existsSync("/proc/self/ns/pid"))(
    "a row from another pid namespace with this host name (another container) goes by its heartbeat only",
    async () => {
      const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
      // its pid 1 is not our pid 1, and a pid no process here has is not a dead process there
      for (const pid of [process.pid, 2 ** 22 + 1]) {
        const setup = ownerFile();
        const a = setup.open();
        await a.lockThread(THREAD);
        await a.createRun(runRecord());
        setup.ownedBy(`${hostname()}:${pid}:t${currentThreadId}:a-store-elsewhere@${boot}.1`, pid);
        const b = setup.open();
        expect(await b.getRun(RUN)).toMatchObject({ status: "running" });
        expect(await busyError(b)).toMatchObject({
          code: "THREAD_BUSY",
          data: { holder: { pid, sameProcess: false } },
        });
        setup.clock.advance(30_001);
        const lock = await b.lockThread(THREAD);
        expect(setup.row()?.owner).not.toContain("a-store-elsewhere");
        await lock.release();
      }
    },
  );

  it("a commit refused after a takeover names who took the lock over", async () => {
    const setup = ownerFile();
    const a = setup.open();
    const b = setup.open();
    await a.lockThread(THREAD);
    setup.clock.advance(30_001);
    await b.lockThread(THREAD);
    await expect(
      Promise.resolve().then(() => a.commitCall(commitOf({ callId: "late", writes: [write(["n"], 1)] }))),
    ).rejects.toMatchObject({
      code: "THREAD_BUSY",
      message: `thread "thread-1" is no longer locked by this run (another engine (store) of this process, on the same JavaScript thread (${here}) took the lock over): the commit was refused`,
      data: { threadId: THREAD, holder: { pid: process.pid, sameProcess: true } },
    });
  });
});
