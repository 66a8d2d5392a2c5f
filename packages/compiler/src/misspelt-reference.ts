import type { KindTable, Limits, Reference } from "@obelisk/core";
import { parseReference, sigilLookalikeLength } from "@obelisk/core";
import { kindAt } from "./reference-spelling-hint.js";

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** A reference a literal spells without the dagger (decision 0097). */
export interface MisspeltReference {
  /** The reference it means (`text` is canonical, with `†`). */
  readonly reference: Reference;
  /** The slot as written (`{{input.topic}}`), or undefined for the whole string (`‡input.topic`). */
  readonly slot?: string | undefined;
}

/** The reference `†` + `text[from, to)` when that is exactly one reference of a known kind. */
function referenceAt(
  text: string,
  from: number,
  to: number,
  names: readonly string[],
  kinds: KindTable,
  limits: Pick<Limits, "maxPathDepth">,
): Reference | undefined {
  if (!kindAt(text, from, names)) return undefined;
  const parsed = parseReference(`†${text.slice(from, to)}`, kinds, limits);
  return parsed.ok ? parsed.value : undefined;
}

/**
 * The reference a plain literal (no `†`, no leading `$`) spells without its dagger other than as a bare
 * `kind.path`: the whole string after a look-alike of the dagger (`‡input.x`, `+input.x`, `&dagger;input.x`,
 * `\u2020input.x`), or a slot `{kind.path}` / `{{kind.path}}` (a look-alike inside allowed) whose braces
 * hold exactly one reference of a known kind. The caller judges whether the path names known data or one
 * the plan writes, as for the bare spelling; ordinary braces (JSON, prose) hold no `kind.` and pass. Each
 * `{` is looked at once (linear in the text).
 */
export function misspeltReference(
  text: string,
  names: readonly string[],
  kinds: KindTable,
  limits: Pick<Limits, "maxPathDepth">,
): MisspeltReference | undefined {
  const sigil = sigilLookalikeLength(text, 0);
  if (sigil > 0) {
    const reference = referenceAt(text, sigil, text.length, names, kinds, limits);
    if (reference !== undefined) return { reference };
  }
  for (let open = text.indexOf("{"); open !== -1; open = text.indexOf("{", open + 1)) {
    const double = text.charCodeAt(open + 1) === OPEN_BRACE;
    const start = double ? open + 2 : open + 1;
    const from = start + sigilLookalikeLength(text, start);
    if (!kindAt(text, from, names)) continue;
    const close = text.indexOf("}", from);
    if (close === -1) return undefined;
    if (double && text.charCodeAt(close + 1) !== CLOSE_BRACE) continue;
    const reference = referenceAt(text, from, close, names, kinds, limits);
    if (reference !== undefined) return { reference, slot: text.slice(open, double ? close + 2 : close + 1) };
  }
  return undefined;
}

/** The hint for a misspelt reference: the reference itself, or the template slot `{†…}` for a slot. */
export function misspeltReferenceHint(spelt: MisspeltReference): string {
  if (spelt.slot === undefined) return `did you mean ${JSON.stringify(spelt.reference.text)}?`;
  return `write "{${spelt.reference.text}}" (a template slot), not "${spelt.slot}"`;
}
