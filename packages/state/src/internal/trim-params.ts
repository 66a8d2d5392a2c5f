import {
  type JsonArray,
  type JsonObject,
  type JsonValue,
  jsonByteSize,
  jsonByteSizeWithin,
} from "@obelisk/core";
import { isFrozenJson } from "./frozen-json.js";

/** Below this depth a large part is replaced whole (its size measured without walking it recursively). */
const MAX_TRIM_DEPTH = 64;

/** A record's parameters as kept: the value (none when all of it went) and the bytes of the whole. */
export interface TrimmedParams {
  readonly params: JsonValue | undefined;
  /** Bytes of JSON of the parameters given, when they were larger than the bound (else undefined). */
  readonly droppedBytes: number | undefined;
}

/** A part of the parameters as kept, with its size in bytes of JSON. */
interface Sized {
  readonly value: JsonValue;
  readonly bytes: number;
  /** Bytes of JSON of the part as given (before its larger parts were replaced). */
  readonly whole: number;
  /** True when the part given cannot change: a primitive, or a frozen container of such parts. */
  readonly fixed: boolean;
}

/** A deep-frozen part found larger than the bound: its size, for the bound and depth it was measured at. */
interface DroppedPart {
  readonly maxBytes: number;
  readonly depth: number;
  readonly whole: number;
}

/**
 * Deep-frozen parts already replaced by null: many calls reading one large stored value (`†state.rows`)
 * hand it to the record each, and each record would otherwise walk it whole (O(calls × size)).
 */
const droppedParts = new WeakMap<object, DroppedPart>();

/**
 * The parameters a call record keeps (decision record 0034): as they are when their JSON is at most
 * `maxBytes`; otherwise every part (object member, array item, below the root) whose JSON — its own
 * larger parts replaced first — is still over `maxBytes` becomes `null`, and when the whole is still over
 * `maxBytes` nothing is kept. Deep-frozen; `droppedBytes` is the size of the parameters given.
 */
export function trimParams(params: JsonValue | undefined, maxBytes: number): TrimmedParams {
  if (params === undefined || maxBytes === Number.POSITIVE_INFINITY || isFrozenJson(params, maxBytes))
    return { params, droppedBytes: undefined };
  // on every commit: measured no further than the bound (a long string is over at once)
  if (jsonByteSizeWithin(params, maxBytes) !== undefined) return { params, droppedBytes: undefined };
  const root = trimmed(params, maxBytes, 0);
  return { params: root.bytes <= maxBytes ? root.value : undefined, droppedBytes: root.whole };
}

/** Strings at least this long have their JSON size kept in {@link LONG_STRING_BYTES}. */
const LONG_STRING = 65_536;
/** How many long strings' sizes are kept (the ones measured last). */
const MAX_LONG_STRINGS = 16;
/**
 * The JSON size of the long strings measured last: 20 calls reading a 20 MB stored text each scanned it
 * for their record's `droppedParamsBytes` (a string cannot key a WeakMap; V8 looks a long one up by its
 * length, then by identity or content). Holds at most {@link MAX_LONG_STRINGS} strings.
 */
const LONG_STRING_BYTES = new Map<string, number>();

/** The JSON size of a string, kept for a long one. */
function stringBytes(text: string): number {
  if (text.length < LONG_STRING) return jsonByteSize(text);
  let bytes = LONG_STRING_BYTES.get(text);
  if (bytes !== undefined) return bytes;
  bytes = jsonByteSize(text);
  if (LONG_STRING_BYTES.size >= MAX_LONG_STRINGS) {
    const oldest = LONG_STRING_BYTES.keys().next();
    if (oldest.done !== true) LONG_STRING_BYTES.delete(oldest.value);
  }
  LONG_STRING_BYTES.set(text, bytes);
  return bytes;
}

/** A part replaced by null. */
const dropped = (whole: number, fixed: boolean): Sized => ({ value: null, bytes: 4, whole, fixed });

