import { asRunId, asThreadId, ObeliskError, type RunId } from "@obelisk/core";
import { cutMessage } from "./cut-message.js";
import type { EngineRuntime } from "./engine-runtime.js";
import type { RunCancellation } from "./engine-types.js";
import { checkOptionsObject, refuseUnknownKeys, requireString } from "./facade-arguments.js";
import { endCrashedRuns, resumeChain } from "./resume-chain.js";
import { runNotFound } from "./run-not-found.js";

const CANCEL_OPTIONS: ReadonlySet<string> = new Set(["reason"]);

/** Characters of the caller's reason kept in the record (the rest is counted). */
const REASON_CHARS = 1_000;

/** What a run given up says, before the reason it was interrupted with. */
const GIVEN_UP = "given up without resuming (engine.runs.cancel)";

/**
 * Ends an interrupted run without running anything (decision 0043): the run that cannot or should not be
 * resumed (its tools renamed, its plan stale) ends `cancelled`, as `resume` ends what it continues, and is
 * not listed `interrupted` again. Takes the thread's lock as a run does (waiting up to `lockWaitMs`:
 * THREAD_BUSY while a run holds it, which also keeps a run another process is resuming from being ended
 * under it); the lock marks a `running` record of a dead process `interrupted` first (decision 0025). The
 * runs it resumed (a chain of crashed resumes) that are still open end with it. A run that already ended
 * is answered as it is: `cancelled` lists nothing.
 */
export async function cancelRun(
  runtime: EngineRuntime,
  runId: string,
  options: { readonly reason?: string | undefined } | undefined,
): Promise<RunCancellation> {
  const id = asRunId(requireString(runId, "the run id"));
  const given = checkOptionsObject(options, "runs.cancel");
  if (given !== undefined) refuseUnknownKeys(given, CANCEL_OPTIONS, "runs.cancel");
  const reason = given?.reason === undefined ? GIVEN_UP : requireString(given.reason, "runs.cancel's reason");
  const store = runtime.store;
  const before = await store.getRun(id);
  if (before === undefined) throw runNotFound(runId);
  if (!isOpen(before.status)) return { cancelled: [], run: before };
  const lock = await store.lockThread(asThreadId(before.threadId), {
    waitMs: runtime.options.lockWaitMs ?? 0,
  });
  let cancelled: RunId[];
  try {
    const record = await store.getRun(id);
    if (record === undefined) throw runNotFound(runId);
    if (!isOpen(record.status)) return { cancelled: [], run: record };
    const chain = await resumeChain(store, record);
    const text = cutMessage(reason, REASON_CHARS);
    const ended = await endCrashedRuns(
      store,
      chain,
      () => runtime.endedAt(),
      (previous) => (previous === undefined ? text : `${text} (${previous})`),
    );
    cancelled = ended.map((run) => run.runId);
  } finally {
    await lock.release();
  }
  const run = await store.getRun(id);
  if (run === undefined)
    throw new ObeliskError("STORE_ERROR", `run ${runId} vanished while it was cancelled`);
  return { cancelled, run };
}

/** A record not ended: `running` (held by no one once the lock is taken) or `interrupted`. */
const isOpen = (status: string): boolean => status === "running" || status === "interrupted";
