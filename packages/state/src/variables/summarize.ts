import type { ThreadId } from "@obelisk/core";
import { ObeliskError } from "@obelisk/core";
import type { StateStore } from "../store-types.js";
import { depthLimit, parseStoredReference, type ReferenceLimits } from "./parse-stored-reference.js";
import type { ReadRetention } from "./read-retention.js";
import { selectVariables } from "./select-variables.js";
import {
  jsonRenderer,
  MIN_JSON_SUMMARY_CHARS,
  markdownRenderer,
  type NotFoundNote,
  type SummaryEntry,
  type SummaryRenderer,
  shortenPreview,
  toSummaryEntry,
} from "./summary-renderers.js";

/** Options of {@link summarize}. */
export interface SummarizeOptions {
  /**
   * Only the n most recently updated variables (a whole number >= 1; leave it out for all). `0` is refused
   * with USAGE, like a negative or fractional n: an empty summary would read "No variables." on a thread
   * that has some (to remove variables, `keepLastN(0)`).
   */
  readonly lastN?: number | undefined;
  /**
   * Only the variables at, under or holding these references (`†state.sales` selects `†state.sales.all`);
   * a reference that selects none is reported in `notFound`; a malformed one is refused with its code
   * (REF_SYNTAX, REF_KIND_UNKNOWN, REF_FORBIDDEN_SEGMENT; USAGE for a kind that is not stored).
   */
  readonly refs?: readonly string[] | undefined;
  /** Maximum length of the whole text, in characters (>= 1; >= 2 for JSON). Default 4000. */
  readonly budgetChars?: number | undefined;
  /** Output format. Default `markdown`. */
  readonly format?: "markdown" | "json" | undefined;
}

/** A summary: the text within budget, plus the same facts as data. */
export interface VariableSummary {
  /**
   * The rendered summary (markdown, or a JSON array). Never longer than `budgetChars`. JSON is always
   * valid: when not even the notes fit, not-found notes, then the omitted note, then entries are left out
   * (`[]` at least; a JSON budget below 2 is USAGE); markdown is cut with `…`.
   */
  readonly text: string;
  /** Entries shown, newest first. */
  readonly entries: readonly SummaryEntry[];
  /** How many selected variables were left out to stay within budget. */
  readonly omitted: number;
  /** Requested references that are not stored (missing, evicted or malformed). */
  readonly notFound: readonly string[];
}

/** Preview lengths tried in turn: previews shrink before entries are cut. */
const PREVIEW_STEPS = [240, 120, 60, 24] as const;
/** `budgetChars` when none is given. */
export const DEFAULT_SUMMARY_CHARS = 4000;

/** Renders as many entries as fit with previews of `maxPreview` characters. */
function fittingEntries(
  renderer: SummaryRenderer,
  entries: readonly SummaryEntry[],
  notFound: readonly NotFoundNote[],
  budget: number,
  maxPreview: number,
) {
  const parts: string[] = [];
  const separator = renderer.separator.length;
  let used = renderer.compose([], 0, notFound).length + separator;
  for (const [index, entry] of entries.entries()) {
    const part = renderer.entry(entry, maxPreview);
    const rest = entries.length - index - 1;
    const footer = rest > 0 ? renderer.omitted(rest).length + separator : 0;
    if (used + part.length + separator + footer > budget) break;
    parts.push(part);
    used += part.length + separator;
  }
  return parts;
}

/** Not-found references looked up among tombstones (an evicted one says so): the first this many. */
const EVICTION_LOOKUPS = 100;

/**
 * The not-found notes: an evicted reference (a tombstone at it) is told apart from one never written —
 * a run of 101 calls' outputs said "Not found: †calls.m0" for the output the run had just written and
 * retention evicted (stop 30 review).
 */
async function notFoundNotes(
  store: StateStore,
  threadId: ThreadId,
  notFound: readonly string[],
): Promise<NotFoundNote[]> {
  const notes: NotFoundNote[] = [];
  for (let index = 0; index < notFound.length; index++) {
    const reference = notFound[index] as string;
    const tombstone = index < EVICTION_LOOKUPS ? await store.getTombstone(threadId, reference) : undefined;
    notes.push(tombstone === undefined ? { reference } : { reference, evicted: tombstone.reason });
  }
  return notes;
}

/** A given option as the message shows it: a string quoted (`"2"` is not the number 2), the rest as text. */
const givenText = (value: unknown): string =>
  typeof value === "string" ? `the string ${JSON.stringify(value)}` : String(value);

/**
 * Summarizes a thread's variables, newest first, within a character budget: reference, type, count,
 * description, writer, update time and a short preview — never the full value. Previews shrink first,
 * then entries are cut with a final note of how many were left out. `maxPathDepth` (the engine's) bounds
 * the depth of `refs` (default 32; deeper: PLAN_LIMIT).
 */
export async function summarize(
  store: StateStore,
  threadId: ThreadId,
  options: SummarizeOptions & ReferenceLimits & ReadRetention = {},
): Promise<VariableSummary> {
  const { lastN, budgetChars = DEFAULT_SUMMARY_CHARS } = options;
  if (lastN !== undefined && (!Number.isInteger(lastN) || lastN < 1)) {
    throw new ObeliskError("USAGE", `lastN must be a whole number of at least 1, got ${givenText(lastN)}`, {
      hint: "leave lastN out to list every variable (keepLastN is what removes variables)",
    });
  }
  if (!Number.isInteger(budgetChars) || budgetChars < 1) {
    throw new ObeliskError("USAGE", `budgetChars must be a positive integer, got ${givenText(budgetChars)}`);
  }
  const renderer = options.format === "json" ? jsonRenderer : markdownRenderer;
  if (renderer === jsonRenderer && budgetChars < MIN_JSON_SUMMARY_CHARS) {
    throw new ObeliskError(
      "USAGE",
      `a JSON summary needs budgetChars >= ${MIN_JSON_SUMMARY_CHARS} (the smallest valid document is []), got ${budgetChars}`,
    );
  }
  // a malformed reference is the caller's mistake, refused with its code like get's (a model that misspells
  // a kind must not be told the variable is gone), before expiry on read changes anything
  const depth = depthLimit(options);
  const wanted = options.refs?.map((ref) => parseStoredReference(ref, false, depth));
  await store.expireStale(threadId, options.retention);
  const all = await store.listVariables(threadId);
  const { chosen, notFound } =
    wanted === undefined ? { chosen: all, notFound: [] } : selectVariables(all, wanted);
  const entries = chosen.slice(0, lastN ?? chosen.length).map(toSummaryEntry);
  const notes = await notFoundNotes(store, threadId, notFound);
  let parts: string[] = [];
  let maxPreview: number = PREVIEW_STEPS[0];
  for (const step of PREVIEW_STEPS) {
    maxPreview = step;
    parts = fittingEntries(renderer, entries, notes, budgetChars, step);
    if (parts.length === entries.length) break;
  }
  let omitted = entries.length - parts.length;
  let text = renderer.compose(parts, omitted, notes);
  let count = parts.length;
  if (text.length > budgetChars) {
    // only when not even the notes fit (fittingEntries() counts the not-found notes and the omitted note)
    ({ text, shown: count } = renderer.within(parts, omitted, notes, budgetChars));
    omitted = entries.length - count;
  }
  const shown = entries
    .slice(0, count)
    .map((entry) => ({ ...entry, preview: shortenPreview(entry.preview, maxPreview) }));
  return { text, entries: shown, omitted, notFound };
}
