import { canonicalJson, type JsonValue, ObeliskError, type PlanHash, type ThreadId } from "@obelisk/core";
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
 * with that run's numbering. A plan without automatic ids is answered as it is. A refused plan is answered
 * so numbered only when that numbering makes it valid: a reader naming one of its automatic ids
 * (`†calls.echo$4`, the id the crashed run gave) reads nothing with the next numbers — since decision 0102 the
 * thread holds no copy of a satisfied unnamed call's output under that id — and is linked to its producer with
 * the crashed run's.
 */
export async function numberedAsResent(
  store: StateStore,
  threadId: ThreadId,
  given: JsonValue,
  validation: ValidationResult,
  compile: (numbering: ResumedNumbering) => ValidationResult,
): Promise<{ readonly validation: ValidationResult; readonly numbering?: ResumedNumbering }> {
  if (validation.compiled.autoIdsUsed === 0) return { validation };
  const numbering = await resentNumbering(store, threadId, validation.planHash, given);
  if (numbering === undefined) return { validation };
  const numbered = compile(numbering);
  return validation.ok || numbered.ok ? { validation: numbered, numbering } : { validation };
}

/**
 * A run's compile (`verdict`, from its first automatic id number and the ids automatic ids need not skip) and
 * the numbering of the run it continues: a resume's own; for a plan re-sent after a crash, the interrupted
 * run's ({@link numberedAsResent}; a plan refused with the next numbers runs with that run's when they make it
 * valid); none for another run, numbered from `first` (the thread's next number).
 */
export async function runNumbering(
  store: StateStore,
  threadId: ThreadId,
  given: JsonValue,
  resumed: ResumedNumbering | undefined,
  first: number,
  verdict: (first: number, own?: ReadonlySet<string>) => ValidationResult,
): Promise<{ readonly validation: ValidationResult; readonly numbering?: ResumedNumbering | undefined }> {
  if (resumed !== undefined) return { validation: verdict(first, resumed.ownCallIds), numbering: resumed };
  let validation: ValidationResult;
  try {
    validation = verdict(first);
  } catch (error) {
    const planHash = ObeliskError.is(error, "PLAN_INVALID") ? planHashOf(error.data) : undefined;
    const numbering =
      planHash === undefined ? undefined : await resentNumbering(store, threadId, planHash, given);
    if (numbering === undefined) throw error;
    try {
      return { validation: verdict(numbering.firstAutoIdNumber, numbering.ownCallIds), numbering };
    } catch {
      // refused with either numbering: the refusal of the thread's numbers, as without a crashed run
      throw error;
    }
  }
  return numberedAsResent(store, threadId, given, validation, (n) =>
    verdict(n.firstAutoIdNumber, n.ownCallIds),
  );
}

/** The plan hash a PLAN_INVALID error carries (`data.planHash`), if any. */
function planHashOf(data: unknown): PlanHash | undefined {
  const hash = (data as { planHash?: unknown } | undefined)?.planHash;
  return typeof hash === "string" ? (hash as PlanHash) : undefined;
}
