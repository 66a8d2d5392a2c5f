import type { JsonValue } from "@obelisk/core";
import fc from "fast-check";
import { branch, createEngine, createMemoryStore, type RunResult } from "obelisk";
import { afterAll, describe, expect, it } from "vitest";
import { seededRandom, withSeed } from "./support/fuzz-seed.js";
import { behaviour, callJson, canonical, refText, targetsOf } from "./support/model-plan.js";
import { type ModelScenario, modelScenario } from "./support/model-plan-generator.js";
import { type EngineCall, interpretRun, type ModelThread } from "./support/reference-interpreter.js";

/**
 * Model-based differential test of the engine's run semantics: random plans run through `createEngine`
 * (memory store, tools settling in a seeded order, some at once and some later) and through a sequential
 * reference interpreter written from SPEC.md (support/reference-interpreter.ts). Each call's status and
 * branch, the arguments each tool got, the run's status, the thread's state and the stored call outputs
 * must agree — on a first run, and on a second run of the same plan on the same thread (SPEC §7
 * `satisfied`), after approvals were given, a target overwritten, or the input changed in between.
 */

const SEED_VALUE = { a: 5, b: "t", arr: [1, 2, 3] };
const inputOf = (z: number) => ({ a: 1, s: "x", o: { k: [1, 2] }, z });

type Settle = () => void;
type ToolContext = { callId: string; branch(k: number | string, v: unknown): unknown };
/** beta names its alternatives (SPEC §9 `outcomes`) and picks them by name. */
const OUTCOMES = ["first", "second", "third"];

/** Tries to change a value in place (SPEC §7: values handed to tools are frozen or copies). */
function tamper(value: unknown): void {
  try {
    if (Array.isArray(value)) value.push("tampered");
    else if (value !== null && typeof value === "object") {
      for (const item of Object.values(value)) tamper(item);
      (value as Record<string, unknown>).tampered = true;
    }
  } catch {
    // frozen: as it should be
  }
}

/** Settles tool calls now or later, in an order drawn from a seeded random source. */
class Schedule {
  readonly args: Record<string, JsonValue> = {};
  private readonly pending: Settle[] = [];
  constructor(private readonly random: () => number) {}

  invoke(tool: string, args: Record<string, JsonValue>, ctx: ToolContext) {
    this.args[ctx.callId] = structuredClone(args);
    const outcome = behaviour(tool, args);
    tamper(args);
    const form = this.random();
    const answer = () => {
      if (outcome.kind === "throw")
        throw Object.assign(
          new Error(outcome.message),
          outcome.code === undefined ? {} : { code: outcome.code },
        );
      if (outcome.kind === "return") return outcome.value;
      const alternative = tool === "beta" ? (OUTCOMES[outcome.alternative] as string) : outcome.alternative;
      // the three ways to pick an alternative: return ctx.branch(), return branch(), or call ctx.branch()
      if (form < 0.3) return branch(alternative, outcome.value);
      if (form < 0.6) return ctx.branch(alternative, outcome.value);
      ctx.branch(alternative, outcome.value);
      return undefined;
    };
    // a tool that keeps its result and changes it once it was handed over must not change what was stored
    const handOver = () => {
      const result = answer();
      this.later.push(() => tamper(outcome.kind === "return" ? outcome.value : undefined));
      return result;
    };
    if (this.random() < 0.3) return handOver();
    return new Promise((resolve, reject) => {
      this.pending.push(() => {
        try {
          resolve(handOver());
        } catch (error) {
          reject(error);
        }
      });
    });
  }

  private readonly later: Settle[] = [];

  /** Settles the pending calls one at a time, a random one each turn, until `run` is done. */
  async drive<T>(run: Promise<T>): Promise<T> {
    let done = false;
    const finished = run.finally(() => {
      done = true;
    });
    while (!done) {
      await new Promise((resolve) => setImmediate(resolve));
      if (this.pending.length > 0 && this.random() < 0.8) {
        const [settle] = this.pending.splice(Math.floor(this.random() * this.pending.length), 1);
        settle?.();
      } else this.later.shift()?.();
    }
    return finished;
  }
}

