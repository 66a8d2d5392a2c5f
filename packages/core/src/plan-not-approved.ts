import { ObeliskError } from "./obelisk-error.js";

/**
 * The refusal of a plan whose hash is not the approved one (`run`'s `approvedHash`, the CLI's
 * `--approved`): PLAN_NOT_APPROVED with both hashes and how to approve the plan as it is now.
 */
export function planNotApproved(planHash: string, approvedHash: string): ObeliskError {
  return new ObeliskError(
    "PLAN_NOT_APPROVED",
    `the plan's hash ${planHash} differs from the approved hash ${approvedHash.slice(0, 80)}`,
    {
      data: { planHash, approvedHash },
      hint: "the plan changed since it was approved (any call, parameter, id or output path changes the hash): validate it as it is now and approve the hash that prints",
    },
  );
}
