import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { sqliteStoreFiles } from "./__fixtures__/sqlite-store-files.js";
import { RUN, runRecord, THREAD } from "./conformance/commit-fixtures.js";
import type { StateStore } from "./store-types.js";

const { storeFile, closeAll } = sqliteStoreFiles("obelisk-interrupted-");
afterAll(closeAll);

/** The pid of a process that has exited (and been reaped): no process has it now. */
const deadPid = (): number => {
  const child = spawnSync(process.execPath, ["-e", ""]);
  if (child.pid === undefined) throw new Error("no child process");
  return child.pid;
};

/** `store` runs r1 on the thread (holding its lock); the lock row is then made `owner`'s on `host` with `pid`. */
async function runOwnedBy(
  setup: ReturnType<typeof storeFile>,
  store: StateStore,
  row: { readonly host: string; readonly pid: number; readonly heartbeatMs?: number },
): Promise<void> {
  await store.lockThread(THREAD);
  await store.createRun(runRecord());
  setup.raw(
    "UPDATE locks SET owner = 'another process', host = ?, pid = ?, heartbeat_ms = ? WHERE thread_id = ?",
    row.host,
    row.pid,
    row.heartbeatMs ?? setup.clock.now(),
    THREAD,
  );
}

const statusInFile = (setup: ReturnType<typeof storeFile>): unknown =>
  (setup.raw("SELECT status FROM runs WHERE run_id = ?", RUN)[0] as { status: string }).status;

describe("sqlite: a run whose process stopped is found interrupted", () => {
  it("a run another connection has in progress is never marked, by reads or a refused lock", async () => {
    const setup = storeFile();
    const a = setup.open();
    const b = setup.open();
    const lock = await a.lockThread(THREAD);
    await a.createRun(runRecord());
    expect(await b.getRun(RUN)).toMatchObject({ status: "running" });
    expect(await b.listRuns({ status: "interrupted" })).toEqual([]);
    expect((await b.listRuns({ status: "running" })).map((run) => run.runId)).toEqual([RUN]);
    await expect(b.lockThread(THREAD)).rejects.toMatchObject({ code: "THREAD_BUSY" });
    await a.finishRun(RUN, "succeeded", "t");
    await lock.release();
    expect(await b.getRun(RUN)).toMatchObject({ status: "succeeded" });
    expect(await b.getRun(RUN)).not.toHaveProperty("reason");
  });

  it("the lock row of a process of this host that is gone: a read marks the run, in the file", async () => {
    const setup = storeFile();
    const pid = deadPid();
    await runOwnedBy(setup, setup.open(), { host: hostname(), pid });
    const b = setup.open();
    expect(await b.getRun(RUN)).toMatchObject({
      status: "interrupted",
      endedAt: new Date(setup.clock.now()).toISOString(),
      reason: `the process holding thread "thread-1" (pid ${pid} on ${hostname()}) is gone: it stopped without ending this run`,
    });
    expect(statusInFile(setup)).toBe("interrupted");
  });

  it("another host's row with a stale heartbeat: reads leave the run, a lock taking it over marks it", async () => {
    const setup = storeFile();
    const old = setup.clock.now() - 60_000;
    await runOwnedBy(setup, setup.open(), { host: "elsewhere", pid: process.pid, heartbeatMs: old });
    const b = setup.open();
    // the process elsewhere may be hung, not gone: only the takeover decides
    expect(await b.getRun(RUN)).toMatchObject({ status: "running" });
    expect(await b.listRuns({ status: "interrupted" })).toEqual([]);
    const lock = await b.lockThread(THREAD);
    expect(await b.getRun(RUN)).toMatchObject({
      status: "interrupted",
      reason: `thread "thread-1" was locked again, its lock taken over from pid ${process.pid} on elsewhere (no heartbeat for 60000 ms, over staleMs 30000): the run did not end`,
    });
    await lock.release();
  });

  it("a read-only store answers the run interrupted without writing the file", async () => {
    const setup = storeFile();
    await runOwnedBy(setup, setup.open(), { host: hostname(), pid: deadPid() });
    const readonly = setup.open({ readonly: true });
    expect(await readonly.getRun(RUN)).toMatchObject({ status: "interrupted" });
    expect((await readonly.listRuns({ status: "interrupted" })).map((run) => run.runId)).toEqual([RUN]);
    expect(await readonly.listRuns({ status: "running" })).toEqual([]);
    expect(statusInFile(setup)).toBe("running");
  });

  it("a file written without the runs_status index gets it at the next writable open; read-only works without", async () => {
    const setup = storeFile();
    await runOwnedBy(setup, setup.open(), { host: hostname(), pid: deadPid() });
    setup.raw("DROP INDEX runs_status");
    const index = () => setup.raw("SELECT name FROM sqlite_master WHERE name = 'runs_status'");
    const readonly = setup.open({ readonly: true });
    expect((await readonly.listRuns({ status: "interrupted" })).map((run) => run.runId)).toEqual([RUN]);
    expect(index()).toEqual([]);
    const writable = setup.open();
    expect(index()).toEqual([{ name: "runs_status" }]);
    expect((await writable.listRuns({ status: "interrupted" })).map((run) => run.runId)).toEqual([RUN]);
    expect(statusInFile(setup)).toBe("interrupted");
  });
});
