import {
  compile,
  createIncrementalCompiler,
  createToolRegistry,
  type ToolDefinition,
} from "@obelisk/compiler";
import { asThreadId, keepShapes } from "@obelisk/core";
import { type ExecutionResult, PlanRunner } from "@obelisk/scheduler";
import { createMemoryStore } from "@obelisk/state";

let done = false;
let scheduled = false;
/** Captured at import: a test's fake timers must not hold or run it. */
const realSetTimeout = setTimeout;
/**
 * How long after the first validation or run the keeping waits: a CLI command (one validation or run,
 * its output, exit) is gone by then, so it never pays the ~0.2 s of cold code; a host that goes on has
 * the shapes kept before its next full GC, give or take.
 */
const KEEP_DELAY_MS = 1_000;

/** The shape tools' input: a list of numbers (read by reference) and a text (filled by a template). */
const FROM_NUMBERS = {
  type: "object",
  properties: { from: { type: "array", items: { type: "number" } }, note: { type: "string" } },
};

/** A synchronous and an asynchronous no-op tool: both ways a result comes back. */
const SHAPE_TOOLS: readonly ToolDefinition[] = [
  { name: "sync", input: FROM_NUMBERS, run: () => 1 },
  { name: "async", input: FROM_NUMBERS, run: () => Promise.resolve(2) },
];

/**
 * Calls reading earlier results (compile, dependencies, resolution, commits) in the language's common
 * forms: several readers of one writer, a template, `||` and `&&` output paths, a fallback operand, and
 * an accumulating method.
 */
const SHAPE_PLAN = [
  { _tool: "sync", _id: "a", from: [], _outputPath: "†state.a" },
  { _tool: "async", _id: "b", from: ["†state.a"], _outputPath: "†state.b" },
  {
    _tool: "sync",
    _id: "c",
    from: ["†state.a", "†state.b"],
    note: "after {†state.a}",
    _outputPath: "†state.c || †state.d",
  },
  { _tool: "async", _id: "e", from: ["†state.d || †state.c"], _outputPath: "†state.e && †state.f" },
  { _tool: "sync", _id: "g", from: ["†state.f"], _outputPath: "†state.list", _outputMethod: "push" },
];

/** True once {@link keepRunShapesSoon} has scheduled the keeping (for its test). */
export function shapesKeepingScheduled(): boolean {
  return scheduled;
}

/** True once the keeping has run (for its test). */
export function shapesKept(): boolean {
  return done;
}

/**
 * Schedules {@link keepRunShapes} once per process, `KEEP_DELAY_MS` after the first validation or run, on
 * an unreferenced timer: a short-lived process (one CLI command) exits without paying for it (an immediate
 * ran while the command was still closing its store and writing its output), while a host that goes on
 * has it soon after.
 */
export function keepRunShapesSoon(): void {
  if (scheduled) return;
  scheduled = true;
  realSetTimeout(keepRunShapes, KEEP_DELAY_MS).unref();
}

/**
 * Compiles and runs the shapes plan on a private in-memory store: the objects to keep, and the run's
 * result (exported for its test: if the plan stopped compiling, the keeping would quietly do nothing).
 */
export function runShapesPlan(): {
  readonly objects: readonly object[];
  readonly result: Promise<ExecutionResult>;
} {
  const registry = createToolRegistry(SHAPE_TOOLS);
  const store = createMemoryStore();
  const compiled = compile(SHAPE_PLAN, registry);
  if (!compiled.ok)
    return { objects: [], result: Promise.reject(new Error("the shapes plan does not compile")) };
  const threadId = asThreadId("shapes");
  void store.openThread(threadId);
  const options = {
    registry,
    store,
    threadId,
    runId: "shapes",
    planHash: compiled.planHash,
    input: {},
    state: {},
  };
  const runner = new PlanRunner(options, compiled.calls.length);
  runner.add(compiled.calls);
  const result = runner.close();
  // The compiled plan does not keep the compiler's plan builder; an incremental compiler does.
  const incremental = createIncrementalCompiler(registry);
  for (const call of SHAPE_PLAN) incremental.addCall(call);
  incremental.close();
  // a runner that never runs keeps the shapes its parts have before a run (its signal, its queues)
  return { objects: [registry, store, compiled, incremental, runner, new PlanRunner(options, 0)], result };
}

/**
 * Once per process: runs {@link runShapesPlan} and keeps every object of it (registry, store, compiled
 * plan, an incremental compiler holding its plan builder, runners), so that the engine's classes keep
 * their hidden classes between runs. Without it, a full GC after a run frees them (no instance is left),
 * V8 throws away the optimized code that checks for them, and the next run re-warms in the interpreter:
 * 2-3x slower runs after every full GC (docs/decisions/0007-keep-run-shapes.md). Costs tens of
 * milliseconds once (cold code) and a few kilobytes for the life of the process; nothing of it is visible
 * to any engine.
 */
function keepRunShapes(): void {
  if (done) return;
  done = true;
  try {
    const { objects, result } = runShapesPlan();
    keepShapes(...objects, result);
    result.catch(() => {});
  } catch {
    // A speed measure only: whatever goes wrong here must never reach the host (it runs on its own tick).
  }
}
