import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { JsonValue } from "@obelisk/core";
import fc from "fast-check";
import { createEngine, createMemoryStore, type Engine, type RunResult } from "obelisk";
import { createSqliteStore } from "obelisk/sqlite";
import { afterAll, describe, it } from "vitest";
import { outcomeProblems } from "./support/check-outcomes.js";
import { crashable } from "./support/crashable-store.js";
import { seededRandom, withSeed } from "./support/fuzz-seed.js";
import { arrivalOrder } from "./support/model-arrival.js";
import {
  clobber,
  engineCalls,
  giveApprovals,
  inputOf,
  seededThread,
  threadProblems,
} from "./support/model-compare.js";
import { callJson, canonical, type ModelCall } from "./support/model-plan.js";
import { type ModelScenario, modelScenario } from "./support/model-plan-generator.js";
import { modelConfirm, modelTools, Schedule } from "./support/model-schedule.js";
import {
  committedThread,
  type EngineCall,
  interpretRun,
  type ModelRun,
  type ModelThread,
} from "./support/reference-interpreter.js";

/**
 * The model-based differential test (model-run.property.test.ts) across interruptions and arrival orders,
 * on the same random plans and the same reference interpreter (support/reference-*.ts):
 * - **interrupted and continued**: a batch run on a SQLite file stopped at a seeded tool call — its signal
 *   aborted (SPEC §7 cancellation), its engine closed (decision 0030), or its engine dropped as a process
 *   dies (the store stops answering and its locks go; 0025) — leaves exactly the committed calls' writes
 *   (SPEC §8: durable per call, nothing half-written) and calls that ended as an uninterrupted run ends
 *   them; then `resume` in an engine on the reopened file, or the plan sent again with `run`, ends as the
 *   model says: no completed call runs again on resume (0012, 0045), the tools called are exactly the
 *   model's, and a resume reaches the uninterrupted run's state (SPEC §7 satisfied, §8 at-least-once);
 * - **streamed out of order**: `engine.open` runs whose calls arrive in a seeded order (a reader before
 *   its writer, a call after its writer finished) interleaved with tool settlements end as the batch run
 *   of the plan (the obelisk README's streaming order rule: no `STREAM_ORDER` warning for such an order).
 *
 * A divergence prints the plan as JSON; `OBELISK_FUZZ_SEED` reproduces it (support/fuzz-seed.ts).
 */

/** Scenarios per property (OBELISK_MODEL_RESUME_SCENARIOS); the CI default keeps each under ~3 s. */
const SCENARIOS = Number(process.env.OBELISK_MODEL_RESUME_SCENARIOS ?? 40);
/** Each property's time limit: generous, as a loaded machine runs a scenario in up to ~0.5 s. */
const TIMEOUT_MS = Math.max(60_000, SCENARIOS * 1_500);

const dir = mkdtempSync(join(tmpdir(), "obelisk-model-resume-"));
const file = join(dir, "model.db");

let schedule = new Schedule(seededRandom(1));
/** The engine that seeds threads and continues interrupted runs, on the SQLite file. */
const survivor = createEngine({
  tools: modelTools(() => schedule) as never,
  store: createSqliteStore(file),
  confirm: modelConfirm,
});
let streamSchedule = new Schedule(seededRandom(1));
/** The engine of the streamed runs (a memory store: streaming order, not durability). */
const streaming = createEngine({
  tools: modelTools(() => streamSchedule) as never,
  store: createMemoryStore(),
  confirm: modelConfirm,
});
afterAll(async () => {
  await streaming.close();
  await survivor.close();
  rmSync(dir, { recursive: true, force: true });
});

const figures = {
  scenarios: 0,
  stopped: 0,
  committed: 0,
  cancelled: 0,
  rerunOnContinue: 0,
  satisfiedOnContinue: 0,
  resumedTwice: 0,
  changed: 0,
  streamed: 0,
  readerFirst: 0,
};
afterAll(() => {
  console.log(`model-resume figures: ${JSON.stringify(figures)}`);
});

