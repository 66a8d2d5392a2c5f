import { type Diagnostic, type PlanDocument, parsePointer } from "@obelisk/core";
import type { EngineDiagnostic } from "./engine-types.js";

/**
 * The compiled plan's diagnostics with the input's (the plan's `inputSchema` not usable, or the input
 * breaking it: `/inputSchema/...`, or `""` for the Input message's schema) merged in document order, as
 * the compiler orders its own: each input diagnostic goes before the first compiled one whose top-level key
 * comes later in the document (`""` before everything pointed into the document), after those of its own
 * key (review4 M7: they came after every call diagnostic). The compiled order is kept as it is.
 */
export function withInputDiagnostics(
  compiled: readonly Diagnostic[],
  input: readonly EngineDiagnostic[],
  document: PlanDocument | undefined,
): readonly EngineDiagnostic[] {
  if (input.length === 0) return compiled;
  const source = document?.source;
  const keys =
    typeof source === "object" && source !== null && !Array.isArray(source) ? Object.keys(source) : [];
  const ranks = new Map(keys.map((key, at) => [key, at]));
  const rank = (diagnostic: Diagnostic): number => {
    const pointer = diagnostic.pointer;
    return pointer === "" ? -1 : (ranks.get(parsePointer(pointer)[0] ?? "") ?? 0);
  };
  // Each pointer is read once. An input diagnostic goes before the first compiled one ranked above it, that
  // is before the first whose highest rank so far is above its own: the input ones, ordered by rank (stable),
  // are placed in one pass (linear, but for sorting the input ones: review s35 H1, it was quadratic).
  const pending = input.map((diagnostic, at) => ({ diagnostic, rank: rank(diagnostic), at }));
  pending.sort((a, b) => a.rank - b.rank || a.at - b.at);
  const merged: EngineDiagnostic[] = [];
  let next = 0;
  const placeBelow = (highest: number): void => {
    for (let item = pending[next]; item !== undefined && item.rank < highest; item = pending[++next])
      merged.push(item.diagnostic);
  };
  let highest = Number.NEGATIVE_INFINITY;
  for (const diagnostic of compiled) {
    highest = Math.max(highest, rank(diagnostic));
    placeBelow(highest);
    merged.push(diagnostic);
  }
  placeBelow(Number.POSITIVE_INFINITY);
  return merged;
}
