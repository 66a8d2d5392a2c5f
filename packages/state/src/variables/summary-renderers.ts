import { DEFAULT_KINDS, formatReference, parseReference, plural } from "@obelisk/core";
import type { VariableMeta } from "../store-types.js";
import { previewSkeleton } from "./preview-skeleton.js";

/**
 * One variable as a summary shows it (SPEC §8), the same facts in both forms: markdown writes them as
 * `### <reference>`, `- type: <type>, <count> <countUnit>, <bytes>`, `- description: …`,
 * `- updated: <updatedAt>; written by <tool> (<callId>)` (a later write below it updates it, not its
 * writer), `- preview: …`; JSON as these fields, in this order.
 */
export interface SummaryEntry {
  /** The `†` reference to read it with. */
  readonly reference: string;
  /** The tool of the call that last wrote it. */
  readonly tool: string;
  /** The id of that call. */
  readonly callId: string;
  readonly description: string | null;
  /** JSON type: object, array, string, number, boolean or null. */
  readonly type: string;
  /** Array items, object keys or string characters (code points); null for other types. */
  readonly count: number | null;
  /** What `count` counts; null exactly when `count` is. */
  readonly countUnit: "items" | "keys" | "characters" | null;
  /** Size of its JSON text in bytes (UTF-8). */
  readonly bytes: number;
  readonly updatedAt: string;
  readonly preview: string;
}

/**
 * Caps of one entry's free-text fields (characters), so that one entry never takes the budget of the
 * others: a 5,000-character description or reference is shortened with `…`, never the reason older
 * variables are not shown. Previews are capped by the stored preview (240) and shrink further with the
 * budget.
 */
export const ENTRY_CAPS = Object.freeze({ description: 240, reference: 160, name: 80 });

/** True for the second half of a surrogate pair (a cut before it would leave a lone high surrogate). */
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** A cut index moved off the middle of a surrogate pair. */
const safeCut = (text: string, at: number): number =>
  at > 0 && at < text.length && isLowSurrogate(text.charCodeAt(at)) ? at - 1 : at;

/** `text` within `max` characters: whole, or its start and `…` (a surrogate pair is never split). */
export function shortenText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, safeCut(text, Math.max(0, max - 1)))}…`;
}

/**
 * A reference within `max` characters: whole, or its start, `…` and its end (the end names the
 * variable). Shortened references are for reading only; `entries` keep the full one to pass to `get`.
 */
export function shortenReference(reference: string, max: number = ENTRY_CAPS.reference): string {
  if (reference.length <= max) return reference;
  const head = Math.ceil((max - 1) / 2);
  const tailStart = reference.length - (max - 1 - head);
  const start = safeCut(reference, head);
  const end =
    tailStart < reference.length && isLowSurrogate(reference.charCodeAt(tailStart))
      ? tailStart + 1
      : tailStart;
  return `${reference.slice(0, start)}…${reference.slice(end)}`;
}

/** A requested reference that is not stored, and why when the store knows (it was evicted). */
export interface NotFoundNote {
  readonly reference: string;
  /** The eviction's reason (`maxCallOutputs`, `keepLastN`, …) when a tombstone says it was evicted. */
  readonly evicted?: string | undefined;
}

/** `†calls.m0 (evicted: maxCallOutputs)`, or the reference alone. */
const notFoundText = (note: NotFoundNote): string =>
  note.evicted === undefined ? note.reference : `${note.reference} (evicted: ${note.evicted})`;

const notFoundJson = (note: NotFoundNote): string =>
  JSON.stringify({
    reference: note.reference,
    notFound: true,
    ...(note.evicted === undefined ? {} : { evicted: note.evicted }),
  });

/** Depth of a stored reference (deeper than any limit: it is stored already). */
const ANY_DEPTH = { maxPathDepth: Number.MAX_SAFE_INTEGER };

/**
 * Where to find the full reference of one too long to show (a model cannot use a shortened one: `…` is
 * not reference syntax): the nearest enclosing value with a reference short enough, whose keys or items
 * `get_variable` pages through. Undefined when the reference is whole.
 */
export function shortenedReferenceHint(
  reference: string,
  max: number = ENTRY_CAPS.reference,
): string | undefined {
  if (reference.length <= max) return undefined;
  const parsed = parseReference(reference, DEFAULT_KINDS, ANY_DEPTH);
  if (!parsed.ok) return `the reference has ${reference.length} characters, too many to show`;
  const { kind, path } = parsed.value;
  for (let length = path.length - 1; length >= 0; length--) {
    const parent = formatReference(kind, path.slice(0, length));
    if (parent.length <= max)
      return `the reference has ${reference.length} characters, too many to show: read the keys of ${parent} with get_variable to find it`;
  }
  return `the reference has ${reference.length} characters, too many to show`;
}

/**
 * Turns variable metadata into a summary entry: description, tool and call id are capped
 * ({@link ENTRY_CAPS}); the reference stays whole here (a caller reads the variable with it) and is
 * shortened where it is rendered.
 */
export function toSummaryEntry(meta: VariableMeta): SummaryEntry {
  return {
    reference: meta.reference,
    tool: shortenText(meta.writer.tool, ENTRY_CAPS.name),
    callId: shortenText(meta.writer.callId, ENTRY_CAPS.name),
    description:
      meta.description === undefined ? null : shortenText(meta.description, ENTRY_CAPS.description),
    type: meta.type,
    count: meta.count ?? null,
    countUnit: meta.countUnit ?? null,
    bytes: meta.bytes,
    updatedAt: meta.updatedAt,
    preview: meta.preview,
  };
}

/** How one summary format is written: entries, the "left out" note and the not-found note are items. */
export interface SummaryRenderer {
  readonly separator: string;
  /** The whole text from its items. */
  compose(parts: readonly string[], omitted: number, notFound: readonly NotFoundNote[]): string;
  entry(entry: SummaryEntry, maxPreview: number): string;
  omitted(count: number): string;
  /**
   * The whole text within `budget` characters when `compose` is longer, and how many of `parts` it still
   * shows (the entries come first, so they are the last to go).
   */
  within(
    parts: readonly string[],
    omitted: number,
    notFound: readonly NotFoundNote[],
    budget: number,
  ): { text: string; shown: number };
}

/**
 * Shortens a preview to `max` characters (with an ellipsis): value strings are cut first so the keys stay
 * visible ({@link previewSkeleton}), then the text.
 */
export const shortenPreview = (preview: string, max: number): string =>
  preview.length <= max ? preview : (previewSkeleton(preview, max) ?? shortenText(preview, max));

const formatBytes = (bytes: number): string =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * A description on one line: its line breaks become spaces, so a description cannot start a line of
 * the summary (a `### …` heading in it would read as another variable's entry).
 */
