import {
  codePointSlice,
  DEFAULT_KINDS,
  formatReference,
  type JsonObject,
  type JsonValue,
  ObeliskError,
  type Path,
  parseReference,
  plural,
  previewValue,
  setOwn,
} from "@obelisk/core";
import { codePointPage, objectKeys } from "@obelisk/state";
import { notFoundHint } from "./agent-tools-not-found.js";
import { cutMessage } from "./cut-message.js";
import type { Engine } from "./engine-types.js";

/**
 * Bounds of what `get_variable` answers (SPEC §9: what the model sees is bounded). Every answer is at most
 * {@link GET_ANSWER_CHARS} characters of JSON (plus the reference the model gave, when a note repeats it).
 */
export const GET_LIMITS = Object.freeze({
  /** Hard budget of one answer, in characters of its JSON. */
  answerChars: 8_000,
  /** Items (arrays) or keys (objects) of a page when `limit` is not given. */
  pageItems: 50,
  /** Characters of a string page when `limit` is not given. */
  pageChars: 4_000,
  /** An object page lists a value over this many characters of JSON in `tooLarge` instead. */
  itemChars: 2_000,
  /** Characters of the preview of one item too large to show in a page. */
  previewChars: 200,
});
const GET_ANSWER_CHARS = GET_LIMITS.answerChars;
/** Room kept in every answer for DAGGER_NOTE (with its field name and separator). */
const DAGGER_NOTE_ROOM = 140;
/** A value comes whole when its JSON fits the budget with `{"found":true,"value":…}` (and a note) around it. */
const WHOLE_CHARS = GET_ANSWER_CHARS - 40 - DAGGER_NOTE_ROOM;
/** Longest item reference an answer names (a longer key cannot be named within the budget). */
const MAX_NAMED_REFERENCE = 1_000;

/** What the model sees: the whole value, one page, or not found (errors come back as data). */
type Answer = Record<string, JsonValue>;

/**
 * The length of `value` as JSON when it is at most `max`, else `max + 1`. The walk stops as soon as `max`
 * is passed, so a 1 MB item costs about `max` work, not its size.
 */
export function jsonLengthWithin(value: JsonValue, max: number): number {
  let used = 0;
  const over = max + 1;
  const walk = (node: JsonValue): boolean => {
    if (typeof node === "string") {
      used += node.length + 2 > max - used ? node.length + 2 : JSON.stringify(node).length;
      return used <= max;
    }
    if (typeof node !== "object" || node === null) {
      used += JSON.stringify(node).length;
      return used <= max;
    }
    used += 2;
    let first = true;
    if (Array.isArray(node)) {
      for (const item of node) {
        used += first ? 0 : 1;
        first = false;
        if (used > max || !walk(item)) return false;
      }
      return used <= max;
    }
    for (const key in node) {
      if (!Object.hasOwn(node, key)) continue;
      used += (first ? 0 : 1) + 1;
      first = false;
      if (used > max) return false;
      if (!walk(key) || !walk((node as JsonObject)[key] as JsonValue)) return false;
    }
    return used <= max;
  };
  return walk(value) ? used : over;
}

const jsonLength = (value: JsonValue): number => JSON.stringify(value).length;

/**
 * `get_variable({ reference, offset })` as the model would write it, for notes; for a reference longer than
 * MAX_NAMED_REFERENCE, without repeating it (it would take the page's room: a 3,808-character reference left
 * none, and the answer said to read offset 0 again).
 */
const nextCall = (reference: string, offset: number): string =>
  reference.length > MAX_NAMED_REFERENCE
    ? `get_variable with the same reference and "offset":${offset}`
    : `get_variable({"reference":${JSON.stringify(reference)},"offset":${offset}})`;

/** Room a note's repeated reference takes in the budget (escaped once more inside the note's JSON). */
const noteReferenceRoom = (reference: string): number =>
  reference.length > MAX_NAMED_REFERENCE ? 0 : 2 * reference.length;

