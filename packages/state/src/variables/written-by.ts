import type { VariableMeta } from "../store-types.js";

/**
 * The `†state` references of the variables `callId` wrote through its `_outputPath`, while it is still
 * their writer (SPEC §3: such a call's output is not stored under `†calls.<id>`), in the store's order.
 */
export function stateWrittenBy(variables: readonly VariableMeta[], callId: string): string[] {
  const wrote: string[] = [];
  for (const meta of variables)
    if (meta.scope === "state" && meta.writer.callId === callId) wrote.push(meta.reference);
  return wrote;
}

/** {@link stateWrittenBy} for every call at once: the `†state` references each call id wrote, in one pass. */
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
