import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createEngine, type JsonObject } from "obelisk";
import { createSqliteStore } from "obelisk/sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CRASH_PLAN_CALLS, crashPlan, crashTools, STORED_CALLS } from "./fixtures/crash-plan.js";
import { bundleChild } from "./support/bundle-child.js";
import { fuzzSeed, seededRandom } from "./support/fuzz-seed.js";
import { integrityCheck } from "./support/sqlite-integrity.js";

const TRIALS = Number(process.env.OBELISK_CRASH_TRIALS ?? 20);
const PARALLEL = 2;
const STREAM_TRIALS = Math.max(1, Math.ceil(TRIALS / 3));
const CHILD = fileURLToPath(new URL("./fixtures/crash-child.ts", import.meta.url));
const workDir = mkdtempSync(join(tmpdir(), "obelisk-crash-"));
const bundle = join(workDir, "crash-child.mjs");

beforeAll(async () => {
  await bundleChild(CHILD, bundle);
});

/** Figures for docs/reliability.md. */
export const crashFigures = {
  trials: 0,
  killedMidRun: 0,
  finishedBeforeKill: 0,
  committedBeforeKill: 0,
  killedDuringResume: 0,
  executionsBeforeKill: 0,
  reExecuted: 0,
};

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

function sideEntries(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => line.split(" ")[0] as string);
}

/**
 * Runs the child until it has logged `killAfter` executions, then SIGKILLs it; the child holds that
 * execution open, so the kill always lands while the run is unfinished. Resolves when the child is gone.
 */
