import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createEngine, type JsonObject } from "obelisk";
import { createSqliteStore } from "obelisk/sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CRASH_PLAN_CALLS, crashPlan, crashTools } from "./fixtures/crash-plan.js";
import { bundleChild } from "./support/bundle-child.js";
import { fuzzSeed, seededRandom } from "./support/fuzz-seed.js";
import { integrityCheck } from "./support/sqlite-integrity.js";

const TRIALS = Number(process.env.OBELISK_CRASH_TRIALS ?? 20);
const PARALLEL = 2;
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

/** Runs the child until it has logged `killAfter` executions, then SIGKILLs it. Resolves when it is gone. */
function runAndKill(
  db: string,
  side: string,
  runId: string,
  killAfter: number,
): Promise<{ killed: boolean }> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [bundle, db, side, "crash", runId], {
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

async function referenceState(): Promise<JsonObject> {
  const side = join(workDir, "reference.side");
  const engine = createEngine({
    tools: crashTools(side) as never,
    store: createSqliteStore(join(workDir, "reference.db")),
  });
  const result = await engine.run(crashPlan(), { threadId: "crash" });
  await engine.close();
  expect(result.status).toBe("succeeded");
  expect(sideEntries(side)).toHaveLength(CRASH_PLAN_CALLS);
  return result.state;
}

/** One trial: kill at a seeded moment, check the database, resume, check every property. */
async function trial(index: number, killAfter: number, expected: JsonObject): Promise<void> {
  const db = join(workDir, `trial-${index}.db`);
  const side = join(workDir, `trial-${index}.side`);
  const runId = `crash-run-${index}`;
  const { killed } = await runAndKill(db, side, runId, killAfter);
  const executedBefore = sideEntries(side);
  expect(integrityCheck(db)).toBe("ok");

  const store = createSqliteStore(db);
  const committed = (await store.listCallRecords(runId as never)).filter(
    (record) => record.status === "succeeded",
  );
  const committedIds = new Set(committed.map((record) => record.callId as string));
  const logBefore = await store.readWriteLog("crash" as never);
  // Every committed call was executed by the child (a record never appears without its execution).
  for (const id of committedIds) expect(executedBefore).toContain(id);

  const engine = createEngine({ tools: crashTools(side) as never, store });
  const resumed = await engine.resume(runId);
  const executedDuring = sideEntries(side).slice(executedBefore.length);
  const logAfter = await store.readWriteLog("crash" as never);
  const original = await store.getRun(runId as never);
  await engine.close();
  // The crashed run does not stay "running" forever once resumed.
  expect(original?.status).not.toBe("running");

  expect(resumed.status).toBe("succeeded");
  expect(resumed.state).toEqual(expected);
  // A call whose completion was committed before the kill never runs again.
  expect(executedDuring.filter((id) => committedIds.has(id))).toEqual([]);
  // Every call runs at least once overall (at-least-once), and nothing committed is lost.
  expect(new Set([...executedBefore, ...executedDuring]).size).toBe(CRASH_PLAN_CALLS);
  expect(logAfter.slice(0, logBefore.length)).toEqual(logBefore);
  expect(integrityCheck(db)).toBe("ok");

  crashFigures.trials += 1;
  if (killed && committedIds.size < CRASH_PLAN_CALLS) crashFigures.killedMidRun += 1;
  else crashFigures.finishedBeforeKill += 1;
  crashFigures.executionsBeforeKill += executedBefore.length;
  crashFigures.reExecuted += executedDuring.filter((id) => executedBefore.includes(id)).length;
}

describe("crash and resume (SQLite, SIGKILL at a seeded moment)", () => {
  it(`survives ${TRIALS} kills: state equals an uninterrupted run, committed calls never rerun`, async () => {
    const seed = fuzzSeed();
    const random = seededRandom(seed);
    const expected = await referenceState();
    const moments = Array.from({ length: TRIALS }, () => 1 + Math.floor(random() * CRASH_PLAN_CALLS));
    let next = 0;
    const worker = async () => {
      while (next < moments.length) {
        const index = next++;
        try {
          await trial(index, moments[index] as number, expected);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          throw new Error(
            `trial ${index} (kill after ${moments[index]} executions, OBELISK_FUZZ_SEED=${seed}): ${message}`,
            { cause: error },
          );
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    expect(crashFigures.trials).toBe(TRIALS);
    expect(crashFigures.killedMidRun).toBeGreaterThan(TRIALS / 2);
    console.log(`crash-resume figures: ${JSON.stringify(crashFigures)}`);
  }, 180_000);
});
