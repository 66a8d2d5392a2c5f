import type { Engine, RunRecord } from "../index.js";

/** Reads a run's record until it is no longer `running` (microtask turns, no timers); throws if it stays. */
export async function runEnded(engine: Engine, runId: string): Promise<RunRecord> {
  for (let turn = 0; turn < 500; turn++) {
    const { run } = await engine.runs.show(runId);
    if (run.status !== "running") return run;
  }
  throw new Error("the run record stayed running");
}