type Stop = "signal" | "close" | "crash";
/** The run record's status after each way of stopping it (decisions 0025, 0030). */
const STOPPED_STATUS: Record<Stop, string> = {
  signal: "cancelled",
  close: "interrupted",
  crash: "interrupted",
};
interface InterruptScenario {
  readonly base: ModelScenario;
  readonly stop: Stop;
  /** Which of the uninterrupted run's tool calls stops the run (modulo their number). */
  readonly at: number;
  /** The stopped run is a stream (`engine.open`) of the calls in a seeded arrival order. */
  readonly streamed: boolean;
  /** The resume is stopped too (its signal, after a few tool answers), and resumed in turn. */
  readonly resumeStopped: boolean;
  /** The thread changes between the stop and what continues it (the base scenario's approvals and clobber). */
  readonly changed: boolean;
  /** `resume` the interrupted run, or send the plan again with `run`. */
  readonly continueWith: "resume" | "resend";
}

const interruptScenario: fc.Arbitrary<InterruptScenario> = fc.record({
  base: modelScenario,
  stop: fc.constantFrom<Stop>("signal", "close", "crash"),
  at: fc.nat(1_000),
  streamed: fc.nat(2).map((n) => n === 0),
  resumeStopped: fc.nat(2).map((n) => n === 0),
  changed: fc.nat(2).map((n) => n === 0),
  continueWith: fc.constantFrom<InterruptScenario["continueWith"]>("resume", "resume", "resend"),
});

/** The calls whose tool the model runs (a latent tool has no `run`). */
function toolCalls(plan: readonly ModelCall[], model: ModelRun): string[] {
  return plan
    .filter((call) => call.tool !== "gamma")
    .filter((call) => ["succeeded", "failed"].includes(model.outcomes[call.id]?.status ?? ""))
    .map((call) => call.id)
    .sort();
}

/** Compares a run's status, outcomes' shape and thread with the model's run of it. */
async function runProblems(
  threadId: string,
  plan: readonly ModelCall[],
  result: RunResult,
  model: ModelRun,
  thread: ModelThread,
): Promise<string[]> {
  const problems = [...model.problems, ...outcomeProblems(result)];
  if (result.status !== model.status)
    problems.push(`run status: engine ${result.status}, model ${model.status}`);
  problems.push(...(await threadProblems(survivor, threadId, result.state, plan, thread)));
  return problems;
}

