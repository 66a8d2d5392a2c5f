import { createToolRegistry } from "@obelisk/compiler";
import { ObeliskError, readHostValue, resolveLimits } from "@obelisk/core";
import { EventChannel, type RunEvent } from "@obelisk/scheduler";
import { createMemoryStore, type GetValueOptions, getValue, summarize, unsetValue } from "@obelisk/state";
import { registerAcceptingRun } from "./accepting-run.js";
import { cancelRun } from "./cancel-run.js";
import { checkEngineOptions } from "./check-engine-options.js";
import { withCheckedHooks } from "./checked-hooks.js";
import { editThread } from "./edit-thread.js";
import { registerHostKinds } from "./engine-host-kinds.js";
import { engineRuns, missingStoreMethod } from "./engine-runs.js";
import { EngineRuntime } from "./engine-runtime.js";
import { listThreads } from "./engine-threads.js";
import type {
  Engine,
  EngineOptions,
  GetValueResult,
  RunHandle,
  RunOptions,
  RunResult,
} from "./engine-types.js";
import {
  checkOptionsObject,
  checkRunOptions,
  checkSummarizeOptions,
  refuseUnknownKeys,
  requireKeepCount,
  requireString,
  requireThreadId,
} from "./facade-arguments.js";
import { requireJson } from "./normalize-input.js";
import { openRun } from "./open-run.js";
import { checkReferenceDepth } from "./reference-depth.js";
import { resumeRun } from "./resume-run.js";
import { runPlan } from "./run-plan.js";
import { setThreadValue, tooLarge } from "./set-thread-value.js";
import type {
  JsonStateCheck,
  PartialState,
  TypedEngineOptions,
  ZodState,
  ZodStateEngineOptions,
  ZodStateSchema,
} from "./typed-state.js";
import { type GivenEngineOptions, withJsonStateSchema } from "./with-json-state-schema.js";

/**
 * `start`'s events: a run that ends without `run-end` (refused before it began: PLAN_INVALID, THREAD_BUSY,
 * USAGE) ends the iteration with its error, instead of ending it empty (review s33r F13).
 */
function eventsOrError(channel: EventChannel, result: Promise<unknown>): AsyncIterable<RunEvent> {
  return {
    [Symbol.asyncIterator]: () => {
      const inner = channel[Symbol.asyncIterator]();
      let ended = false;
      return {
        next: async () => {
          const step = await inner.next();
          if (!step.done) {
            if (step.value.type === "run-end") ended = true;
            return step;
          }
          if (!ended) await result;
          return step;
        },
        return: () => inner.return?.() ?? Promise.resolve({ value: undefined, done: true }),
      };
    },
  };
}

const GET_OPTIONS: ReadonlySet<string> = new Set(["offset", "limit"]);
const SET_OPTIONS: ReadonlySet<string> = new Set(["description"]);

/**
 * Creates an engine whose threads' state has the shape `State` (given explicitly), which `stateSchema`
 * (required here) holds every write to at run time: `run`'s `state` and `get` of `†state` / `†state.<key>`
 * are typed `PartialState<State>` (any value may be absent until its writer ran). A zod `stateSchema` must
 * hold only `State`s (its input type assignable to `State`); a JSON Schema is not checked against the type:
 * keep the two the same shape (decision 0035).
 */
export function createEngine<State extends object = never>(
  given: TypedEngineOptions<NoInfer<State>>,
): Engine<PartialState<NoInfer<State>>>;
/**
 * Creates an engine whose state is typed from its zod `stateSchema` (`PartialState<z.input<Schema>>`, no
 * type argument), which is converted to JSON Schema once, as a tool's `input` is; a type no JSON value
 * satisfies is USAGE here (decision 0035, amended).
 */
export function createEngine<Schema extends ZodStateSchema>(
  given: ZodStateEngineOptions<Schema> & JsonStateCheck<ZodState<Schema>>,
): Engine<PartialState<ZodState<Schema>>>;
/**
 * Creates an engine (SPEC §7–§9): tools, a store (default in-memory), limits, hooks and injected clock,
 * randomness and id generator. Throws ObeliskError USAGE for invalid tool definitions and invalid options.
 */
