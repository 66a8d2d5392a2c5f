import {
  formatReference,
  type JsonObject,
  type JsonValue,
  type Path,
  plural,
  previewValue,
  setOwn,
} from "@obelisk/core";
import { objectKeys } from "@obelisk/state";
import {
  type Answer,
  DAGGER_NOTE_ROOM,
  GET_ANSWER_CHARS,
  GET_LIMITS,
  MAX_NAMED_REFERENCE,
} from "./agent-tools-get-limits.js";
import { noteReferenceRoom, pageNote, pastEndNote } from "./agent-tools-page-note.js";
import { cutMessage } from "./cut-message.js";
import { jsonLength, jsonLengthWithin } from "./json-length-within.js";

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
export function containerPage(
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
