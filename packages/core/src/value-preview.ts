import { codePointLength } from "./code-points.js";
import { needsNoJsonEscape } from "./json-plain-string.js";
import type { JsonValue } from "./json-value.js";

/** Default size of a preview, in characters. */
export const DEFAULT_PREVIEW_CHARS = 200;
/** Containers nested deeper than this are shown as `[…]` / `{…}`. */
export const MAX_PREVIEW_DEPTH = 32;
/** A container's remaining budget is shared among at most this many of its next members. */
const SHARE_DIVISOR = 8;
/** …but each member may use up to this many characters when they are left, so short members are not cut. */
const MIN_SHARE = 16;
/**
 * The first item of an array of records (objects or arrays) may use this fraction of the array's room, so
 * that its keys show the shape of every item (`[{"title":…,"url":…,"score":…},…+49]`), not a sliver of it.
 */
const FIRST_RECORD_SHARE = 0.6;
/** Object keys are shown with at most this many characters. */
const MAX_KEY_CHARS = 40;
const ELLIPSIS = "…";

/** Options of {@link previewValue}. */
export interface PreviewOptions {
  /** The maximum length of the preview text, in characters (UTF-16 code units). Default 200, at least 1. */
  readonly maxChars?: number;
}

/** A bounded preview of a value. */
export interface ValuePreview {
  /** JSON-like text; `text.length <= maxChars` always (markers included). */
  readonly text: string;
  /** True when anything was left out or shortened. */
  readonly truncated: boolean;
  /** How many elements and keys were touched to build it (bounded by the budget, not the value's size). */
  readonly visited: number;
}

interface Walk {
  visited: number;
  truncated: boolean;
}

/** Strings up to this length are checked for characters JSON escapes before falling back to JSON.stringify. */
const PLAIN_CHECK_MAX = 64;

/** True when `text` is short and JSON writes it as `"text"` (no quote, backslash, control or surrogate). */
function isPlainJsonString(text: string): boolean {
  return text.length <= PLAIN_CHECK_MAX && needsNoJsonEscape(text);
}

/** The length of a string written as JSON (quotes and escapes included). */
function jsonStringLength(text: string): number {
  return isPlainJsonString(text) ? text.length + 2 : JSON.stringify(text).length;
}

/** The number of decimal digits of a non-negative integer (its text length, without making the text). */
function decimalDigits(value: number): number {
  let digits = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  return digits;
}

/**
 * A string shown within `budget` characters: whole, or cut with `…(+N chars)"` / `…"` / `…`. N counts
 * characters (code points) as item counts do, and the kept start is as long as the escapes allow: a
 * string of tabs or lone surrogates shows some of them, not an empty `"…(+N chars)"`.
 */
