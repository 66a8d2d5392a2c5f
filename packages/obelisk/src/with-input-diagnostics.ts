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
  const rank = (diagnostic: Diagnostic): number =>
    diagnostic.pointer === "" ? -1 : Math.max(0, keys.indexOf(parsePointer(diagnostic.pointer)[0] ?? ""));
  const merged: EngineDiagnostic[] = [...compiled];
  for (const diagnostic of input) {
    const own = rank(diagnostic);
    const at = merged.findIndex((other) => rank(other) > own);
    merged.splice(at === -1 ? merged.length : at, 0, diagnostic);
  }
  return merged;
}
