import type { CompiledCall, RegisteredTool } from "@obelisk/compiler";
import type { JsonObject } from "@obelisk/core";

/**
 * Why a call of a tool with `approvalParams` does not run: a person answered one of its approvals with
 * `false` or `null` (a refusal; decision 0048). Undefined when every approval holds another value.
 */
export function refusedApproval(
  tool: RegisteredTool,
  call: CompiledCall,
  params: JsonObject | undefined,
): string | undefined {
  for (const name of tool.approvalParams) {
    const value = params?.[name];
    if (value !== false && value !== null) continue;
    const reference = call.params[name];
    const named = typeof reference === "string" ? reference : `"${name}"`;
    return `approval ${named} is ${String(value)}: refused, so the call did not run (write another value there to approve it)`;
  }
  return undefined;
}
