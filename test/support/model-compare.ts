import type { JsonValue } from "@obelisk/core";
import type { Engine, RunResult } from "obelisk";
import { canonical, type ModelCall, refText, targetsOf } from "./model-plan.js";
import type { ModelScenario } from "./model-plan-generator.js";
import type { EngineCall, ModelThread } from "./reference-interpreter.js";

/**
 * What the model-based property tests (model-run.property.test.ts, model-resume.property.test.ts) share
 * around an engine: the thread every scenario starts from, and the comparisons of a run with the model.
 */

const SEED_VALUE = { a: 5, b: "t", arr: [1, 2, 3], nul: null };

/** The run's input; `z` differs between runs that change it. */
export const inputOf = (z: number) => ({
  a: 1,
  s: "x",
  o: { k: [1, 2] },
  z,
  nul: null,
  no: false,
  empty: "",
});

/** The thread before the first run: a value to read, and a string nothing can be written below. */
export async function seededThread(engine: Engine, threadId: string): Promise<ModelThread> {
  await engine.set(threadId, "†state.seed", SEED_VALUE);
  await engine.set(threadId, "†state.bad", "text");
  return { state: { seed: structuredClone(SEED_VALUE), bad: "text" }, calls: {}, records: [] };
}

/** Gives the approvals `p<n>` whose bit is set in `bits`, on the engine's thread and the model's. */
export async function giveApprovals(
  engine: Engine,
  threadId: string,
  thread: ModelThread,
  bits: number,
): Promise<void> {
  for (let n = 0; n < 3; n += 1)
    if (bits & (1 << n) && thread.state.approvals?.[`p${n}` as never] === undefined) {
      await engine.set(threadId, `†state.approvals.p${n}`, `by person ${n}`);
      const approvals = (thread.state.approvals ?? {}) as Record<string, JsonValue>;
      thread.state = { ...thread.state, approvals: { ...approvals, [`p${n}`]: `by person ${n}` } };
    }
}

/** The engine's outcome of each call, with the arguments its tool got in that run. */
export function engineCalls(
  result: RunResult,
  args: Readonly<Record<string, JsonValue>>,
): Record<string, EngineCall> {
  const seen: Record<string, EngineCall> = {};
  for (const [id, outcome] of Object.entries(result.calls))
    seen[id] = { status: outcome.status, branch: outcome.branch, args: args[id], wrote: outcome.wrote };
  return seen;
}

/**
 * Where the engine's thread differs from the model's: the state (`engineState`), and each stored call
 * output (`†calls.<id>` of the plan's calls without `_outputPath`).
 */
export async function threadProblems(
  engine: Engine,
  threadId: string,
  engineState: unknown,
  plan: readonly ModelCall[],
  thread: ModelThread,
): Promise<string[]> {
  const problems: string[] = [];
  if (canonical(engineState) !== canonical(thread.state))
    problems.push(
      `state: engine ${JSON.stringify(engineState)}\n       model  ${JSON.stringify(thread.state)}`,
    );
  for (const call of plan) {
    if (call.output !== undefined) continue;
    const stored = await engine.get(threadId, `†calls.${call.id}`);
    const expected = thread.calls[call.id];
    const got = stored.found ? stored.value : undefined;
    if (JSON.stringify(got) !== JSON.stringify(expected))
      problems.push(`†calls.${call.id}: engine ${JSON.stringify(got)}, model ${JSON.stringify(expected)}`);
  }
  return problems;
}

/**
 * Overwrites one of the plan's targets (`scenario.clobber` picks it), or removes a top-level one: a
 * satisfied writer of a re-sent plan must restore it (SPEC §7 "re-applied if its targets no longer hold
 * it"); a resume restores only a missing one (decision 0043).
 */
export async function clobber(
  engine: Engine,
  threadId: string,
  thread: ModelThread,
  scenario: ModelScenario,
) {
  const pick = scenario.clobber ?? 0;
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