/** The page's facts (`offset`, `limit` = how many it holds, `total`) and a note on how to page on. */
function pageNote(
  reference: string,
  unit: "items" | "keys" | "characters",
  offset: number,
  shown: number,
  total: number,
  cutForBudget: boolean,
): Answer {
  const end = offset + shown;
  if (end >= total) return {};
  // `limit: 0` asks for no page: the facts only (a "next page" at the same offset would loop)
  if (shown === 0 && !cutForBudget)
    return { note: `limit 0 shows no ${unit}: the value has ${total}; give a limit above 0 to read them.` };
  const why = cutForBudget
    ? `cut to stay within ${GET_ANSWER_CHARS} characters`
    : `a page of ${plural(shown, unit.slice(0, -1), unit)}`;
  const span = shown === 0 ? `no ${unit}` : `${unit} ${offset}–${end - 1}`;
  return {
    next: end,
    note: `Showing ${span} of ${total} (${why}). Next page: ${nextCall(reference, end)}; set limit for another page size.`,
  };
}

/**
 * A note for an offset past the end (the page is empty, at the end): the model asked for something that
 * is not there and should know, rather than read an empty page as an empty value.
 */
function pastEndNote(unit: "items" | "keys" | "characters", asked: number, total: number): Answer {
  if (asked <= total) return {};
  const has =
    total === 0 ? `the value has no ${unit}` : `the value has ${total} ${unit} (offsets 0–${total - 1})`;
  return { note: `offset ${asked} is past the end: ${has}.` };
}

/** Characters kept of a key too long to name (`key` of its `tooLarge` entry). */
const CUT_KEY_CHARS = 100;

/**
 * An item too large for a page: where to read it, and the start of it. A key too long to name within the
 * budget gets no reference: its start (`key`, cut), its position among the keys (`index`) and the preview.
 */
function tooLargeEntry(
  kind: string,
  path: Path,
  at: string | number,
  item: JsonValue,
  index: number,
): Answer {
  const preview = previewValue(item, { maxChars: GET_LIMITS.previewChars }).text;
  const itemReference = formatReference(kind, [...path, at]);
  if (itemReference.length <= MAX_NAMED_REFERENCE) return { reference: itemReference, preview };
  return { key: cutMessage(String(at), CUT_KEY_CHARS), index, preview };
}

/**
 * One page of an array or object within the budget, from `offset`, at most `limit` items or keys, while
 * the answer stays within {@link GET_ANSWER_CHARS}. In an object page, a value over
 * {@link GET_LIMITS.itemChars} (unless the page is one key) is listed in `tooLarge` (its reference and a
 * preview) instead of `entries`, and the page goes on. An array page stays contiguous (`items[k]` is item
 * `offset + k`): it ends before an item that does not fit, and a first item too large for the whole
 * budget is given as `tooLarge` alone.
 */
