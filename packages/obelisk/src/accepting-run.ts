import type { Engine, RunOptions, RunResult, ValidationResult } from "./engine-types.js";

/**
 * Asked by a run once its plan compiled valid, while it holds the thread's lock and before anything is
 * recorded: it is shown that compile's verdict (hash, warnings), and throwing refuses the run, which then
 * leaves no trace. `signal` aborts when the run is cancelled (`engine.close()`).
 */
export type RunAcceptor = (validation: ValidationResult, signal: AbortSignal) => void | Promise<void>;

/** `engine.run` that asks a {@link RunAcceptor}: `run_plan` validates, is approved and runs on one compile. */
export type AcceptingRun = (plan: unknown, options: RunOptions, accept: RunAcceptor) => Promise<RunResult>;

/**
 * Each engine's accepting run, by the engine's own `run` method: a copy of the engine object still has it,
 * an engine whose `run` was replaced (a wrapper) has none, so the wrapper is not bypassed.
 */
const acceptingRuns = new WeakMap<Engine["run"], AcceptingRun>();

/** Registers the accepting run of an engine `createEngine` made (not exported from the package). */
export function registerAcceptingRun(engine: Engine, run: AcceptingRun): void {
  acceptingRuns.set(engine.run, run);
}

/** The accepting run of `engine`, or undefined when its `run` is not the one `createEngine` gave it. */
export function acceptingRunOf(engine: Engine): AcceptingRun | undefined {
  return typeof engine.run === "function" ? acceptingRuns.get(engine.run) : undefined;
}