/** A part of the parameters with its larger parts replaced by null (itself too when it is still larger). */
function trimmed(value: JsonValue, maxBytes: number, depth: number): Sized {
  if (typeof value !== "object" || value === null) {
    const bytes = typeof value === "string" ? stringBytes(value) : jsonByteSize(value);
    return depth > 0 && bytes > maxBytes ? dropped(bytes, true) : { value, bytes, whole: bytes, fixed: true };
  }
  if (depth >= MAX_TRIM_DEPTH) {
    const bytes = jsonByteSize(value);
    return bytes > maxBytes ? dropped(bytes, false) : { value, bytes, whole: bytes, fixed: false };
  }
  const known = droppedParts.get(value);
  if (known !== undefined && known.maxBytes === maxBytes && known.depth === depth)
    return dropped(known.whole, true);
  const sized = trimmedMembers(value, maxBytes, depth);
  if (depth === 0 || sized.bytes <= maxBytes) return sized;
  if (sized.fixed) droppedParts.set(value, { maxBytes, depth, whole: sized.whole });
  return dropped(sized.whole, sized.fixed);
}

/**
 * A container with its larger parts replaced by null, its sizes, and whether it is deep-frozen. A
 * deep-frozen container none of whose parts was replaced is kept itself, and a container found over the
 * bound is not copied (its caller drops it): parts are copied only from the first one that changed (the
 * first reader of a large stored value copied its 100,000 small objects, then dropped the whole).
 */
function trimmedMembers(value: JsonArray | JsonObject, maxBytes: number, depth: number): Sized {
  const frozen = Object.isFrozen(value);
  let fixed = frozen;
  if (Array.isArray(value)) {
    // the parts as kept, from the first one that is not the item itself (undefined while none)
    let items: JsonValue[] | undefined;
    let bytes = 2 + Math.max(0, value.length - 1);
    let whole = bytes;
    for (let at = 0; at < value.length; at++) {
      const item = value[at] as JsonValue;
      const part = trimmed(item, maxBytes, depth + 1);
      if (items === undefined && part.value !== item) items = value.slice(0, at);
      items?.push(part.value);
      bytes += part.bytes;
      whole += part.whole;
      fixed &&= part.fixed;
    }
    if (bytes > maxBytes) return { value: null, bytes, whole, fixed };
    if (items === undefined && frozen) return { value, bytes, whole, fixed };
    return { value: Object.freeze(items ?? value.slice()), bytes, whole, fixed };
  }
  // the members as kept, from the first one that is not the member itself (undefined while none)
  let members: Record<string, JsonValue> | undefined;
  let bytes = 2;
  let whole = 2;
  let count = 0;
  const entries = Object.entries(value);
  for (let at = 0; at < entries.length; at++) {
    const [key, item] = entries[at] as [string, JsonValue | undefined];
    if (item === undefined) {
      members ??= membersOf(entries, at);
      continue;
    }
    const part = trimmed(item, maxBytes, depth + 1);
    if (members === undefined && part.value !== item) members = membersOf(entries, at);
    if (members !== undefined) setMember(members, key, part.value);
    const keyBytes = jsonByteSize(key) + 1;
    bytes += keyBytes + part.bytes;
    whole += keyBytes + part.whole;
    fixed &&= part.fixed;
    count++;
  }
  const commas = Math.max(0, count - 1);
  bytes += commas;
  whole += commas;
  if (bytes > maxBytes) return { value: null, bytes, whole, fixed };
  if (members === undefined && frozen) return { value, bytes, whole, fixed };
  return { value: Object.freeze(members ?? membersOf(entries, entries.length)), bytes, whole, fixed };
}

/** A new object of the first `count` entries that are not undefined. */
function membersOf(
  entries: readonly (readonly [string, JsonValue | undefined])[],
  count: number,
): Record<string, JsonValue> {
  const members: Record<string, JsonValue> = {};
  for (let at = 0; at < count; at++) {
    const [key, item] = entries[at] as [string, JsonValue | undefined];
    if (item !== undefined) setMember(members, key, item);
  }
  return members;
}

/** Sets a member; a `__proto__` member stays a member (an assignment would set the copy's prototype). */
function setMember(members: Record<string, JsonValue>, key: string, item: JsonValue): void {
  if (key === "__proto__")
    Object.defineProperty(members, key, {
      value: item,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else members[key] = item;
}
