import type { JsonObject, ThreadId } from "@obelisk/core";
import type { StateStore } from "@obelisk/state";
import type { EngineOptions } from "./engine-types.js";
import { keepRunShapesSoon } from "./keep-run-shapes.js";
import { warnAfterRun } from "./thrown-message.js";

/** What the steps after a run use: the engine runtime's store, options and end clock. */
interface AfterRunSource {
  readonly store: StateStore;
  readonly options: EngineOptions;
  endedAt(): string;
}

/** After a run: retention (never during one), history pruning, then the state to report. */
export async function afterRun(source: AfterRunSource, threadId: ThreadId): Promise<JsonObject> {
  keepRunShapesSoon();
  // the run's end is recorded: a failing clock takes the real one (as endedAt), a failing retention is a
  // warning (it runs again after the next run), never an error for a run that has ended
  try {
    // the engine's fields, those it leaves out the store's own: the policy expiry on read applies (0104)
    await source.store.applyRetention(threadId, source.options.retention ?? {}, new Date(source.endedAt()));
  } catch (error) {
    warnAfterRun(`retention on thread ${JSON.stringify(threadId)}`, error);
  }
  await pruneHistory(source, threadId);
  return source.store.readState(threadId);
}

/**
 * The `history` option after a run, under its lock (decision 0075): the thread's oldest runs the policy
 * selects, at most a batch per run. A failure is a warning, as retention's: the next run prunes again.
 */
async function pruneHistory(source: AfterRunSource, threadId: ThreadId): Promise<void> {
  const { history } = source.options;
  if (history === undefined || source.store.pruneHistory === undefined) return;
  try {
    await source.store.pruneHistory(threadId, history, new Date(source.endedAt()));
  } catch (error) {
    warnAfterRun(`history pruning on thread ${JSON.stringify(threadId)}`, error);
  }
}
