import type { JsonValue } from "@obelisk/core";
import fc from "fast-check";
import { createEngine, createMemoryStore, type RunResult } from "obelisk";
import { afterAll, describe, expect, it } from "vitest";
import { seededRandom, withSeed } from "./support/fuzz-seed.js";
import {
  clobber,
  engineCalls,
  giveApprovals,
  inputOf,
  seededThread,
  threadProblems,
} from "./support/model-compare.js";
import { callJson, canonical } from "./support/model-plan.js";
import { type ModelScenario, modelScenario } from "./support/model-plan-generator.js";
import { modelConfirm, modelTools, Schedule } from "./support/model-schedule.js";
import { interpretRun, type ModelThread } from "./support/reference-interpreter.js";

/**
 * Model-based differential test of the engine's run semantics: random plans run through `createEngine`
 * (memory store, tools settling in a seeded order, some at once and some later; batch `run`s and streamed
 * ones) and through a sequential reference interpreter written from SPEC.md (support/reference-*.ts). Each
 * call's status, branch and `wrote`, the arguments each tool got, the run's status, the thread's state and
 * the stored call outputs must agree — on a first run, and on a second run of the same plan on the same
 * thread (SPEC §7 `satisfied`) after approvals were given, a target overwritten or removed, or the input
 * changed in between; and, for a third of the plans, on a third run with nothing changed.
 *
 * A divergence prints the plan as JSON; `OBELISK_FUZZ_SEED` reproduces it (support/fuzz-seed.ts).
 */

/** Scenarios per run of the property: 100 take ~7 s on a loaded 2-core machine (OBELISK_MODEL_SCENARIOS). */
const SCENARIOS = Number(process.env.OBELISK_MODEL_SCENARIOS ?? 100);

let schedule = new Schedule(seededRandom(1));

/** One engine for every scenario (a registry is compiled once), each scenario on threads of its own. */
const engine = createEngine({
  tools: modelTools(() => schedule) as never,
  store: createMemoryStore(),
  confirm: modelConfirm,
});
afterAll(() => engine.close());

/** Figures for the report. */
const figures = {
  scenarios: 0,
  runs: 0,
  streamed: 0,
  calls: 0,
  open: 0,
  statuses: {} as Record<string, number>,
};
afterAll(() => {
  console.log(`model-run figures: ${JSON.stringify(figures)}`);
});

/** Runs the plan once on both sides; returns every disagreement. */
async function compareRun(
  threadId: string,
  scenario: ModelScenario,
  thread: ModelThread,
  input: object,
  run: number,
) {
  const streamed = (scenario.streamed & (1 << run)) !== 0;
  if (streamed) figures.streamed += 1;
  const result = await engineRun(threadId, scenario, input, scenario.schedule + run, streamed);
  const seen = engineCalls(result, schedule.args);
  const model = interpretRun(scenario.plan, thread, input as Record<string, JsonValue>, seen);
  figures.runs += 1;
  figures.open += model.open.length;
  for (const outcome of Object.values(model.outcomes)) {
    figures.calls += 1;
    figures.statuses[outcome.status] = (figures.statuses[outcome.status] ?? 0) + 1;
  }
  const problems = [...model.problems];
  if (result.status !== model.status)
    problems.push(`run status: engine ${result.status}, model ${model.status}`);
  problems.push(...(await threadProblems(engine, threadId, result.state, scenario.plan, thread)));
  return { problems, result, open: model.open.length };
}

/** What a run decided, for comparing two completion orders of one plan. */
function decided(result: RunResult): string {
  const calls = Object.entries(result.calls).map(([id, o]) => `${id}:${o.status}:${o.branch ?? ""}`);
  return `${calls.join(" ")} ${canonical(result.state)}`;
}

/**
 * One engine run of the scenario's plan, its tools settling in the order `order` draws: a batch `run`, or a
 * streaming run whose calls are added one at a time in plan order while earlier ones settle (SPEC §7).
 */
