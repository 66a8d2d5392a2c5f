import type { CompiledCall } from "@obelisk/compiler";
import { type Diagnostic, type JsonValue, ObeliskError } from "@obelisk/core";
import { acceptingRunOf, type RunAcceptor } from "./accepting-run.js";
import { askApproval, type PlanApprover } from "./agent-tools-approval.js";
import { boundRunAnswer } from "./agent-tools-run.js";
import type { RunPlanAnswer } from "./agent-tools-types.js";
import type { Engine, RunOptions, RunResult } from "./engine-types.js";
import type { HostContext } from "./normalize-input.js";

/** The budget of the summary `run_plan` returns of what the run wrote (characters). */
const RUN_SUMMARY_CHARS = 2_000;

/**
 * A refused plan's diagnostics are the model's to fix with the tool it has, not with `engine.validate`; a
 * busy thread is waited for by calling again, not by a lock wait time the model cannot pass.
 */
function forTheModel(error: unknown): unknown {
  if (ObeliskError.is(error, "THREAD_BUSY"))
    return new ObeliskError("THREAD_BUSY", error.message, {
      cause: error,
      data: error.data,
      hint: error.data.started
        ? "the run had started when another took the thread: read the outcome with list_variables, then send the plan again (completed calls are satisfied, not run twice)"
        : "another run is using this thread and nothing of this plan ran: call run_plan again with the same plan once that run has ended",
    });
  if (!ObeliskError.is(error, "PLAN_INVALID")) return error;
  return new ObeliskError("PLAN_INVALID", error.message, {
    cause: error,
    data: error.data,
    hint: "every diagnostic (code, pointer, message, hint) is in error.data.diagnostics: fix the plan, check it with validate_plan, then send it again",
  });
}

/**
 * Why the run was stopped while the host was asked: `engine.close()`'s own error (STORE_CLOSED), or CANCELLED
 * for the caller's signal — never its raw reason (a DOMException the model can do nothing with).
 */
function stoppedWhileAsked(signal: AbortSignal): ObeliskError {
  const reason: unknown = signal.reason;
  if (ObeliskError.is(reason)) return reason;
  return new ObeliskError(
    "CANCELLED",
    "run_plan was cancelled (its signal aborted) while the approve hook was pending: this plan did not run",
    { cause: reason, hint: "send the plan again when it should run: nothing of it was recorded" },
  );
}

/** `promise`, or why the run was stopped once its signal aborts first (`engine.close()`, the caller's signal). */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(stoppedWhileAsked(signal));
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => reject(stoppedWhileAsked(signal));
    signal.addEventListener("abort", abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/**
 * Runs the plan once its validation is accepted. An engine from `createEngine` compiles it once: the run's
 * own compile, under the thread's lock, is what `accept` sees (decision 0027). Another `Engine` (a wrapper
 * whose `run` is its own) is validated first, then run with its `run`, bound to the hash `accept` saw when
 * it asked the host.
 */
async function runAccepted(
  engine: Engine,
  plan: unknown,
  options: RunOptions,
  accept: RunAcceptor,
  bindHash: boolean,
): Promise<RunResult> {
  const acceptingRun = acceptingRunOf(engine);
  if (acceptingRun !== undefined) return acceptingRun(plan, options, accept);
  const validation = await engine.validate(plan, options);
  // an invalid plan is refused by the run below with its diagnostics
  if (!validation.ok) return engine.run(plan, options);
  await accept(validation, new AbortController().signal);
  return engine.run(plan, bindHash ? { ...options, approvedHash: validation.planHash } : options);
}

/**
 * `run_plan`: compiles and runs the plan; its warnings go into the answer and, with `approve`, the host is
 * asked before anything runs (an invalid plan never reaches it); the run gets the host kinds' values of
 * `agentTools`' `context`. Answers the run result without its state, with a bounded summary of what the run
 * wrote.
 */
export async function runForModel(
  engine: Engine,
  threadId: string,
  args: Record<string, unknown>,
  host: { readonly approve: PlanApprover | undefined; readonly context: HostContext | undefined },
  signal?: AbortSignal,
): Promise<RunPlanAnswer> {
  const { approve, context } = host;
  // Not the state: one earlier run's 200,000-item list would fill the model's context. What this run
  // wrote comes as a bounded summary, like list_variables.
  const runInput = (args.input ?? {}) as JsonValue;
  let warnings: readonly Diagnostic[] = [];
  let compiledCalls: readonly CompiledCall[] = [];
  const accept: RunAcceptor = async (validation, signal) => {
    warnings = validation.diagnostics;
    compiledCalls = validation.compiled.calls;
    if (approve === undefined) return;
    const request = { plan: args.plan, planHash: validation.planHash, input: runInput, threadId };
    await unlessAborted(askApproval(approve, { ...request, diagnostics: validation.diagnostics }), signal);
  };
  // the model's input is checked by the engine (USAGE for anything but a plain object of JSON values)
  const options = {
    threadId,
    input: runInput as object,
    ...(context === undefined ? {} : { context }),
    ...(signal === undefined ? {} : { signal }),
  };
  const { state: _state, ...result } = await runAccepted(
    engine,
    args.plan,
    options,
    accept,
    approve !== undefined,
  ).catch((error: unknown) => {
    throw forTheModel(error);
  });
  const held = heldBySatisfied(result.calls, compiledCalls);
  const wrote = [...new Set(Object.values(result.calls).flatMap((call) => call.wrote))];
  const shown = [...new Set([...wrote, ...[...held.values()].flat()])];
  const summary =
    shown.length === 0
      ? "No variables written."
      : (await engine.summarize(threadId, { refs: shown, budgetChars: RUN_SUMMARY_CHARS })).text;
  // error messages are cut and given once (in calls[id].error), the whole answer is bounded
  const onceOnly = new Set(
    Object.entries(result.calls)
      .filter(
        ([, call]) => call.status === "satisfied" && engine.registry.get(call.tool)?.idempotent === false,
      )
      .map(([id]) => id),
  );
  return boundRunAnswer(result, summary, warnings, held, onceOnly);
}

/**
 * Where each `satisfied` call's value is: the targets of the alternative it took (`†calls.<id>` for a call
 * without `_outputPath`; `†calls.<outputId>` for an unnamed one the thread holds under the earlier call's
 * id, decision 0102). A satisfied call wrote nothing in this run (`wrote` is empty unless the value had to
 * be put back), so without this a model re-sending a plan learns nothing of where its results are.
 */
function heldBySatisfied(
  outcomes: RunResult["calls"],
  calls: readonly CompiledCall[],
): ReadonlyMap<string, readonly string[]> {
  const held = new Map<string, readonly string[]>();
  for (const call of calls) {
    const outcome = outcomes[call.id];
    if (outcome?.status !== "satisfied") continue;
    const targets = call.outputPath?.alternatives[outcome.branch ?? 0];
    const stored = `†calls.${outcome.outputId ?? call.id}`;
    held.set(call.id, targets === undefined ? [stored] : targets.map((target) => target.text));
  }
  return held;
}
