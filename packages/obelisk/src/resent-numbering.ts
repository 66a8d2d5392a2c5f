import { canonicalJson, type JsonValue, type PlanHash, type ThreadId } from "@obelisk/core";
import type { StateStore } from "@obelisk/state";
import type { ValidationResult } from "./engine-types.js";
import type { ResumedNumbering } from "./prepared-run.js";
import { resumeChain } from "./resume-chain.js";

/**
 * The automatic id numbering of the thread's newest `interrupted` run of the same plan hash (the plan re-sent
 * with `run` after a crash instead of `resume`), as `resume` of it would number its calls: its first number
 * and the call ids its chain recorded. The re-sent plan is numbered so, and a call the crash cut off runs
 * again with the ids — and `ctx.idempotencyKey`, `ctx.contentKey` — it had (decision 0099). The run must have
 * had the same input (`given`, as runs record it; canonical JSON): the hash binds the plan, not its input, and
 * a charge of another amount must not take the cut-off charge's key (review s40 rev1); `validate` without an
 * input numbers as a run without one (`{}`) would. Undefined when there is no such run, or it was recorded
 * without its numbering.
 */
export async function resentNumbering(
  store: StateStore,
  threadId: ThreadId,
  planHash: PlanHash,
  given: JsonValue,
): Promise<ResumedNumbering | undefined> {
  const interrupted = await store.listRuns({ threadId, status: "interrupted" });
  const input = canonicalJson(given);
  const earlier = interrupted.find(
    (run) =>
      run.planHash === planHash && run.firstAutoIdNumber !== undefined && canonicalJson(run.input) === input,
  );
  return earlier === undefined ? undefined : (await resumeChain(store, earlier)).numbering;
}

/**
 * `validation` (a plan compiled with the thread's next numbers) numbered as a re-send of the thread's
 * interrupted run of the same plan, when there is one ({@link resentNumbering}): `compile` compiles it again
 * with that run's numbering. A plan without automatic ids, or refused, is answered as it is.
 */
export async function numberedAsResent(
  store: StateStore,
  threadId: ThreadId,
  given: JsonValue,
  validation: ValidationResult,
  compile: (numbering: ResumedNumbering) => ValidationResult,
): Promise<{ readonly validation: ValidationResult; readonly numbering?: ResumedNumbering }> {
  if (!validation.ok || validation.compiled.autoIdsUsed === 0) return { validation };
  const numbering = await resentNumbering(store, threadId, validation.planHash, given);
  return numbering === undefined ? { validation } : { validation: compile(numbering), numbering };
}

/**
 * A run's compile (`verdict`, from its first automatic id number and the ids automatic ids need not skip) and
 * the numbering of the run it continues: a resume's own; for a plan re-sent after a crash, the interrupted
 * run's ({@link numberedAsResent}); none for another run, numbered from `first` (the thread's next number).
 */
export async function runNumbering(
  store: StateStore,
  threadId: ThreadId,
  given: JsonValue,
  resumed: ResumedNumbering | undefined,
  first: number,
  verdict: (first: number, own?: ReadonlySet<string>) => ValidationResult,
): Promise<{ readonly validation: ValidationResult; readonly numbering?: ResumedNumbering | undefined }> {
  const validation = verdict(first, resumed?.ownCallIds);
  if (resumed !== undefined) return { validation, numbering: resumed };
  return numberedAsResent(store, threadId, given, validation, (n) =>
    verdict(n.firstAutoIdNumber, n.ownCallIds),
  );
}
