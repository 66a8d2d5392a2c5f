import type { RunnerOptions } from "./runner-types.js";

/**
 * A run's options with every member present (`undefined` when not given), each in a fixed order: one
 * hidden class for the options of every caller (an engine's run, a stream, a host's own runner).
 */
export type RunnerSettings = { readonly [K in keyof Required<RunnerOptions>]: RunnerOptions[K] };

/**
 * The runner's copy of its options, built at one site with one member order. Callers spread optional
 * members in or leave them out, so their objects differ in hidden class; the per-call code that reads
 * `options` (dispatch, completion, commit) then saw several, and its optimized code went polymorphic or
 * deoptimized ("wrong map") when a second caller's options came by.
 */
export function runnerSettings(options: RunnerOptions): RunnerSettings {
  return {
    registry: options.registry,
    store: options.store,
    threadId: options.threadId,
    runId: options.runId,
    planHash: options.planHash,
    input: options.input,
    state: options.state,
    extraKinds: options.extraKinds,
    criticalPaths: options.criticalPaths,
    concurrency: options.concurrency,
    limiter: options.limiter,
    failFast: options.failFast,
    rerun: options.rerun,
    confirm: options.confirm,
    aroundTool: options.aroundTool,
    signal: options.signal,
    timers: options.timers,
    now: options.now,
    requestedAt: options.requestedAt,
    random: options.random,
    maxValueBytes: options.maxValueBytes,
    events: options.events,
    streaming: options.streaming,
    resumes: options.resumes,
    resumeOf: options.resumeOf,
    resumedRecords: options.resumedRecords,
    resumedSettled: options.resumedSettled,
  };
}
