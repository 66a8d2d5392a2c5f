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

/** A part replaced by null. */
const dropped = (whole: number, fixed: boolean): Sized => ({ value: null, bytes: 4, whole, fixed });

/** A part of the parameters with its larger parts replaced by null (itself too when it is still larger). */
function trimmed(value: JsonValue, maxBytes: number, depth: number): Sized {
  if (typeof value !== "object" || value === null) {
    const bytes = jsonByteSize(value);
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

/** A container with its larger parts replaced by null, its sizes, and whether it is deep-frozen. */
function trimmedMembers(value: JsonArray | JsonObject, maxBytes: number, depth: number): Sized {
  let fixed = Object.isFrozen(value);
  if (Array.isArray(value)) {
    const items: JsonValue[] = [];
    let bytes = 2 + Math.max(0, value.length - 1);
    let whole = bytes;
    for (const item of value) {
      const part = trimmed(item, maxBytes, depth + 1);
      items.push(part.value);
      bytes += part.bytes;
      whole += part.whole;
      fixed &&= part.fixed;
    }
    return { value: Object.freeze(items), bytes, whole, fixed };
  }
  const members: Record<string, JsonValue> = {};
  let bytes = 2;
  let whole = 2;
  let count = 0;
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    const part = trimmed(item, maxBytes, depth + 1);
    // a `__proto__` member stays a member (an assignment would set the copy's prototype)
    if (key === "__proto__")
      Object.defineProperty(members, key, {
        value: part.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else members[key] = part.value;
    const keyBytes = jsonByteSize(key) + 1;
    bytes += keyBytes + part.bytes;
    whole += keyBytes + part.whole;
    fixed &&= part.fixed;
    count++;
  }
  const commas = Math.max(0, count - 1);
  return { value: Object.freeze(members), bytes: bytes + commas, whole: whole + commas, fixed };
}