let schedule = new Schedule(seededRandom(1));
const tools = [
  ...(["alpha", "beta"] as const).map((name) => ({
    name,
    description: `model tool ${name}: returns, branches or throws, by its arguments`,
    input: { type: "object" },
    ...(name === "beta" ? { outcomes: OUTCOMES } : {}),
    run: (args: Record<string, JsonValue>, ctx: ToolContext) => schedule.invoke(name, args, ctx),
  })),
  { name: "gamma", description: "latent: its value is the call's _output", input: { type: "object" } },
];

/** One engine for every scenario (a registry is compiled once), each scenario on threads of its own. */
const engine = createEngine({
  tools: tools as never,
  store: createMemoryStore(),
  confirm: (call) =>
    call.params.act === "deny" ? { action: "reject", reason: "the host denies it" } : { action: "approve" },
});
afterAll(() => engine.close());

/** Figures for the report. */
const figures = { scenarios: 0, runs: 0, calls: 0, open: 0, statuses: {} as Record<string, number> };
afterAll(() => {
  console.log(`model-run figures: ${JSON.stringify(figures)}`);
});

/** The thread before the first run: a value to read, and a string nothing can be written below. */
async function seededThread(threadId: string): Promise<ModelThread> {
  await engine.set(threadId, "†state.seed", SEED_VALUE);
  await engine.set(threadId, "†state.bad", "text");
  return { state: { seed: structuredClone(SEED_VALUE), bad: "text" }, calls: {}, records: [] };
}

async function giveApprovals(threadId: string, thread: ModelThread, bits: number): Promise<void> {
  for (let n = 0; n < 3; n += 1)
    if (bits & (1 << n) && thread.state.approvals?.[`p${n}` as never] === undefined) {
      await engine.set(threadId, `†state.approvals.p${n}`, `by person ${n}`);
      const approvals = (thread.state.approvals ?? {}) as Record<string, JsonValue>;
      thread.state = { ...thread.state, approvals: { ...approvals, [`p${n}`]: `by person ${n}` } };
    }
}

/**
 * Overwrites one of the plan's targets, or removes a top-level one: a satisfied writer must restore it
 * (SPEC §7 "re-applied if its targets no longer hold it").
 */
async function clobber(threadId: string, thread: ModelThread, scenario: ModelScenario, pick: number) {
  const writers = scenario.plan.flatMap((call) =>
    targetsOf(call).flatMap((target) => (target[0] === "bad" ? [] : [[call, target] as const])),
  );
  // every other pick goes to a path several calls accumulate into, if any (decision 0017's rebuild)
  const shared = writers.filter(([, target]) => String(target[0]).startsWith("acc_"));
  const from = pick % 2 === 0 && shared.length > 0 ? shared : writers;
  const chosen = from[Math.floor(pick / 2) % Math.max(from.length, 1)];
  if (chosen === undefined) return;
  const [call, target] = chosen;
  const reference = refText({ kind: "state", path: target });
  const state = structuredClone(thread.state) as Record<string, JsonValue>;
  if (scenario.unset && target.length === 1) {
    await engine.unset(threadId, reference);
    delete state[String(target[0])];
  } else {
    const method = call.output?.method ?? "set";
    const value = method === "set" ? "clobbered" : method === "push" || method === "concat" ? [] : {};
    await engine.set(threadId, reference, value);
    let parent = state;
    for (const segment of target.slice(0, -1)) {
      parent[String(segment)] ??= {};
      parent = parent[String(segment)] as Record<string, JsonValue>;
    }
    parent[String(target.at(-1))] = value;
  }
  thread.state = state;
}

