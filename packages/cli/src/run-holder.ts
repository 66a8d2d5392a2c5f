import type { LockHolder, RunRecord, StateStore } from "obelisk";

/**
 * Who holds a `running` run's thread, read without taking its lock (`StateStore.lockHolder`): the holder,
 * `null` when nobody does (the run is not in progress), or undefined when the run is not `running` or the
 * store cannot tell (a store without `lockHolder`).
 */
export async function runHolder(store: StateStore, run: RunRecord): Promise<LockHolder | null | undefined> {
  if (run.status !== "running" || store.lockHolder === undefined) return undefined;
  return (await store.lockHolder(run.threadId)) ?? null;
}