/** A few turns of the event loop (tool settlements) between two calls of a stream. */
async function pause(random: () => number): Promise<void> {
  for (let turns = Math.floor(random() * 4); turns > 0; turns -= 1)
    await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs the plan — at once, or streamed in `order` and closed — until its tools have answered `at` times
 * and every call was sent, then stops it (the signal's run in the surviving engine, the others in an
 * engine of their own); answers the run's result (none after a crash), its id, the arguments its tools
 * got, and whether it was stopped (it may have ended first).
 */
async function interruptedRun(
  threadId: string,
  scenario: InterruptScenario,
  at: number,
  order: readonly ModelCall[] | undefined,
) {
  const options = { threadId, input: inputOf(0) };
  let stopped = false;
  let sent = order === undefined;
  const random = seededRandom(scenario.base.schedule + 2);
  const start = (engine: Engine, signal?: AbortSignal): Promise<RunResult> => {
    const runOptions = signal === undefined ? options : { ...options, signal };
    if (order === undefined)
      return engine.run({ type: "plan", plan: scenario.base.plan.map(callJson) }, runOptions);
    return (async () => {
      const stream = await engine.open(runOptions);
      for (const call of order) {
        stream.add(callJson(call));
        await pause(random);
      }
      sent = true;
      return stream.close();
    })();
  };
  const stopBy = (act: () => void) => () => {
    if (!sent) return false;
    stopped = true;
    act();
    return true;
  };
  if (scenario.stop === "signal") {
    const abort = new AbortController();
    schedule = new Schedule(seededRandom(scenario.base.schedule), { at, stop: stopBy(() => abort.abort()) });
    const result = await schedule.drive(start(survivor, abort.signal));
    return { result, runId: result.runId, args: schedule.args, stopped };
  }
  const store = createSqliteStore(file);
  const dying = crashable(store);
  let crashed = () => {};
  const gone = new Promise<undefined>((resolve) => {
    crashed = () => resolve(undefined);
  });
  const own: { schedule?: Schedule } = {};
  const engine: Engine = createEngine({
    tools: modelTools(() => own.schedule as Schedule) as never,
    store: scenario.stop === "crash" ? dying.store : store,
    confirm: modelConfirm,
  });
  const stop = stopBy(() => {
    if (scenario.stop === "close") void engine.close();
    else {
      dying.crash();
      crashed();
    }
  });
  own.schedule = new Schedule(seededRandom(scenario.base.schedule), { at, stop });
  const result = await own.schedule.drive(Promise.race([start(engine), gone]));
  // a crashed engine is dropped (its store answers nothing); the file is closed under it
  if (stopped && scenario.stop === "crash") await store.close();
  else await engine.close();
  const [latest] = await survivor.runs.list({ threadId, limit: 1 });
  return { result, runId: result?.runId ?? (latest?.runId as string), args: own.schedule.args, stopped };
}

interface Stopped {
  readonly result: RunResult | undefined;
  readonly runId: string;
  readonly args: Readonly<Record<string, JsonValue>>;
}

/**
 * What a stopped run left, against the model's uninterrupted run of it from `before`: its call records
 * and result agree with the model where a call ended, its tools were called only for calls the model runs,
 * and the thread holds exactly the effects of the calls it committed (nothing half-written).
 */
async function leftBy(
  threadId: string,
  plan: readonly ModelCall[],
  before: ModelThread,
  stopped: Stopped,
  resume: boolean,
) {
  const shown = await survivor.runs.show(stopped.runId);
  const problems: string[] = [];
  const seen: Record<string, EngineCall> = {};
  for (const id of Object.keys(stopped.args)) seen[id] = { status: "cancelled", args: stopped.args[id] };
  for (const record of shown.calls) {
    if (seen[record.callId]?.status !== "cancelled" && seen[record.callId] !== undefined)
      problems.push(`${record.callId}: two records in the stopped run`);
    seen[record.callId] = { status: record.status, branch: record.branch, args: stopped.args[record.callId] };
  }
  const committed = new Set<string>(shown.calls.filter((r) => r.status === "succeeded").map((r) => r.callId));
  figures.committed += committed.size;
  const full = structuredClone(before);
  const model = interpretRun(plan, full, inputOf(0), seen, { interrupted: true, resume });
  problems.push(...model.problems);
  const ran = toolCalls(plan, model);
  for (const id of Object.keys(stopped.args))
    if (!ran.includes(id)) problems.push(`${id}: its tool was called, the model does not run it`);
  const { result } = stopped;
  if (result !== undefined) {
    problems.push(...outcomeProblems(result));
    for (const [id, outcome] of Object.entries(result.calls)) {
      if (outcome.status === "cancelled") figures.cancelled += 1;
      else if (outcome.status !== seen[id]?.status)
        problems.push(`${id}: result ${outcome.status}, record ${seen[id]?.status}`);
    }
  }
  // a satisfied call's record commits what it restored (a resume after a target was removed)
  const settled = new Set<string>(
    shown.calls.filter((r) => r.status === "succeeded" || r.status === "satisfied").map((r) => r.callId),
  );
  const partial = committedThread(before, model, settled);
  const stored = await survivor.get(threadId, "†state");
  problems.push(...(await threadProblems(survivor, threadId, stored.value, plan, partial)));
  if (result !== undefined && canonical(result.state) !== canonical(partial.state))
    problems.push(`stopped run's result state: ${canonical(result.state)}`);
  return { problems, committed, partial, full, record: shown.run };
}

/** One scenario: problems (empty when the engine and the model agree throughout). */
async function checkInterrupted(scenario: InterruptScenario): Promise<string[]> {
  figures.scenarios += 1;
  const threadId = `interrupted-${figures.scenarios}`;
  const { plan } = scenario.base;
  const start = await seededThread(survivor, threadId);
  await giveApprovals(survivor, threadId, start, scenario.base.approvalsBefore);
  const input = inputOf(0);
  // the tool calls of an uninterrupted run, to stop at one of them
  const probe = interpretRun(plan, structuredClone(start), input, {}, { interrupted: true });
  const calls = toolCalls(plan, probe).length;
  const at = scenario.at % Math.max(calls, 1);
  const order = scenario.streamed
    ? arrivalOrder(plan, start, seededRandom(scenario.base.schedule + 3))
    : undefined;
  const first = await interruptedRun(threadId, scenario, at, order);
  if ((first.result?.status ?? "cancelled") === "cancelled") figures.stopped += 1;
  const left = await leftBy(threadId, plan, start, first, false);
  // a run that ended before its stop came keeps its own status
  const status = first.result?.status ?? "cancelled";
  const expectedStatus = status === "cancelled" ? STOPPED_STATUS[scenario.stop] : status;
  if (left.record.status !== expectedStatus)
    left.problems.push(`stopped run's record: ${left.record.status}, expected ${expectedStatus}`);
  const label = `stopped after ${at} tool answers (${scenario.stop}${order ? ", streamed" : ""})`;
  if (left.problems.length > 0) return [`${label}:`, ...left.problems];

  const resume = scenario.continueWith === "resume";
  const committed = new Set(left.committed);
  let { partial } = left;
  if (scenario.changed) {
    // the thread changes before the run is continued: approvals given, a target overwritten or removed
    const { approvalsBetween } = scenario.base;
    await giveApprovals(survivor, threadId, partial, approvalsBetween);
    if (scenario.base.clobber !== undefined) await clobber(survivor, threadId, partial, scenario.base);
    figures.changed += 1;
  }
  let runId = first.runId;
  if (resume && scenario.resumeStopped) {
    // the resume is stopped too (its signal), then resumed in turn (a resume of a resume, decision 0012)
    const abort = new AbortController();
    const stop = () => {
      abort.abort();
      return true;
    };
    schedule = new Schedule(seededRandom(scenario.base.schedule + 5), { at: scenario.at % 3, stop });
    const cut = await schedule.drive(survivor.resume(runId, { signal: abort.signal }));
    const cutRun = { result: cut, runId: cut.runId, args: schedule.args };
    const again = await leftBy(threadId, plan, partial, cutRun, true);
    // (a changed approval may change a completed call's arguments: it runs again, as the model says)
    for (const id of Object.keys(schedule.args))
      if (committed.has(id) && !scenario.changed)
        again.problems.push(`${id} completed before the stop and ran again`);
    if (again.problems.length > 0) return [`${label}, resumed and stopped again:`, ...again.problems];
    figures.resumedTwice += 1;
    for (const id of again.committed) committed.add(id);
    partial = again.partial;
    runId = cut.runId;
  }

  // continued: resumed, or sent again
  schedule = new Schedule(seededRandom(scenario.base.schedule + 1));
  const second = await schedule.drive(
    resume
      ? survivor.resume(runId)
      : survivor.run({ type: "plan", plan: plan.map(callJson) }, { threadId, input }),
  );
  const thread = structuredClone(partial);
  const model = interpretRun(plan, thread, input, engineCalls(second, schedule.args), { resume });
  const after = await runProblems(threadId, plan, second, model, thread);
  const rerun = Object.keys(schedule.args).sort();
  figures.rerunOnContinue += rerun.length;
  figures.satisfiedOnContinue += Object.values(second.calls).filter((o) => o.status === "satisfied").length;
  if (canonical(rerun) !== canonical(toolCalls(plan, model)))
    after.push(`tools called: engine ${canonical(rerun)}, model ${canonical(toolCalls(plan, model))}`);
  if (resume) {
    for (const id of rerun)
      if (committed.has(id) && !scenario.changed) after.push(`${id} completed before the stop and ran again`);
    if (!scenario.changed && canonical(thread.state) !== canonical(left.full.state))
      after.push(`resumed state differs from the uninterrupted run's: ${canonical(left.full.state)}`);
    const ended = (await survivor.runs.show(first.runId)).run.status;
    if (ended !== "cancelled" && status === "cancelled")
      after.push(`the resumed run's record is ${ended}, not cancelled`);
  }
  return after.length > 0 ? [`${label}, then ${scenario.continueWith}:`, ...after] : [];
}

/** A streamed run whose calls arrive in `order`, a few event-loop turns (tool settlements) apart. */
async function streamedRun(threadId: string, order: readonly ModelCall[], seed: number) {
  streamSchedule = new Schedule(seededRandom(seed));
  const stream = await streaming.open({ threadId, input: inputOf(0) });
  const random = seededRandom(seed + 1);
  const refusals: string[] = [];
  const adding = (async () => {
    for (const call of order) {
      const added = stream.add(callJson(call));
      // warnings other than STREAM_ORDER (a latent call without _output) are the plan's own
      const order = added.diagnostics.filter((d) => d.code === "STREAM_ORDER");
      if (!added.ok || order.length > 0)
        refusals.push(`add ${call.id}: ${JSON.stringify(added.diagnostics)}`);
      await pause(random);
    }
    return stream.close();
  })();
  return { result: await streamSchedule.drive(adding), refusals };
}

/** What a run decided, for comparing a streamed run with the batch run of its plan. */
function decided(result: RunResult): string {
  const calls = Object.entries(result.calls)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([id, o]) => `${id}:${o.status}:${o.branch ?? ""}:${canonical(o.wrote ?? [])}`);
  return `${calls.join(" ")} ${canonical(result.state)}`;
}

