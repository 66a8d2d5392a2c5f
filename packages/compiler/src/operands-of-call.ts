import type { CallOperand, WriterLink } from "./compiled-plan.js";
import type { WriterGroup } from "./plan-dag.js";
import { writerTable } from "./writer-table.js";

/**
 * A call's `operands` (exact-size). A call whose only operand reads through a shared group gets the group's
 * one list: `[operand]` is the same for all of them (a fan-out's 10k readers of one path would hold 10k
 * equal lists). Lists are never changed once made.
 */
export function operandsOfCall(
  operands: readonly CallOperand[],
  groups: readonly WriterGroup[],
  single: boolean,
): readonly CallOperand[] {
  const only = operands.length === 1 && single ? (groups[0] as WriterGroup) : undefined;
  if (only !== undefined && only.owner === undefined) {
    only.soleOperands ??= [only];
    return only.soleOperands;
  }
  return operands.slice();
}

/**
 * A call's `writers` (operand text → links, see WriterTable), over its `operands`: a call with the group's
 * shared list (see `operandsOfCall`) gets the group's one table too.
 */
export function writersOfCall(
  operands: readonly CallOperand[],
  groups: readonly WriterGroup[],
  distinct: readonly CallOperand[],
): ReadonlyMap<string, readonly WriterLink[]> {
  const only = groups.length === 1 ? (groups[0] as WriterGroup) : undefined;
  if (only !== undefined && operands === only.soleOperands) {
    only.soleWriters ??= writerTable(operands, operands);
    return only.soleWriters;
  }
  return writerTable(operands, distinct);
}

/** The links a call adds: its new groups' writers (a cyclic one's own link too), its links into groups it feeds. */
export function linksAdded(groups: readonly WriterGroup[], feeds: ReadonlyMap<WriterGroup, unknown>): number {
  let added = feeds.size;
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g] as WriterGroup;
    if (group.readers.length === 0) added += group.links.length + (group.cyclic ? 1 : 0);
  }
  return added;
}