function containerPage(
  reference: string,
  kind: string,
  path: Path,
  value: readonly JsonValue[] | JsonObject,
  offset: number,
  limit: number,
): Answer {
  const keys = Array.isArray(value) ? undefined : objectKeys(value);
  const total = keys?.length ?? (value as JsonValue[]).length;
  const start = Math.min(offset, total);
  const stop = Math.min(total, start + limit);
  const unit = keys === undefined ? "items" : "keys";
  const items: JsonValue[] = [];
  const entries: JsonObject = {};
  const tooLarge: Answer[] = [];
  // the frame: every field but the items, with room for the numbers and the longest note
  const frame =
    jsonLength({
      found: true,
      type: keys === undefined ? "array" : "object",
      offset: start,
      limit: 0,
      total,
    }) +
    noteReferenceRoom(reference) +
    480 +
    DAGGER_NOTE_ROOM;
  const itemCap = keys === undefined || stop - start === 1 ? GET_ANSWER_CHARS : GET_LIMITS.itemChars;
  let used = frame;
  let at = start;
  for (; at < stop; at++) {
    const key = keys?.[at];
    const item = (key === undefined ? (value as JsonValue[])[at] : (value as JsonObject)[key]) as JsonValue;
    const keyCost = key === undefined ? 0 : jsonLength(key) + 1;
    const room = GET_ANSWER_CHARS - used - keyCost - 1;
    const max = Math.min(room, itemCap);
    const size = max > 0 ? jsonLengthWithin(item, max) : max + 1;
    if (size <= max) {
      if (key === undefined) items.push(item);
      else setOwn(entries, key, item);
      used += size + keyCost + 1;
      continue;
    }
    // a key too long for a page counts as too large too: otherwise a page could never get past it
    const overCap = keyCost > GET_LIMITS.itemChars || jsonLengthWithin(item, itemCap) > itemCap;
    // an array page ends before an item that does not fit, unless the page would be empty
    if (!overCap || (key === undefined && at > start)) break;
    const entry = tooLargeEntry(kind, path, key ?? at, item, at);
    const cost = jsonLength(entry) + 1;
    if (used + cost > GET_ANSWER_CHARS && tooLarge.length + at - start > 0) break;
    tooLarge.push(entry);
    used += cost;
    if (key === undefined) {
      at++;
      break;
    }
  }
  const covered = at - start;
  const answer: Answer = {
    found: true,
    type: keys === undefined ? "array" : "object",
    offset: start,
    limit: covered,
    total,
    ...(keys === undefined ? { items } : { entries }),
  };
  if (tooLarge.length === 0)
    return {
      ...answer,
      ...pageNote(reference, unit, start, covered, total, at < stop),
      ...pastEndNote(unit, offset, total),
    };
  const paging = pageNote(reference, unit, start, covered, total, at < stop);
  const what =
    keys === undefined ? "This item is" : `${tooLarge.length === 1 ? "This value is" : "These values are"}`;
  const unnamed = tooLarge.filter((entry) => entry.reference === undefined).length;
  const named = tooLarge.length - unnamed;
  const note =
    `${what} too large to show here (over ${keys === undefined ? GET_ANSWER_CHARS : GET_LIMITS.itemChars} characters of key and value): ` +
    (named === 0
      ? ""
      : "tooLarge gives each one's reference and preview; read one by its reference, by pages (offset/limit).") +
    (unnamed === 0
      ? ""
      : `${named === 0 ? "" : " "}${plural(unnamed, "entry", "entries")} without a reference ${unnamed === 1 ? "has a key" : "have keys"} too long to name: key is its start, index its position among the keys, preview the start of the value.`);
  return {
    ...answer,
    tooLarge,
    ...paging,
    note: typeof paging.note === "string" ? `${paging.note} ${note}` : note,
  };
}

/** One page of a string: characters from `offset`, at most `limit`, within the budget (escapes counted). */
function stringPage(reference: string, text: string, offset: number, limit: number): Answer {
  const room = GET_ANSWER_CHARS - noteReferenceRoom(reference) - 420 - DAGGER_NOTE_ROOM;
  // the page is cut from the string once (a long string's index is kept: later pages skip the count)
  const { text: wantedText, offset: start, limit: wanted, total } = codePointPage(text, offset, limit);
  let keep = Math.min(wanted, Math.max(0, room));
  let page = keep === wanted ? wantedText : codePointSlice(wantedText, 0, keep);
  for (let size = jsonLength(page); size > room && keep > 0; size = jsonLength(page)) {
    keep = Math.max(0, Math.min(keep - 1, Math.floor((keep * room) / size)));
    page = codePointSlice(page, 0, keep);
  }
  return {
    found: true,
    type: "string",
    offset: start,
    limit: keep,
    total,
    text: page,
    ...pageNote(reference, "characters", start, keep, total, keep < wanted),
    ...pastEndNote("characters", offset, total),
  };
}

/** offset / limit: a non-negative integer when given (USAGE otherwise, saying what was given). */
function checkPaging(name: string, value: unknown): void {
  if (value === undefined || (Number.isInteger(value) && (value as number) >= 0)) return;
  const given =
    typeof value === "number"
      ? String(value)
      : typeof value === "string"
        ? `the string ${JSON.stringify(value.slice(0, 40))}`
        : value === null
          ? "null"
          : Array.isArray(value)
            ? "an array"
            : `a ${typeof value}`;
  throw new ObeliskError("USAGE", `${name} must be a non-negative integer, got ${given}`);
}

