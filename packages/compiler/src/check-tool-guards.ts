import type { Diagnostic, JsonObject } from "@obelisk/core";
import { appendPointer } from "@obelisk/core";
import type { CallMeta } from "./call-meta.js";
import type { ParamReference } from "./compiled-plan.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import type { RegisteredTool } from "./registered-tool.js";

const APPROVAL_HINT =
  'write "†state.approvals.<name>": the call waits until a person writes that approval (obelisk state set, engine.set)';

/**
 * The tool's approval parameters (`approvalParams`): each must be present (PARAM_MISSING) and a whole
 * reference to one path under `†state.approvals.` (PARAM_INVALID): a literal, a template, a fallback
 * (`†state.approvals.x || †state.y`) or a gate would let the plan give the approval itself.
 */
export function checkApprovalParams(
  tool: RegisteredTool,
  params: JsonObject,
  references: readonly ParamReference[],
  pointer: string,
  callId: string | undefined,
  out: Diagnostic[],
): void {
  for (const name of tool.approvalParams) {
    const at = appendPointer(pointer, name);
    if (!Object.hasOwn(params, name)) {
      // a schema that requires it reports it already (PARAM_MISSING from the input check)
      if (requires(tool.inputSchema, name)) continue;
      const message = `tool "${tool.name}" takes its approval in "${name}", which is missing`;
      out.push(makeDiagnostic("PARAM_MISSING", message, pointer, { callId, hint: APPROVAL_HINT }));
      continue;
    }
    const reference = references.find((r) => r.location.length === 1 && r.location[0] === name);
    if (reference !== undefined && isOneApproval(reference)) continue;
    const message = `"${name}" carries a person's approval: it must be a reference under †state.approvals., not ${
      reference === undefined ? "a literal (an approval is not the plan's to give)" : "this expression"
    }`;
    out.push(makeDiagnostic("PARAM_INVALID", message, at, { callId, hint: APPROVAL_HINT }));
  }
}

function requires(schema: JsonObject, name: string): boolean {
  return Array.isArray(schema.required) && schema.required.includes(name);
}

/** True for a whole reference to one path below `†state.approvals` (no fallback, gate or template). */
function isOneApproval(reference: ParamReference): boolean {
  const value = reference.value;
  if (value.type !== "reference" || value.expression.alternatives.length !== 1) return false;
  const [operands] = value.expression.alternatives;
  if (operands === undefined || operands.length !== 1) return false;
  const [operand] = operands;
  return (
    operand !== undefined &&
    operand.kind === "state" &&
    operand.path.length >= 2 &&
    operand.path[0] === "approvals"
  );
}

/**
 * A tool that is not idempotent (`idempotent: false`): the plan may not rerun it (`_rerun: true`) or ask
 * for more attempts than the tool's own policy gives (`_retry.attempts`), CALL_SHAPE at the meta-property.
 */
export function checkPlanOverrides(
  tool: RegisteredTool,
  meta: CallMeta,
  pointer: string,
  callId: string | undefined,
  out: Diagnostic[],
): void {
  if (tool.idempotent) return;
  if (meta.rerun) {
    const message = `tool "${tool.name}" is not idempotent: a plan may not rerun it`;
    const hint = "remove _rerun: a completed call of this tool is not run again on this thread";
    out.push(makeDiagnostic("CALL_SHAPE", message, appendPointer(pointer, "_rerun"), { callId, hint }));
  }
  const attempts = meta.retry?.attempts;
  const allowed = tool.retry.attempts ?? 1;
  if (attempts !== undefined && attempts > allowed) {
    const message = `tool "${tool.name}" is not idempotent: a plan may not give it more than ${allowed} attempt${allowed === 1 ? "" : "s"} (its own retry policy), not ${attempts}`;
    const at = appendPointer(appendPointer(pointer, "_retry"), "attempts");
    out.push(
      makeDiagnostic("CALL_SHAPE", message, at, {
        callId,
        hint: `remove _retry.attempts, or set it to ${allowed} or less`,
      }),
    );
  }
}
