import { type Diagnostic, type JsonValue, ObeliskError } from "@obelisk/core";

/** What the host's approval hook of `run_plan` is shown: the valid plan, its hash, its input and warnings. */
export interface PlanApprovalRequest {
  /** The plan as the model sent it. */
  readonly plan: unknown;
  /** The hash a run of it will have (`validate`'s `planHash`). It binds the plan, not the input. */
  readonly planHash: string;
  /**
   * The run's input as the model sent it (`{}` when none; the object `input_json` holds, in the
   * `openai-strict` form): the plan runs with it. The model chooses it, and
   * the same plan with another input has the same hash: a host approving by hash checks the input too.
   */
  readonly input: JsonValue;
  /** The thread the plan would run on. */
  readonly threadId: string;
  /** Its warnings (a plan with errors never reaches the hook). */
  readonly diagnostics: readonly Diagnostic[];
}

/** The hook: `true` runs the plan, `false` or a reason (a string, told to the model) refuses it. */
export type PlanApprover = (request: PlanApprovalRequest) => boolean | string | Promise<boolean | string>;

/** Asks the host; a refusal (or a hook that fails) is the PLAN_NOT_APPROVED the model gets. */
export async function askApproval(approve: PlanApprover, request: PlanApprovalRequest): Promise<void> {
  let answer: unknown;
  try {
    answer = await approve(request);
  } catch (error) {
    throw new ObeliskError("PLAN_NOT_APPROVED", `the approval of plan ${request.planHash} failed`, {
      cause: error,
      hint: "the host could not decide; ask the user, then send the plan again",
      data: { planHash: request.planHash },
    });
  }
  if (answer === true) return;
  const reason = typeof answer === "string" && answer.length > 0 ? `: ${answer}` : "";
  throw new ObeliskError("PLAN_NOT_APPROVED", `plan ${request.planHash} was not approved${reason}`, {
    hint: "change the plan as the reason says (or ask the user), validate it and send it again",
    data: { planHash: request.planHash },
  });
}
