import type { VariableMeta } from "../store-types.js";

/**
 * By call id, the `†state` references of the variables each call wrote through its `_outputPath` while it is
 * still their writer (SPEC §3: such a call's output is not stored under `†calls.<id>`), in the store's order.
 */
export function stateWrittenByCall(variables: readonly VariableMeta[]): Map<string, string[]> {
  const byCall = new Map<string, string[]>();
  for (const meta of variables) {
    if (meta.scope !== "state") continue;
    const wrote = byCall.get(meta.writer.callId);
    if (wrote === undefined) byCall.set(meta.writer.callId, [meta.reference]);
    else wrote.push(meta.reference);
  }
  return byCall;
}