async function checkStreamed(scenario: ModelScenario): Promise<string[]> {
  figures.streamed += 1;
  const threadId = `streamed-${figures.streamed}`;
  const { plan } = scenario;
  const thread = await seededThread(streaming, threadId);
  await giveApprovals(streaming, threadId, thread, scenario.approvalsBefore);
  // twice on one thread: the second run's calls are satisfied or run again, in another order
  for (const run of [0, 1]) {
    const order = arrivalOrder(plan, thread, seededRandom(scenario.schedule + run));
    if (order.some((call, index) => call !== plan[index])) figures.readerFirst += 1;
    const { result, refusals } = await streamedRun(threadId, order, scenario.schedule + run);
    const model = interpretRun(plan, thread, inputOf(0), engineCalls(result, streamSchedule.args));
    const problems = [...refusals, ...model.problems, ...outcomeProblems(result)];
    if (result.status !== model.status)
      problems.push(`run status: engine ${result.status}, model ${model.status}`);
    problems.push(...(await threadProblems(streaming, threadId, result.state, plan, thread)));
    if (run === 0 && problems.length === 0) {
      // the batch run of the plan on a thread like it
      const batchThread = `${threadId}-batch`;
      await giveApprovals(
        streaming,
        batchThread,
        await seededThread(streaming, batchThread),
        scenario.approvalsBefore,
      );
      streamSchedule = new Schedule(seededRandom(scenario.schedule));
      const batch = await streamSchedule.drive(
        streaming.run(
          { type: "plan", plan: plan.map(callJson) },
          { threadId: batchThread, input: inputOf(0) },
        ),
      );
      if (decided(batch) !== decided(result))
        problems.push(`streamed: ${decided(result)}`, `batch:    ${decided(batch)}`);
    }
    if (problems.length > 0)
      return [`run ${run}, arrival order ${order.map((call) => call.id).join(" ")}:`, ...problems];
  }
  return [];
}

const report = (problems: string[], plan: readonly ModelCall[]) => {
  if (problems.length > 0)
    throw new Error(`${problems.join("\n")}\nplan: ${JSON.stringify(plan.map(callJson))}`);
};

describe("the engine against the reference interpreter across interruptions and arrival orders", () => {
  it(
    "a run stopped at a seeded tool call (signal, engine close, crash) leaves only committed calls, and resume or re-send ends as the model says",
    async () => {
      await withSeed("model resume", (seed) =>
        fc.assert(
          fc.asyncProperty(interruptScenario, async (scenario) => {
            report(await checkInterrupted(scenario), scenario.base.plan);
          }),
          { seed, numRuns: SCENARIOS },
        ),
      );
    },
    TIMEOUT_MS,
  );

  it(
    "a plan streamed in a seeded arrival order (readers before their writers) ends as its batch run",
    async () => {
      await withSeed("model stream order", (seed) =>
        fc.assert(
          fc.asyncProperty(modelScenario, async (scenario) => {
            report(await checkStreamed(scenario), scenario.plan);
          }),
          { seed, numRuns: SCENARIOS },
        ),
      );
    },
    TIMEOUT_MS,
  );
});
