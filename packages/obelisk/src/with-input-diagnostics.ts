import { type Diagnostic, type PlanDocument, type PlanForm, parsePointer } from "@obelisk/core";

/** What the pointer of a call's diagnostic starts with, per document form (`call`: every pointer). */
const CALLS_PREFIX: Readonly<Record<PlanForm, string>> = {
  plan: "/plan/",
  calls: "/calls/",
  array: "/",
  call: "",
};

/**
 * The compiled plan's diagnostics with the input's (the plan's `inputSchema` not usable, or the input
 * breaking it: `/inputSchema/...`, or `""` for the Input message's schema) among the document-level ones,
 * in the order of the document's top-level keys, before every call's: the compiler's order, document-level
 * first, then by call index (review4 M7: they came after every call diagnostic).
 */
export function withInputDiagnostics(
  compiled: readonly Diagnostic[],
  input: readonly Diagnostic[],
  document: PlanDocument | undefined,
): readonly Diagnostic[] {
  if (input.length === 0) return compiled;
  const prefix = document === undefined ? undefined : CALLS_PREFIX[document.form];
  let split = 0;
  if (prefix === undefined) split = compiled.length;
  else while (split < compiled.length && !(compiled[split] as Diagnostic).pointer.startsWith(prefix)) split++;
  const source = document?.source;
  const keys =
    typeof source === "object" && source !== null && !Array.isArray(source) ? Object.keys(source) : [];
  const rank = (diagnostic: Diagnostic): number =>
    diagnostic.pointer === "" ? -1 : keys.indexOf(parsePointer(diagnostic.pointer)[0] ?? "");
  // Array.prototype.sort is stable: diagnostics of one key keep their order (the compiler's, then the input's).
  const head = [...compiled.slice(0, split), ...input].sort((a, b) => rank(a) - rank(b));
  return split === compiled.length ? head : [...head, ...compiled.slice(split)];
}
