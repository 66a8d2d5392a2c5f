import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LockHolder, RunRecord, StateStore } from "@obelisk/state";
import { createSqliteStore } from "@obelisk/state/sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { until } from "./__fixtures__/deferred.js";
import { steps } from "./__fixtures__/step-tool.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { engineRuns } from "./engine-runs.js";
import { createEngine, type Engine, type ToolDefinition } from "./index.js";

const plan = [
  { _tool: "step", key: "a", _outputPath: "†state.a" },
  { _tool: "step", key: "b", hang: true, _outputPath: "†state.b" },
];

/** The time every holder's heartbeat is written at (its store's clock stands still: no sleeps). */
const T0 = Date.parse("2026-11-27T08:00:00.000Z");

describe('runs.list({ status: "running", stale: true }) on SQLite', () => {
  let dir: string | undefined;
  const engines: Engine[] = [];
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.close().catch(() => undefined);
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const engineOn = (file: string, now: number, tool: ToolDefinition): Engine => {
    const engine = createEngine({ tools: [tool], store: createSqliteStore(file, { now: () => now }) });
    engines.push(engine);
    return engine;
  };

  /**
   * A run on thread `t` whose process hangs in call `b`: its lock row's heartbeat stays at T0 (as the row of
   * a process that died in another container or on another host, whose pid cannot be checked from here).
   */
  async function silentRun(): Promise<{ readonly file: string; readonly runId: string }> {
    dir = mkdtempSync(join(tmpdir(), "obelisk-stale-"));
    const file = join(dir, "state.db");
    const hung = steps(true);
    const holder = engineOn(file, T0, hung.tool);
    // at close its commits are refused (THREAD_BUSY) once the lock was taken over: not this test's concern
    holder.run(plan, { threadId: "t" }).catch(() => undefined);
    await until(() => hung.ran.includes("b"));
    const [run] = await holder.runs.list();
    return { file, runId: run?.runId as string };
  }

  const ids = async (engine: Engine, options: Parameters<Engine["runs"]["list"]>[0]) =>
    (await engine.runs.list(options)).map((run) => run.runId);

  it("lists a running run once its holder's heartbeat is older than staleMs (30,000), not before", async () => {
    const { file, runId } = await silentRun();
    const before = engineOn(file, T0 + 30_000, steps().tool);
    expect(await ids(before, { status: "running" })).toEqual([runId]);
    expect(await ids(before, { status: "running", stale: true })).toEqual([]);
    const after = engineOn(file, T0 + 30_001, steps().tool);
    expect(await ids(after, { status: "running", stale: true })).toEqual([runId]);
    expect(await ids(after, { status: "running", stale: true, threadId: "t", limit: 1 })).toEqual([runId]);
    expect(await ids(after, { status: "running", stale: true, threadId: "u" })).toEqual([]);
    // reading leaves the record as it is (the holder may be hung, not gone): it is not `interrupted`
    expect(await after.runs.list({ status: "interrupted" })).toEqual([]);
    expect((await after.runs.show(runId)).run.status).toBe("running");
  });

  it("resume takes the stale lock over and continues the run; it is not listed again", async () => {
    const { file, runId } = await silentRun();
    const next = steps();
    const engine = engineOn(file, T0 + 30_001, next.tool);
    expect(await ids(engine, { status: "running", stale: true })).toEqual([runId]);
    const resumed = await engine.resume(runId);
    expect(resumed.status).toBe("succeeded");
    expect(next.ran).toEqual(["b"]);
    expect((await engine.runs.show(runId)).run).toMatchObject({
      status: "cancelled",
      reason: expect.stringContaining("(no heartbeat for 30001 ms, over staleMs 30000)"),
    });
    expect(await engine.runs.list({ status: "running", stale: true })).toEqual([]);
  });
});

describe.each(storeKinds())('runs.list({ status: "running", stale: true }) on the $name store', (kind) => {
  const engines: Engine[] = [];
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.close().catch(() => undefined);
    kind.cleanup();
  });

  it("leaves out a run this engine has in progress", async () => {
    const hung = steps(true);
    const engine = createEngine({ tools: [hung.tool], store: kind.open() });
    engines.push(engine);
    engine.run(plan, { threadId: "t" }).catch(() => undefined);
    await until(() => hung.ran.includes("b"));
    expect((await engine.runs.list({ status: "running" })).map((run) => run.threadId)).toEqual(["t"]);
    expect(await engine.runs.list({ status: "running", stale: true })).toEqual([]);
  });
});

/** A `running` run record of `threadId` (what a store lists; only its id, thread and status are read). */
const running = (runId: string, threadId: string): RunRecord =>
  ({ runId, threadId, status: "running" }) as unknown as RunRecord;

/** A store answering `runs` to every listRuns (recording the options) and `holders` to lockHolder. */
function fakeStore(runs: readonly RunRecord[], holders?: Record<string, LockHolder | undefined>) {
  const asked: unknown[] = [];
  const store = {
    listRuns: (options: unknown) => {
      asked.push(options);
      return runs;
    },
    ...(holders === undefined ? {} : { lockHolder: (threadId: string) => holders[threadId] }),
  } as unknown as StateStore;
  return { runs: engineRuns(store), asked };
}

const HOLDER = { host: "h", pid: 1, sameProcess: false } as const;

describe("runs.list's stale, by the store's lockHolder", () => {
  it("keeps the runs of threads held by nobody or by a heartbeat older than staleMs; limit counts those", async () => {
    const { runs, asked } = fakeStore(
      [running("r1", "fresh"), running("r2", "stale"), running("r3", "free"), running("r4", "memory")],
      {
        fresh: { ...HOLDER, heartbeatAgeMs: 30_000, staleMs: 30_000 },
        stale: { ...HOLDER, heartbeatAgeMs: 30_001, staleMs: 30_000 },
        free: undefined,
        // the memory store's holder has no heartbeat: a run of that very store, never taken over
        memory: { ...HOLDER, sameProcess: true },
      },
    );
    const listed = async (limit?: number) =>
      (await runs.list({ status: "running", stale: true, ...(limit === undefined ? {} : { limit }) })).map(
        (run) => run.runId,
      );
    expect(await listed()).toEqual(["r2", "r3"]);
    expect(await listed(1)).toEqual(["r2"]);
    // the store is asked for every running run: the limit applies to the stale ones
    expect(asked).toEqual([{ status: "running" }, { status: "running" }]);
  });

  it("is USAGE unless true with status running, and for a store without lockHolder", async () => {
    const { runs } = fakeStore([running("r1", "t")], {});
    for (const options of [{ stale: true }, { stale: true, status: "interrupted" }]) {
      await expect(runs.list(options as never)).rejects.toMatchObject({
        code: "USAGE",
        message: expect.stringContaining('needs status "running"'),
        hint: expect.stringContaining('runs.list({ status: "running", stale: true })'),
      });
    }
    for (const stale of [false, 1, "yes"]) {
      await expect(runs.list({ status: "running", stale } as never)).rejects.toMatchObject({
        code: "USAGE",
        message: expect.stringContaining("runs.list's stale must be true"),
      });
    }
    const blind = fakeStore([running("r1", "t")]).runs;
    await expect(blind.list({ status: "running", stale: true })).rejects.toMatchObject({
      code: "USAGE",
      message: expect.stringContaining("needs a store with lockHolder()"),
    });
    expect((await blind.list({ status: "running" })).map((run) => run.runId)).toEqual(["r1"]);
  });
});