export function createEngine(given: EngineOptions): Engine;
export function createEngine(given: GivenEngineOptions): Engine {
  // the host's objects are read here: a getter or Proxy trap that throws is USAGE naming where, never a raw
  // error (the checks name the option or tool; this names the options for anything deeper)
  const { options, registry } = readHostValue("createEngine's options", () => {
    const checked = withCheckedHooks(withJsonStateSchema(checkEngineOptions(given as EngineOptions)));
    const tools = createToolRegistry(
      checked.tools,
      checked.implementations === undefined ? {} : { implementations: checked.implementations },
    );
    return { options: checked, registry: tools };
  });
  // the default store keeps the engine's retention as its own (decision 0104); a host's store is passed
  // the engine's policy on every expiring read instead (`retention` below, and in the runtime)
  const store =
    options.store ??
    createMemoryStore({
      ...(options.now === undefined ? {} : { now: options.now }),
      ...(options.retention === undefined ? {} : { retention: options.retention }),
    });
  const runtime = new EngineRuntime(options, registry, store);
  const maxValueBytes = options.limits?.maxValueBytes;
  const limits = Object.freeze(resolveLimits(options.limits));
  // the state functions parse references themselves: held to the engine's limit, not their default 32
  const depth = { maxPathDepth: limits.maxPathDepth };
  // expiry on read by the engine's age limits, never the store's alone (decision 0104)
  const reads = { ...depth, ...(options.retention === undefined ? {} : { retention: options.retention }) };
  const start = (plan: unknown, runOptions: RunOptions = {}): RunHandle => {
    const channel = new EventChannel();
    let result: Promise<RunResult>;
    try {
      const checked = checkRunOptions(runOptions, "start", limits.maxCalls);
      result = runPlan(runtime, plan, checked, runtime.hub([checked.onEvent, channel.push]));
    } catch (error) {
      result = Promise.reject(error);
    }
    result.catch(() => channel.end());
    return { events: eventsOrError(channel, result), result };
  };
  const engine: Engine = {
    store,
    registry,
    limits,
    validate: async (plan, validateOptions) =>
      runtime.validate(plan, checkRunOptions(validateOptions, "validate", limits.maxCalls)),
    run: async (plan, runOptions = {}) => {
      const checked = checkRunOptions(runOptions, "run", limits.maxCalls);
      return runPlan(runtime, plan, checked, runtime.hub([checked.onEvent]));
    },
    start,
    open: async (openOptions = {}) => openRun(runtime, checkRunOptions(openOptions, "open", limits.maxCalls)),
    resume: async (runId, resumeOptions = {}) =>
      resumeRun(
        runtime,
        requireString(runId, "the run id"),
        checkRunOptions(resumeOptions, "resume", limits.maxCalls),
      ),
    summarize: async (threadId, summarizeOptions) => {
      const thread = requireThreadId(threadId);
      const options = checkSummarizeOptions(summarizeOptions);
      for (const ref of options?.refs ?? []) checkReferenceDepth(ref, limits);
      // a thread the store does not hold reads as an empty one, and is not created (0022)
      return summarize(store, thread, { ...options, ...reads });
    },
    // without offset and limit the answer is never a page: the overload without options says so
    get: (async (threadId: string, reference: string, getOptions?: GetValueOptions) => {
      const thread = requireThreadId(threadId);
      const text = requireString(reference, "the reference");
      checkReferenceDepth(text, limits);
      const options = checkOptionsObject(getOptions, "get");
      if (options !== undefined) refuseUnknownKeys(options, GET_OPTIONS, "get");
      const result: GetValueResult = await getValue(store, thread, text, { ...options, ...reads });
      return result;
    }) as Engine["get"],
    set: async (threadId, reference, value, setOptions = {}) => {
      const thread = requireThreadId(threadId);
      checkReferenceDepth(requireString(reference, "the reference"), limits);
      refuseUnknownKeys(checkOptionsObject(setOptions, "set"), SET_OPTIONS, "set");
      // a plain-JS caller's number or object was stored as the description, and summaries then threw
      if (setOptions.description !== undefined) requireString(setOptions.description, "set's description");
      // undefined is most often a value meant to be removed: say how
      if (value === undefined)
        throw new ObeliskError("USAGE", "set needs a value: undefined is not JSON", {
          hint: "give a JSON value (null for none); engine.unset removes a value",
        });
      // copied within the limit: the same refusal as a measured value's, reached without copying more
      const json = requireJson(value, "value", limits.maxValueBytes, () =>
        tooLarge(reference, limits.maxValueBytes),
      );
      await setThreadValue(runtime, thread, reference, json, {
        now: runtime.now,
        // only what the API offers: a plain-JS caller cannot pass the run id, clock or limit this way
        ...(setOptions.description === undefined ? {} : { description: setOptions.description }),
        ...(maxValueBytes === undefined ? {} : { maxValueBytes }),
        ...depth,
      });
    },
    unset: async (threadId, reference) => {
      const thread = requireThreadId(threadId);
      const text = requireString(reference, "the reference");
      checkReferenceDepth(text, limits);
      const { removed, variables } = await editThread(runtime, thread, () =>
        unsetValue(store, thread, text, { now: runtime.now, ...depth }),
      );
      return { removed, variables };
    },
    // a thread the store does not hold: the store clears and evicts nothing and creates no thread (0022)
    reset: async (threadId) => {
      const thread = requireThreadId(threadId);
      await editThread(runtime, thread, () => store.reset(thread));
    },
    keepLastN: async (threadId, n) => {
      const thread = requireThreadId(threadId);
      // checked before the lock: a bad n is USAGE at once, not THREAD_BUSY (or a wait) on a busy thread
      const count = requireKeepCount(n);
      return editThread(runtime, thread, async () => {
        const before = (await store.listVariables(thread)).length;
        await store.keepLastN(thread, count);
        const kept = (await store.listVariables(thread)).length;
        return { kept, evicted: Math.max(0, before - kept) };
      });
    },
    runs: {
      ...engineRuns(store),
      cancel: async (runId, cancelOptions) => cancelRun(runtime, runId, cancelOptions),
    },
    threads: { list: async (listOptions) => listThreads(store, listOptions) },
    // the store takes the thread's lock itself (waiting as a run would), so not through editThread
    deleteThread: async (threadId) => {
      const thread = requireThreadId(threadId);
      if (store.deleteThread === undefined) throw missingStoreMethod("deleteThread", "deleteThread");
      return store.deleteThread(thread, { waitMs: runtime.options.lockWaitMs ?? 0 });
    },
    close: async () => {
      // runs in flight are cancelled and finish their records before the store goes
      await runtime.active.closeAll();
      await store.close();
    },
  };
  // what planLanguagePrompt and agentTools tell and check of the host kinds (decision 0077)
  registerHostKinds(registry, { names: runtime.hostKinds, table: runtime.kinds, scope: runtime.kindScope });
  // run_plan's way to validate, be approved and run on one compile (not part of the Engine interface)
  registerAcceptingRun(engine, async (plan, runOptions, accept) => {
    const checked = checkRunOptions(runOptions, "run", limits.maxCalls);
    return runPlan(runtime, plan, checked, runtime.hub([checked.onEvent]), { accept });
  });
  return engine;
}
