import type { EngineHostKinds } from "./engine-host-kinds.js";

/** Longest description of a kind the line shows (longer ones are cut with "…"). */
const DESCRIPTION_CHARS = 60;
/** Most parameters the line names for one scoped kind (the rest are counted). */
const READERS_SHOWN = 3;

/** How the line starts. */
const LEAD = "- Read-only values the host gives each run (read whole, or by a path into them as in †state): ";

/** `text` on one line, cut to `max` characters (the cut marked with "…"). */
const cut = (text: string, max: number): string => {
  const flat = text.replace(/\s+/g, " ");
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
};

/** The parameters that may read a scoped kind, as the line says it: `callApi.auth or mailer.password`. */
function readersPhrase(readers: readonly string[]): string {
  const shown = readers.slice(0, READERS_SHOWN);
  const more = readers.length - shown.length;
  return more === 0 ? shown.join(" or ") : `${shown.join(", ")} or ${more} more`;
}

/** One kind's entry: `"†secrets" (API keys; only callApi.auth may read it: elsewhere the plan is refused)`. */
function entryOf(kinds: EngineHostKinds, kind: string, readers: readonly string[] | undefined): string {
  const description = kinds.table.get(kind)?.description;
  const about =
    description === undefined || description === kind ? [] : [cut(description, DESCRIPTION_CHARS)];
  const scope =
    readers === undefined
      ? []
      : [`only ${readersPhrase(readers)} may read it: elsewhere the plan is refused`];
  const said = [...about, ...scope];
  return `"†${kind}"${said.length === 0 ? "" : ` (${said.join("; ")})`}`;
}

/**
 * The primer's line on the engine's host kinds (decision 0077), at most `maxChars` characters: each kind a
 * plan may read, with its description and, for a scoped one, the parameters that may read it — so the model
 * writes the plan the check accepts instead of learning it from `REF_KIND_FORBIDDEN`. A kind no parameter
 * may read is left out (nothing a plan can do with it); kinds that do not fit are counted. Undefined when no
 * kind is left, or not even one fits.
 */
export function hostKindsLine(kinds: EngineHostKinds, maxChars: number): string | undefined {
  const entries: string[] = [];
  for (const kind of kinds.names) {
    const readers = kinds.scope?.readersOf(kind);
    if (readers === undefined || readers.length > 0) entries.push(entryOf(kinds, kind, readers));
  }
  const lineOf = (shown: number): string => {
    const more = entries.length - shown;
    return `${LEAD}${entries.slice(0, shown).join(", ")}${more === 0 ? "" : `, and ${more} more`}.`;
  };
  if (entries.length === 0) return undefined;
  const whole = lineOf(entries.length);
  if (whole.length <= maxChars) return whole;
  // as many entries as fit with room for the count of the others (linear: a host may declare many kinds)
  const room = maxChars - LEAD.length - `, and ${entries.length} more.`.length;
  let shown = 0;
  for (let used = 0; shown < entries.length; shown++) {
    used += (shown === 0 ? 0 : 2) + (entries[shown] as string).length;
    if (used > room) break;
  }
  return shown === 0 ? undefined : lineOf(shown);
}