/** Runs the plan once on both sides; returns every disagreement. */
async function compareRun(
  threadId: string,
  scenario: ModelScenario,
  thread: ModelThread,
  input: object,
  order: number,
) {
  const result = await engineRun(threadId, scenario, input, order);
  const seen: Record<string, EngineCall> = {};
  for (const [id, outcome] of Object.entries(result.calls))
    seen[id] = {
      status: outcome.status,
      branch: outcome.branch,
      args: schedule.args[id],
      wrote: outcome.wrote,
    };
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
  try {
    expect(result.state).toEqual(thread.state);
  } catch {
    problems.push(
      `state: engine ${JSON.stringify(result.state)}\n       model  ${JSON.stringify(thread.state)}`,
    );
  }
  for (const call of scenario.plan) {
    if (call.output !== undefined) continue;
    const stored = await engine.get(threadId, `†calls.${call.id}`);
    const expected = thread.calls[call.id];
    const got = stored.found ? stored.value : undefined;
    if (JSON.stringify(got) !== JSON.stringify(expected))
      problems.push(`†calls.${call.id}: engine ${JSON.stringify(got)}, model ${JSON.stringify(expected)}`);
  }
  return { problems, result, open: model.open.length };
}

/** What a run decided, for comparing two completion orders of one plan. */
function decided(result: RunResult): string {
  const calls = Object.entries(result.calls).map(([id, o]) => `${id}:${o.status}:${o.branch ?? ""}`);
  return `${calls.join(" ")} ${canonical(result.state)}`;
}

/** One engine run of the scenario's plan, its tools settling in the order `order` draws. */
function engineRun(
  threadId: string,
  scenario: ModelScenario,
  input: object,
  order: number,
): Promise<RunResult> {
  schedule = new Schedule(seededRandom(order));
  const document = { type: "plan", plan: scenario.plan.map(callJson) };
  return schedule.drive(engine.run(document, { threadId, input }));
}

async function check(scenario: ModelScenario): Promise<string[]> {
  figures.scenarios += 1;
  const threadId = `model-${figures.scenarios}`;
  {
    const thread = await seededThread(threadId);
    await giveApprovals(threadId, thread, scenario.approvalsBefore);
    const first = await compareRun(threadId, scenario, thread, inputOf(0), scenario.schedule);
    if (first.problems.length > 0) return ["first run:", ...first.problems];
    // where the spec left the model a choice, the engine's must not depend on the completion order (SPEC §2)
    if (first.open > 0) {
      const replay = `${threadId}-replay`;
      await giveApprovals(replay, await seededThread(replay), scenario.approvalsBefore);
      const again = await engineRun(replay, scenario, inputOf(0), scenario.schedule + 7_919);
      if (decided(again) !== decided(first.result))
        return ["first run, two completion orders:", decided(first.result), decided(again)];
    }
    await giveApprovals(threadId, thread, scenario.approvalsBetween);
    if (scenario.clobber !== undefined) await clobber(threadId, thread, scenario, scenario.clobber);
    const input = inputOf(scenario.newInput ? 7 : 0);
    const second = await compareRun(threadId, scenario, thread, input, scenario.schedule + 1);
    if (second.problems.length > 0) return ["second run:", ...second.problems];
    if (!scenario.third) return [];
    const third = await compareRun(threadId, scenario, thread, input, scenario.schedule + 2);
    return third.problems.length > 0 ? ["third run (nothing changed):", ...third.problems] : [];
  }
}

describe("the engine against a reference interpreter of SPEC.md's run semantics", () => {
  it("random plans, run twice on one thread: statuses, branches, arguments, state and call outputs agree", async () => {
    await withSeed("model run", (seed) =>
      fc.assert(
        fc.asyncProperty(modelScenario, async (scenario) => {
          const problems = await check(scenario);
          if (problems.length > 0)
            throw new Error(`${problems.join("\n")}\nplan: ${JSON.stringify(scenario.plan.map(callJson))}`);
        }),
        { seed, numRuns: Number(process.env.MODEL_RUNS ?? 100) },
      ),
    );
  }, 60_000);
});
