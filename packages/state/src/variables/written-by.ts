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
