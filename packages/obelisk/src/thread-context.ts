import type { CompileContext } from "@obelisk/compiler";
import type { JsonObject, JsonValue, ThreadId } from "@obelisk/core";
import {
  evictionAdvice,
  type StateStore,
  stateWrittenByCall,
  type ThreadInfo,
  type VariableMeta,
} from "@obelisk/state";
import type { EngineOptions } from "./engine-types.js";
import type { KindScope } from "./kind-readers.js";
import type { HostContext, NormalizedInput } from "./normalize-input.js";

/** A run's input and host values are known (a run has them; `validate` only when given). */
const KNOWN = Object.freeze({ input: true, context: true });
/** The host values of a run given no context: none. */
const NO_HOST_VALUES: HostContext = Object.freeze({});
/** The state of a thread the store does not hold yet. */
const EMPTY_STATE: JsonObject = Object.freeze({});

/** What a thread's compile context is read with: the engine runtime's store, kind scope and options. */
interface ContextSource {
  readonly store: StateStore;
  readonly kindScope: KindScope | undefined;
  readonly options: EngineOptions;
}

/**
 * The compile context of a thread, given as the store holds it (`getThread`, read once by the caller;
 * undefined: the store holds no such thread, read as empty). Read, never opened: validating (or refusing
 * a run) leaves no thread behind (differential review F6). `known` says whether the run's input and
 * host-kind values are known (a run: always; `validate`: when given): a known context without a value for
 * a declared kind has none (`†env.x` is REF_UNRESOLVED, as at run time).
 */
export async function threadContext(
  source: ContextSource,
  threadId: ThreadId,
  thread: ThreadInfo | undefined,
  input: NormalizedInput,
  extra: HostContext | undefined,
  known: { readonly input: boolean; readonly context: boolean } = KNOWN,
): Promise<CompileContext> {
  const { store, kindScope } = source;
  const inputKnown = known.input;
  const hostValues = extra ?? (known.context ? NO_HOST_VALUES : undefined);
  const stateSchema = source.options.stateSchema ?? thread?.stateSchema;
  if (thread === undefined) {
    return {
      state: EMPTY_STATE,
      ...(inputKnown ? { input: input.input } : {}),
      callOutputs: new Set(),
      ...(input.schema === undefined ? {} : { inputSchema: input.schema }),
      ...(stateSchema === undefined ? {} : { stateSchema }),
      ...(hostValues === undefined ? {} : { extraKinds: hostValues }),
      ...(kindScope === undefined ? {} : { mayRead: kindScope.mayRead }),
      callOutput: () => undefined,
      evicted: () => undefined,
    };
  }
  const state = await store.readState(threadId);
  const callOutputs = new Set(await store.listCallOutputIds(threadId));
  return {
    state,
    // Unknown (validate before the input exists): references into †input are judged by the schemas.
    ...(inputKnown ? { input: input.input } : {}),
    callOutputs,
    ...(input.schema === undefined ? {} : { inputSchema: input.schema }),
    ...(stateSchema === undefined ? {} : { stateSchema }),
    ...(hostValues === undefined ? {} : { extraKinds: hostValues }),
    ...(kindScope === undefined ? {} : { mayRead: kindScope.mayRead }),
    callOutput: (id) => storedOutput(store, threadId, id, source.options),
    ...writersOf(store, threadId),
    evicted: (reference) => evictedAt(store, threadId, reference),
  };
}

/** What the compiler asks of the thread's variables' writers (see `writersOf`). */
type Writers = Required<Pick<CompileContext, "writtenBy" | "stateWriter">>;

/**
 * The thread's variables' writers, when the store answers at once, listed once per compile on the first
 * question (a plan with thousands of questions would otherwise list them thousands of times):
 * `writtenBy`, the `†state` references a call of an earlier run wrote through its `_outputPath`, by call
 * id (asked only for a `†calls.<id>` nothing else resolves, to name what to read), and `stateWriter`, the
 * call that last wrote the value at a `†state` reference (asked only for a write the stored state refuses,
 * decision 0114).
 */
function writersOf(store: StateStore, threadId: ThreadId): Writers {
  let listed: readonly VariableMeta[] | null | undefined;
  const variables = (): readonly VariableMeta[] | null => {
    listed ??= answerNow(() => store.listVariables(threadId)) ?? null;
    return listed;
  };
  let byCall: ReadonlyMap<string, readonly string[]> | null | undefined;
  let byReference: ReadonlyMap<string, VariableMeta["writer"]> | null | undefined;
  return {
    writtenBy: (id) => {
      if (byCall === undefined) {
        const all = variables();
        byCall = all === null ? null : stateWrittenByCall(all);
      }
      return byCall?.get(id);
    },
    stateWriter: (reference) => {
      if (byReference === undefined) {
        const all = variables();
        byReference = all === null ? null : new Map(all.map((meta) => [meta.reference, meta.writer]));
      }
      return byReference?.get(reference);
    },
  };
}

/**
 * The output stored under `†calls.<id>` when the store answers at once (see {@link answerNow}): the
 * compiler asks only for the stored outputs a plan reads, once each, so a thread's other (possibly large)
 * outputs are never loaded to compile.
 */
function storedOutput(
  store: StateStore,
  threadId: ThreadId,
  id: string,
  options: EngineOptions,
): { readonly value: JsonValue } | undefined {
  // expiry on read by the engine's age limits, as validate's expireStale (decision 0104)
  const stored = answerNow(() => store.getCallOutput(threadId, id, options.retention));
  return stored === undefined || !("value" in stored) ? undefined : { value: stored.value };
}

/**
 * "evicted at <time> (<reason>: <what to do>)" when the store answers at once that `reference` was evicted
 * (what to do: `evictionAdvice`).
 */
function evictedAt(store: StateStore, threadId: ThreadId, reference: string): string | undefined {
  const tombstone = answerNow(() => store.getTombstone(threadId, reference));
  return tombstone === undefined
    ? undefined
    : `evicted at ${tombstone.evictedAt} (${tombstone.reason}: ${evictionAdvice(tombstone)})`;
}

/**
 * A store's answer when it gives one at once (the memory and SQLite stores do), else undefined: compile is
 * synchronous, so an asynchronous store's answer is "unknown" (no diagnostic), its promise handled, and a
 * store that throws is unknown too.
 */
function answerNow<T>(ask: () => T | Promise<T>): T | undefined {
  try {
    const answer = ask();
    if (!(answer instanceof Promise)) return answer;
    answer.catch(() => undefined);
  } catch {
    // unknown
  }
  return undefined;
}