/**
 * `get_variable`: a stored value as the model may see it. Numbers, booleans and null, and arrays, objects
 * and strings that fit one default page within the budget, come whole (`{ found, value }`); the others
 * come as one page (`items`, `entries` — objects page by keys, in their stored order — or `text`, with
 * `offset`, `limit` = how many shown, `total`, and `next` / `note` saying how to read on). `offset`/`limit`
 * always give a page (USAGE on a number, boolean or null). Every answer stays within {@link GET_ANSWER_CHARS} characters.
 * Nothing stored there: `{ found: false, hint }`, the hint naming the nearest stored names when some are near.
 */
export async function getForModel(
  engine: Engine,
  threadId: string,
  args: Record<string, unknown>,
): Promise<Answer> {
  return withDaggerNote(await answerFor(engine, threadId, args));
}

/**
 * What a model is told when the data it reads holds `†`: stored text is data, but the same text copied
 * into a plan's parameter is a reference or template (`{†state.user.apiKey}` in a search result would be
 * filled in from the thread's state). A tool's output may carry such text on purpose (prompt injection).
 */
const DAGGER_NOTE =
  "It holds † (reference syntax): text copied from it into a plan is read as references; write †† for a literal †.";

/** The answer with DAGGER_NOTE when what it shows (value, items, entries, text, previews) holds a `†`. */
function withDaggerNote(answer: Answer): Answer {
  if (answer.found !== true) return answer;
  const previews = Array.isArray(answer.tooLarge)
    ? answer.tooLarge.map((item) => (item as { preview?: JsonValue }).preview ?? null)
    : undefined;
  const shown = [answer.value, answer.items, answer.entries, answer.text, previews];
  if (!shown.some((part) => part !== undefined && JSON.stringify(part).includes("†"))) return answer;
  const note = typeof answer.note === "string" ? `${answer.note} ${DAGGER_NOTE}` : DAGGER_NOTE;
  return { ...answer, note };
}

async function answerFor(engine: Engine, threadId: string, args: Record<string, unknown>): Promise<Answer> {
  const { offset, limit } = args as { offset?: unknown; limit?: unknown };
  const paged = offset !== undefined || limit !== undefined;
  const reference = args.reference as string;
  checkPaging("offset", offset);
  checkPaging("limit", limit);
  // engine.get checks the reference (REF_*, USAGE); the page is cut here within the budget from the whole
  // value, which the store holds already (no copy)
  const result = await engine.get(threadId, reference);
  // a misspelt name: the nearest stored names, so the model does not guess again
  if (!result.found) return { found: false, hint: await notFoundHint(engine, threadId, reference) };
  const parsed = parseReference(reference, DEFAULT_KINDS, engine.limits);
  if (!parsed.ok) throw new ObeliskError("REF_SYNTAX", `${reference}: ${parsed.issue.message}`);
  const { kind, path } = parsed.value;
  const value = result.value;
  const fitsWhole = (count: number, unit: number): boolean =>
    !paged && count <= unit && jsonLengthWithin(value, WHOLE_CHARS) <= WHOLE_CHARS;
  if (typeof value !== "object" || value === null) {
    if (paged && typeof value !== "string")
      throw new ObeliskError(
        "USAGE",
        `${reference} is ${value === null ? "null" : `a ${typeof value}`}: offset and limit page arrays (items), objects (keys) and strings (characters)`,
        { hint: "read it without offset and limit" },
      );
    if (typeof value !== "string" || fitsWhole(codePointPage(value, 0, 0).total, GET_LIMITS.pageChars))
      return { found: true, value };
    return stringPage(
      reference,
      value,
      (offset as number | undefined) ?? 0,
      (limit as number | undefined) ?? GET_LIMITS.pageChars,
    );
  }
  if (fitsWhole(Array.isArray(value) ? value.length : objectKeys(value).length, GET_LIMITS.pageItems))
    return { found: true, value };
  return containerPage(
    reference,
    kind,
    path,
    value,
    (offset as number | undefined) ?? 0,
    (limit as number | undefined) ?? GET_LIMITS.pageItems,
  );
}