function previewString(text: string, budget: number, walk: Walk): string {
  if (text.length + 2 <= budget) {
    const whole = isPlainJsonString(text) ? `"${text}"` : JSON.stringify(text);
    if (whole.length <= budget) return whole;
  }
  walk.truncated = true;
  for (let pass = 0; pass < 2; pass++) {
    const long = pass === 0;
    // `…(+N chars)"` or `…"`, counted without being written; N is at most the code units left
    const markerLength = long ? 11 + decimalDigits(text.length) : 2;
    const room = budget - 1 - markerLength;
    if (room < (long ? 4 : 0)) continue;
    let keep = Math.min(room, text.length);
    for (;;) {
      const plain = needsNoJsonEscape(text, keep);
      if (!plain && keep > 0 && isHighSurrogate(text.charCodeAt(keep - 1))) keep--;
      const escaped = plain ? text.slice(0, keep) : JSON.stringify(text.slice(0, keep)).slice(1, -1);
      if (escaped.length <= room) {
        // the rest in characters: a pair never straddles `keep` (it was moved off one above)
        const rest = long ? `(+${codePointLength(text.slice(keep))} chars)` : "";
        return `"${escaped}${ELLIPSIS}${rest}"`;
      }
      // shrink in proportion to the escapes (a tab is 2 characters, a lone surrogate 6), at least by one
      keep = Math.max(0, Math.min(keep - 1, Math.floor((keep * room) / escaped.length)));
    }
  }
  return ELLIPSIS;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** A number, boolean or null shown within `budget` characters (or `…`). */
function previewScalar(value: unknown, budget: number, walk: Walk): string {
  const text =
    typeof value === "number" && Number.isFinite(value)
      ? String(value)
      : typeof value === "boolean"
        ? String(value)
        : "null";
  if (text.length <= budget) return text;
  walk.truncated = true;
  return ELLIPSIS;
}

/** The closing of a container cut short: `…+N` (arrays) or `…`, with a comma when members precede it. */
function tailMarker(shown: number, remaining: number | undefined, room: number): string {
  const comma = shown > 0 ? 1 : 0;
  if (remaining !== undefined && comma + 2 + decimalDigits(remaining) <= room)
    return `${comma ? "," : ""}${ELLIPSIS}+${remaining}`;
  if (comma + 1 > room) return "";
  return comma ? `,${ELLIPSIS}` : ELLIPSIS;
}

/** An array within `budget` (≥ 3) characters: first items, each given a fair share, then `…+N`. */
function previewArray(value: readonly unknown[], budget: number, depth: number, walk: Walk): string {
  let out = "[";
  const count = value.length;
  const first = value[0];
  const records = typeof first === "object" && first !== null;
  for (let index = 0; index < count; index++) {
    const separator = index > 0 ? 1 : 0;
    // room for `,…+N` (N items left), counted without being written
    const reserve = index < count - 1 ? 3 + decimalDigits(count - index - 1) : 0;
    const itemMax = budget - out.length - 1 - separator - reserve;
    const record = index === 0 && count > 1 && records;
    // records after the first are shown whole or not at all (below), so each may use what is left
    const share =
      records && index > 0
        ? itemMax
        : Math.max(
            Math.floor(itemMax / Math.min(count - index, SHARE_DIVISOR)),
            Math.min(itemMax, MIN_SHARE),
            record ? Math.floor(itemMax * FIRST_RECORD_SHARE) : 0,
          );
    walk.visited++;
    const cutBefore = walk.truncated;
    walk.truncated = false;
    let item = share >= 1 ? previewAny(value[index], share, depth + 1, walk) : ELLIPSIS;
    // after a first record, the next ones are shown whole or not at all: slivers of them say nothing
    if (index > 0 && records && walk.truncated) item = ELLIPSIS;
    walk.truncated ||= cutBefore;
    if (item === ELLIPSIS) {
      walk.truncated = true;
      return `${out}${tailMarker(index, count - index, budget - out.length - 1)}]`;
    }
    out += `${separator ? "," : ""}${item}`;
  }
  return `${out}]`;
}

/**
 * Appends one member (`"key":value`) within its fair share; returns false (appending nothing) when the
 * budget is spent: the share is too small, the key would be cut for lack of room, or the value would be `…`.
 */
function appendMember(state: ObjectState, key: string, known: number, walk: Walk): boolean {
  const separator = state.shown > 0 ? 1 : 0;
  const memberMax = state.budget - state.out.length - 1 - separator - 2;
  const fair = Math.floor(memberMax / Math.max(1, Math.min(known, SHARE_DIVISOR)));
  // at least room for the key (up to MAX_KEY_CHARS), `:` and a short value: a wide object with long keys
  // shows its first members instead of `{…}`
  const keyRoom = Math.min(key.length + 2, MAX_KEY_CHARS);
  const share = Math.max(fair, Math.min(memberMax, Math.max(MIN_SHARE, keyRoom + 1 + MIN_SHARE)));
  if (share < 4) return false;
  const keyBudget = Math.min(MAX_KEY_CHARS, share - 2);
  const keyText = previewString(key, keyBudget, walk);
  const keyWhole = key.length + 2 <= keyBudget && keyText.length === jsonStringLength(key);
  if (keyText === ELLIPSIS || (!keyWhole && keyBudget < MAX_KEY_CHARS)) return false;
  const item = previewAny(state.value[key], share - keyText.length - 1, state.depth + 1, walk);
  if (item === ELLIPSIS) return false;
  state.out += `${separator ? "," : ""}${keyText}:${item}`;
  state.shown++;
  return true;
}

interface ObjectState {
  readonly value: Record<string, unknown>;
  readonly budget: number;
  readonly depth: number;
  out: string;
  shown: number;
}

/** The index of the first key from `from` on whose member is defined (`keys.length` when none). */
function nextDefined(value: Record<string, unknown>, keys: readonly string[], from: number): number {
  let index = from;
  while (index < keys.length && value[keys[index] as string] === undefined) index++;
  return index;
}

/**
 * An object within `budget` characters: first members, each given a fair share of what is left, then `…`.
 * A member's share divides the room among the members looked at ahead of it (at most
 * {@link SHARE_DIVISOR}); `visited` counts the members looked at. Keys are read one by one from
 * `Object.keys` and the walk stops early, so the JavaScript work stays bounded by the budget.
 */
function previewObject(value: Record<string, unknown>, budget: number, depth: number, walk: Walk): string {
  const keys = Object.keys(value);
  let visit = nextDefined(value, keys, 0);
  if (visit === keys.length) {
    if (budget >= 2) return "{}";
    walk.truncated = true;
    return ELLIPSIS;
  }
  if (budget < 3 || depth >= MAX_PREVIEW_DEPTH) {
    walk.visited++;
    walk.truncated = true;
    return budget < 3 ? ELLIPSIS : `{${ELLIPSIS}}`;
  }
  const state: ObjectState = { value, budget, depth, out: "{", shown: 0 };
  let member = visit;
  let seen = 0;
  let cut = false;
  for (; visit < keys.length; visit = nextDefined(value, keys, visit + 1)) {
    walk.visited++;
    seen++;
    if (seen - state.shown <= SHARE_DIVISOR) continue;
    if (!appendMember(state, keys[member] as string, SHARE_DIVISOR, walk)) {
      cut = true;
      break;
    }
    member = nextDefined(value, keys, member + 1);
  }
  while (!cut && state.shown < seen) {
    cut = !appendMember(state, keys[member] as string, seen - state.shown, walk);
    if (!cut) member = nextDefined(value, keys, member + 1);
  }
  if (state.shown === 0 && !cut) {
    if (budget >= 2) return "{}";
    walk.truncated = true;
    return ELLIPSIS;
  }
  if (cut) walk.truncated = true;
  const tail = cut ? tailMarker(state.shown, undefined, budget - state.out.length - 1) : "";
  return `${state.out}${tail}}`;
}

/** Any value within `budget` (≥ 1) characters. */
function previewAny(value: unknown, budget: number, depth: number, walk: Walk): string {
  if (typeof value === "string") return previewString(value, budget, walk);
  if (typeof value !== "object" || value === null) return previewScalar(value, budget, walk);
  if (!Array.isArray(value)) return previewObject(value as Record<string, unknown>, budget, depth, walk);
  if (value.length === 0 && budget >= 2) return "[]";
  if (budget < 3 || depth >= MAX_PREVIEW_DEPTH) {
    walk.truncated = true;
    return budget < 3 ? ELLIPSIS : `[${ELLIPSIS}]`;
  }
  return previewArray(value, budget, depth, walk);
}

/**
 * A bounded, JSON-like preview of a value (SPEC §8), e.g.
 * `{"name":"Ada","tags":["a","b",…+98],"bio":"Lorem ipsu…(+4990 chars)"}`.
 * `text.length <= maxChars` always: markers (`…`, `…+N` remaining items, `…(+N chars)` remaining
 * characters) are counted in the budget. The cost is bounded by the budget, not the value: long strings
 * are sliced (counting the characters left of a cut string is one native scan for surrogates), only the first members of arrays and objects are touched (own keys, read from
 * `Object.keys` with early exit), nesting beyond {@link MAX_PREVIEW_DEPTH} is shown as `[…]`. One caveat
 * outside our control: listing an object's keys is native work proportional to their number, so a
 * 1,000,000-key object still costs about as much as `Object.keys`; the JS-level work (`visited`) stays bounded.
 */
export function previewValue(value: JsonValue, options: PreviewOptions = {}): ValuePreview {
  const requested = Math.floor(options.maxChars ?? DEFAULT_PREVIEW_CHARS);
  const budget = Number.isNaN(requested) ? DEFAULT_PREVIEW_CHARS : Math.max(1, requested);
  const walk: Walk = { visited: 1, truncated: false };
  const text = previewAny(value, budget, 0, walk);
  return { text, truncated: walk.truncated, visited: walk.visited };
}