const oneLine = (text: string): string => text.replace(/[\r\n\u2028\u2029\u0085]+/g, " ");

/** Markdown: one section per variable. */
export const markdownRenderer: SummaryRenderer = {
  separator: "\n\n",
  compose(parts, omitted, notFound) {
    const items = [...parts];
    if (omitted > 0) items.push(this.omitted(omitted));
    if (notFound.length > 0) items.push(`Not found: ${notFound.map(notFoundText).join(", ")}`);
    return items.length === 0 ? "No variables." : items.join(this.separator);
  },
  entry(entry, maxPreview) {
    const count =
      entry.count === null || entry.countUnit === null
        ? ""
        : `, ${plural(entry.count, entry.countUnit.slice(0, -1), entry.countUnit)}`;
    const shortened = shortenedReferenceHint(entry.reference);
    const lines = [
      `### ${shortenReference(entry.reference)}`,
      ...(shortened === undefined ? [] : [`- shortened: ${shortened}`]),
      `- type: ${entry.type}${count}, ${formatBytes(entry.bytes)}`,
      ...(entry.description === null ? [] : [`- description: ${oneLine(entry.description)}`]),
      `- updated: ${entry.updatedAt}; written by ${entry.tool} (${entry.callId})`,
      `- preview: ${shortenPreview(entry.preview, maxPreview)}`,
    ];
    return lines.join("\n");
  },
  omitted: (count) =>
    `… ${plural(count, "more variable", "more variables")} not shown (over the summary budget; older ones first): ask for them by reference (refs), or read a value such as †state to see its keys`,
  within(parts, omitted, notFound, budget) {
    const text = this.compose(parts, omitted, notFound);
    return { text: `${text.slice(0, Math.max(0, budget - 1))}…`, shown: parts.length };
  },
};

/** The smallest JSON summary: an empty array. A JSON budget below its length is refused. */
export const MIN_JSON_SUMMARY_CHARS = 2;

/**
 * JSON: an array of entries (`{ reference, tool, callId, description, type, count, countUnit, bytes,
 * updatedAt, preview }`); a final `{ "omitted": n }` when cut and `{ "reference", "notFound": true }` for
 * unknown refs.
 */
export const jsonRenderer: SummaryRenderer = {
  separator: ",",
  compose(parts, omitted, notFound) {
    const items = [...parts];
    if (omitted > 0) items.push(this.omitted(omitted));
    for (const note of notFound) items.push(notFoundJson(note));
    return `[${items.join(",")}]`;
  },
  entry(entry, maxPreview) {
    // every fact the markdown form shows, the writer's call id and the count's unit included
    const shortened = shortenedReferenceHint(entry.reference);
    return JSON.stringify({
      ...entry,
      reference: shortenReference(entry.reference),
      ...(shortened === undefined ? {} : { shortened }),
      preview: shortenPreview(entry.preview, maxPreview),
    });
  },
  omitted: (count) => JSON.stringify({ omitted: count }),
  /**
   * Always valid JSON: the longest run of items from the start that fits (not-found notes go first, then
   * the omitted note, then entries from the last); `[]` at least (budget >= 2, checked by `summarize`).
   */
  within(parts, omitted, notFound, budget) {
    const items = [...parts];
    if (omitted > 0) items.push(this.omitted(omitted));
    for (const note of notFound) items.push(notFoundJson(note));
    let count = items.length;
    let length = 2 + Math.max(0, count - 1);
    for (const item of items) length += item.length;
    while (count > 0 && length > budget) {
      count--;
      length -= (items[count] as string).length + (count > 0 ? 1 : 0);
    }
    return { text: `[${items.slice(0, count).join(",")}]`, shown: Math.min(count, parts.length) };
  },
};