async function engineRun(
  threadId: string,
  scenario: ModelScenario,
  input: object,
  order: number,
  streamed: boolean,
) {
  schedule = new Schedule(seededRandom(order));
  const calls = scenario.plan.map(callJson);
  if (!streamed) return schedule.drive(engine.run({ type: "plan", plan: calls }, { threadId, input }));
  const stream = await engine.open({ threadId, input });
  const random = seededRandom(order + 1);
  const adding = (async () => {
    for (const call of calls) {
      const added = stream.add(call);
      if (!added.ok) throw new Error(`add refused ${call._id}: ${JSON.stringify(added.diagnostics)}`);
      if (random() < 0.5) await new Promise((resolve) => setImmediate(resolve));
    }
    return stream.close();
  })();
  return schedule.drive(adding);
}

async function check(scenario: ModelScenario): Promise<string[]> {
  figures.scenarios += 1;
  const threadId = `model-${figures.scenarios}`;
  const thread = await seededThread(engine, threadId);
  await giveApprovals(engine, threadId, thread, scenario.approvalsBefore);
  const first = await compareRun(threadId, scenario, thread, inputOf(0), 0);
  if (first.problems.length > 0) return ["first run:", ...first.problems];
  // where the spec left the model a choice, the engine's must not depend on the completion order (SPEC §2)
  if (first.open > 0) {
    const replay = `${threadId}-replay`;
    await giveApprovals(engine, replay, await seededThread(engine, replay), scenario.approvalsBefore);
    const again = await engineRun(replay, scenario, inputOf(0), scenario.schedule + 7_919, false);
    if (decided(again) !== decided(first.result))
      return ["first run, two completion orders:", decided(first.result), decided(again)];
  }
  await giveApprovals(engine, threadId, thread, scenario.approvalsBetween);
  if (scenario.clobber !== undefined) await clobber(engine, threadId, thread, scenario);
  const input = inputOf(scenario.newInput ? 7 : 0);
  const second = await compareRun(threadId, scenario, thread, input, 1);
  if (second.problems.length > 0) return ["second run:", ...second.problems];
  if (!scenario.third) return [];
  const third = await compareRun(threadId, scenario, thread, input, 2);
  return third.problems.length > 0 ? ["third run (nothing changed):", ...third.problems] : [];
}

describe("the engine against a reference interpreter of SPEC.md's run semantics", () => {
  it("random plans, run two or three times on one thread: statuses, branches, arguments, state and call outputs agree", async () => {
    await withSeed("model run", (seed) =>
      fc.assert(
        fc.asyncProperty(modelScenario, async (scenario) => {
          const problems = await check(scenario);
          if (problems.length > 0)
            throw new Error(`${problems.join("\n")}\nplan: ${JSON.stringify(scenario.plan.map(callJson))}`);
        }),
        { seed, numRuns: SCENARIOS },
      ),
    );
  }, 60_000);
});

/**
 * Finding (stop 32, model-run): a call that was both blocked (a failed upstream) and waiting (a missing
 * approval) ended as the first of its parameters in the document's key order said — waiting for
 * `{ a: "†state.approvals.p0", b: "†state.f" }`, blocked for `{ b: …, a: … }` — though both documents have
 * one canonical form and one plan hash (SPEC §6: keys sorted), so one approved hash ran either way. Now a
 * blocked parameter wins whatever the order (decision 0047); the model asks the same across parameters.
 */
describe("a call both blocked and waiting", () => {
  it("ends blocked whatever the order of its parameters' keys", async () => {
    const failing = { _tool: "alpha", _id: "f", act: "throw", shape: "num", _outputPath: "†state.f" };
    const reader = (params: Record<string, string>) => ({
      _tool: "alpha",
      _id: "r",
      act: "ok",
      shape: "num",
      ...params,
    });
    const approvalFirst = [failing, reader({ a: "†state.approvals.p0", b: "†state.f" })];
    const failureFirst = [failing, reader({ b: "†state.f", a: "†state.approvals.p0" })];
    const hashes = await Promise.all(
      [approvalFirst, failureFirst].map(
        async (plan) => (await engine.validate({ type: "plan", plan })).planHash,
      ),
    );
    expect(hashes[0]).toBe(hashes[1]);
    const statuses = [];
    for (const [index, plan] of [approvalFirst, failureFirst].entries()) {
      schedule = new Schedule(seededRandom(index));
      const result = await schedule.drive(
        engine.run({ type: "plan", plan }, { threadId: `key-order-${index}` }),
      );
      statuses.push(result.calls.r?.status);
    }
    expect(statuses).toEqual(["blocked", "blocked"]);
  });
});
