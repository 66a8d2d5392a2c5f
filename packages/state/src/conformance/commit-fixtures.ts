import type { JsonObject, JsonValue, OutputMethod, Path, RunId, ThreadId } from "@obelisk/core";
import { applyOutput, asCallId, asRunId, asThreadId, formatReference } from "@obelisk/core";
import { unsetAtPath } from "../internal/unset-at-path.js";
import type { StoreOptions } from "../store-options.js";
import type {
  CallCommit,
  CallRecord,
  CallStatus,
  RunRecord,
  StateStore,
  StateWrite,
} from "../store-types.js";

/** Makes a store for one test; `cleanup` runs after it. */
export type MakeStore = (options?: StoreOptions) => StateStore | Promise<StateStore>;

/** The default test thread and run. */
export const THREAD: ThreadId = asThreadId("thread-1");
/** The default test run. */
export const RUN: RunId = asRunId("run-1");

/** A state write to `path` (default method `set`). */
export function write(path: Path, value: JsonValue, method: OutputMethod = "set"): StateWrite {
  return { path, method, value, reference: formatReference("state", path) };
}

/** Options of {@link commitOf}. */
export interface CommitSpec {
  readonly callId: string;
  readonly tool?: string;
  readonly threadId?: ThreadId;
  readonly runId?: RunId;
  readonly writes?: readonly StateWrite[];
  readonly output?: JsonValue;
  readonly status?: CallStatus;
  readonly callHash?: string;
  readonly description?: string;
}

/** A call commit with a plausible record. */
export function commitOf(spec: CommitSpec): CallCommit {
  const writes = spec.writes ?? [];
  const record: CallRecord = {
    threadId: spec.threadId ?? THREAD,
    runId: spec.runId ?? RUN,
    callId: asCallId(spec.callId),
    tool: spec.tool ?? "tool",
    status: spec.status ?? "succeeded",
    attempts: 1,
    outputMethod: writes[0]?.method ?? "set",
    wrote: writes.map((w) => w.reference),
    ...(spec.callHash === undefined ? {} : { callHash: spec.callHash }),
    ...(spec.description === undefined ? {} : { description: spec.description }),
    ...(spec.output === undefined ? {} : { result: spec.output }),
  };
  return { record, writes, ...(spec.output === undefined ? {} : { output: spec.output }) };
}

/** A manual clock starting at 2025-01-01T00:00:00Z. */
export function manualClock(start = Date.UTC(2025, 0, 1)): {
  now: () => number;
  advance: (ms: number) => void;
} {
  let time = start;
  return { now: () => time, advance: (ms) => (time += ms) };
}

/** Commits and fails the test if the store refuses. */
export async function commitOk(store: StateStore, spec: CommitSpec): Promise<void> {
  const result = await store.commitCall(commitOf(spec));
  if (!result.ok) throw new Error(`commit refused: ${result.error.code} ${result.error.message}`);
}

/** The thread's state as its write log folds (SPEC §8: the state is the fold of its write log). */
export async function foldedLog(store: StateStore): Promise<JsonObject> {
  let state: JsonObject = {};
  for (const entry of await store.readWriteLog(THREAD)) {
    if (entry.op === "reset") state = {};
    else if (entry.op === "unset") state = unsetAtPath(state, entry.write.path);
    else {
      const applied = applyOutput(state, entry.write.path, entry.write.method, entry.write.value);
      if (!applied.ok) throw new Error(applied.message);
      state = applied.value as JsonObject;
    }
  }
  return state;
}

/** A run record for store tests: {@link RUN} on {@link THREAD}, `running`, with `changes` applied. */
export function runRecord(changes: Partial<RunRecord> = {}): RunRecord {
  return {
    runId: RUN,
    threadId: THREAD,
    planHash: "sha256:x",
    plan: [],
    input: {},
    status: "running",
    startedAt: "t",
    ...changes,
  };
}