function runAndKill(
  db: string,
  side: string,
  runId: string,
  killAfter: number,
  mode: "run" | "resume" | "stream" = "run",
): Promise<{ killed: boolean }> {
  return new Promise((resolve, reject) => {
    const args = [bundle, db, side, "crash", runId, mode, String(killAfter)];
    const child: ChildProcess = spawn(process.execPath, args, {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let ticks = 0;
    let killed = false;
    let stderr = "";
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => {
      ticks += chunk.split("tick").length - 1;
      if (!killed && ticks >= killAfter) {
        killed = child.kill("SIGKILL");
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (signal === "SIGKILL" || code === 0) resolve({ killed: signal === "SIGKILL" });
      else reject(new Error(`child exited with ${code}: ${stderr}`));
    });
  });
}

async function reference(): Promise<{ state: JsonObject; outputs: Record<string, unknown> }> {
  const side = join(workDir, "reference.side");
  const engine = createEngine({
    tools: crashTools(side) as never,
    store: createSqliteStore(join(workDir, "reference.db")),
  });
  const result = await engine.run(crashPlan(), { threadId: "crash" });
  const outputs = await storedOutputs(engine);
  await engine.close();
  expect(result.status).toBe("succeeded");
  expect(sideEntries(side)).toHaveLength(CRASH_PLAN_CALLS);
  expect(Object.keys(outputs)).toEqual(STORED_CALLS);
  return { state: result.state, outputs };
}

/** The stored call outputs (†calls.<id>) of the crash plan's thread. */
async function storedOutputs(engine: ReturnType<typeof createEngine>): Promise<Record<string, unknown>> {
  const outputs: Record<string, unknown> = {};
  for (const id of STORED_CALLS) {
    const read = await engine.get("crash", `†calls.${id}`);
    if ("value" in read) outputs[id] = read.value;
  }
  return outputs;
}

/** Ids of the calls with a committed `succeeded` record in these runs, and the thread's write log. */
async function committedIn(db: string, runIds: readonly string[]) {
  const store = createSqliteStore(db);
  const ids = new Set<string>();
  for (const runId of runIds) {
    for (const record of await store.listCallRecords(runId as never)) {
      if (record.status === "succeeded") ids.add(record.callId);
    }
  }
  const log = await store.readWriteLog("crash" as never);
  await store.close();
  return { ids, log };
}

/**
 * One trial: kill at a seeded moment; optionally resume in a child and kill that too; check the database,
 * resume in-process, check every property.
 */
async function trial(
  index: number,
  killAfter: number,
  resumeKillAfter: number | undefined,
  expected: { state: JsonObject; outputs: Record<string, unknown> },
) {
  const db = join(workDir, `trial-${index}.db`);
  const side = join(workDir, `trial-${index}.side`);
  const runId = `crash-run-${index}`;
  const { killed } = await runAndKill(db, side, runId, killAfter);
  expect(killed).toBe(true);
  const executedFirst = sideEntries(side);
  expect(integrityCheck(db)).toBe("ok");
  let { ids: committed, log: logBefore } = await committedIn(db, [runId]);
  // A record never appears without its execution.
  for (const id of committed) expect(executedFirst).toContain(id);
  const committedFirst = committed.size;
  // The held execution never commits: the kill always lands mid-run.
  expect(committedFirst).toBeLessThan(CRASH_PLAN_CALLS);
  crashFigures.committedBeforeKill += committedFirst;
  let executedBefore = executedFirst;
  let killedTwice = false;
  if (resumeKillAfter !== undefined && committed.size < CRASH_PLAN_CALLS) {
    killedTwice = (await runAndKill(db, side, runId, resumeKillAfter, "resume")).killed;
    expect(integrityCheck(db)).toBe("ok");
    executedBefore = sideEntries(side);
    const duringChildResume = executedBefore.slice(executedFirst.length);
    expect(duringChildResume.filter((id) => committed.has(id))).toEqual([]);
    const after = await committedIn(db, [runId, `${runId}-resumed`]);
    for (const id of committed) expect(after.ids).toContain(id);
    expect(after.log.slice(0, logBefore.length)).toEqual(logBefore);
    ({ ids: committed, log: logBefore } = after);
  }

  const store = createSqliteStore(db);
  const engine = createEngine({ tools: crashTools(side) as never, store });
  // A run is resumed once (decision 0070): once the child's resume has continued it, the rest is that
  // resume's to finish — resumed again when it was killed too, read as it is when it finished.
  const child = await store.getRun(`${runId}-resumed` as never);
  const resumed =
    child?.status === "succeeded"
      ? { status: child.status, state: await store.readState("crash" as never) }
      : await engine.resume(child === undefined ? runId : child.runId);
  const executedDuring = sideEntries(side).slice(executedBefore.length);
  const logAfter = await store.readWriteLog("crash" as never);
  const outputsAfter = await storedOutputs(engine);
  const original = await store.getRun(runId as never);
  await engine.close();
  // The crashed run does not stay "running" once resumed.
  expect(original?.status).not.toBe("running");
  expect(resumed.status).toBe("succeeded");
  expect(resumed.state).toEqual(expected.state);
  // Stored call outputs (†calls.<id>, not in the state) are all there, with the uninterrupted run's values.
  expect(outputsAfter).toEqual(expected.outputs);
  // A call whose completion was committed before a kill never runs again.
  expect(executedDuring.filter((id) => committed.has(id))).toEqual([]);
  // Every call ran at least once overall (at-least-once), and nothing committed is lost.
  expect(new Set([...executedBefore, ...executedDuring]).size).toBe(CRASH_PLAN_CALLS);
  expect(logAfter.slice(0, logBefore.length)).toEqual(logBefore);
  expect(integrityCheck(db)).toBe("ok");

  crashFigures.trials += 1;
  if (killed && committedFirst < CRASH_PLAN_CALLS) crashFigures.killedMidRun += 1;
  else crashFigures.finishedBeforeKill += 1;
  if (killedTwice) crashFigures.killedDuringResume += 1;
  crashFigures.executionsBeforeKill += executedBefore.length;
  const all = [...executedBefore, ...executedDuring];
  crashFigures.reExecuted += all.length - new Set(all).size;
}

/** The state and stored outputs of an uninterrupted run of the crash plan's first `count` calls. */
async function prefixReference(count: number) {
  const engine = createEngine({ tools: crashTools(join(workDir, `prefix-${count}.side`)) as never });
  const result = await engine.run(
    { type: "plan", plan: crashPlan().plan.slice(0, count) },
    { threadId: "crash" },
  );
  await engine.close();
  expect(result.status).toBe("succeeded");
  return result.state;
}

/**
 * A streaming run killed at a seeded moment: every call that ran is in the run record, the record holds
 * the accepted calls in order, and resume runs exactly the accepted calls that had not committed.
 */
async function streamTrial(index: number, killAfter: number) {
  const db = join(workDir, `stream-${index}.db`);
  const side = join(workDir, `stream-${index}.side`);
  const runId = `crash-stream-${index}`;
  const { killed } = await runAndKill(db, side, runId, killAfter, "stream");
  expect(killed).toBe(true);
  const executedFirst = sideEntries(side);
  expect(integrityCheck(db)).toBe("ok");
  const { ids: committed } = await committedIn(db, [runId]);
  const store = createSqliteStore(db);
  const record = await store.getRun(runId as never);
  // the killed child's lock row names a pid that is gone: the run reads interrupted
  expect(record).toMatchObject({ status: "interrupted", reason: expect.stringContaining("is gone") });
  const accepted = ((record?.plan as { plan?: { _id: string }[] } | undefined)?.plan ?? []).map(
    (call) => call._id,
  );
  // the calls arrived in plan order; none ran before it was in the record
  expect(accepted).toEqual(
    crashPlan()
      .plan.slice(0, accepted.length)
      .map((call) => call._id),
  );
  for (const id of executedFirst) expect(accepted).toContain(id);
  const engine = createEngine({ tools: crashTools(side) as never, store });
  const resumed = await engine.resume(runId);
  const executedDuring = sideEntries(side).slice(executedFirst.length);
  await engine.close();
  expect(resumed.status).toBe("succeeded");
  expect(Object.keys(resumed.calls).sort()).toEqual([...accepted].sort());
  expect(executedDuring.filter((id) => committed.has(id))).toEqual([]);
  expect(new Set([...executedFirst, ...executedDuring])).toEqual(new Set(accepted));
  expect(resumed.state).toEqual(await prefixReference(accepted.length));
  expect(integrityCheck(db)).toBe("ok");
}

describe("crash and resume (SQLite, SIGKILL at a seeded moment)", () => {
  it("a streaming run killed mid-stream resumes exactly the accepted calls that had not committed", async () => {
    const seed = fuzzSeed();
    const random = seededRandom(seed + 1);
    for (let index = 0; index < STREAM_TRIALS; index++) {
      const killAfter = 1 + Math.floor(random() * CRASH_PLAN_CALLS);
      try {
        await streamTrial(index, killAfter);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new Error(
          `stream trial ${index} (kill after ${killAfter} executions, OBELISK_FUZZ_SEED=${seed}): ${message}`,
          {
            cause: error,
          },
        );
      }
    }
  }, 120_000);

  it(`survives ${TRIALS} kills: state equals an uninterrupted run, committed calls never rerun`, async () => {
    const seed = fuzzSeed();
    const random = seededRandom(seed);
    const expected = await reference();
    const moments = Array.from({ length: TRIALS }, (_, index) => ({
      first: 1 + Math.floor(random() * CRASH_PLAN_CALLS),
      // Every fourth trial also kills the resuming process (a crash during recovery).
      resume: index % 4 === 3 ? 1 + Math.floor(random() * 10) : undefined,
    }));
    let next = 0;
    const worker = async () => {
      while (next < moments.length) {
        const index = next++;
        try {
          const moment = moments[index] as { first: number; resume: number | undefined };
          await trial(index, moment.first, moment.resume, expected);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          throw new Error(
            `trial ${index} (kill after ${JSON.stringify(moments[index])} executions, OBELISK_FUZZ_SEED=${seed}): ${message}`,
            { cause: error },
          );
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    expect(crashFigures.trials).toBe(TRIALS);
    expect(crashFigures.killedMidRun).toBe(TRIALS);
    console.log(`crash-resume figures: ${JSON.stringify(crashFigures)}`);
  }, 180_000);
});
