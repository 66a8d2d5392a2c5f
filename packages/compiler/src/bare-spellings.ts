import type { Diagnostic } from "@obelisk/core";
import { parseReference } from "@obelisk/core";
import { SPELLING_MESSAGE } from "./collect-references.js";
import { makeDiagnostic } from "./make-diagnostic.js";
import { misspeltReferenceHint } from "./misspelt-reference.js";
import type { PlanBuilder } from "./plan-builder.js";

/**
 * REF_SUSPICIOUS (warning) for each whole literal `<kind>.<path>` (no dagger) of a compiled call that names
 * a path this plan writes: `"state.user.id"` beside a call writing `†state.user` is what an LLM writes when
 * it forgets the dagger, and the tool would get the text itself. Looked at only once the whole plan is
 * known (batch and streaming alike), since a writer may come after its reader. The known context's data
 * is looked at when each call is analysed (`bareSpellingHint`).
 */
export function bareSpellingsOfWrittenPaths(builder: PlanBuilder, out: Diagnostic[]): void {
  const spellings = builder.settings.bareSpellings;
  if (spellings === undefined || spellings.length === 0) return;
  const { kinds, limits } = builder.settings;
  for (const { callId, pointer, text, slot } of spellings) {
    const parsed = parseReference(`†${text}`, kinds, limits);
    if (!parsed.ok || !builder.writesOverlapping(parsed.value.kind, parsed.value.path)) continue;
    const hint = `${misspeltReferenceHint({ reference: parsed.value, slot })} (this plan writes that path)`;
    out.push(makeDiagnostic("REF_SUSPICIOUS", SPELLING_MESSAGE, pointer, { callId, hint }));
  }
}
