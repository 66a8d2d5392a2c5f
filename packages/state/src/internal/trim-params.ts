import { type JsonValue, jsonByteSize, jsonByteSizeWithin } from "@obelisk/core";
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
}

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
  return { params: root.bytes <= maxBytes ? root.value : undefined, droppedBytes: jsonByteSize(params) };
}

const NULL: Sized = Object.freeze({ value: null, bytes: 4 });

/** A part of the parameters with its larger parts replaced by null (itself too when it is still larger). */
function trimmed(value: JsonValue, maxBytes: number, depth: number): Sized {
  if (typeof value !== "object" || value === null) {
    // a string of more characters than the bound is larger (each takes at least one byte): not measured
    if (depth > 0 && typeof value === "string" && value.length + 2 > maxBytes) return NULL;
    const bytes = jsonByteSize(value);
    return depth > 0 && bytes > maxBytes ? NULL : { value, bytes };
  }
  if (depth >= MAX_TRIM_DEPTH) {
    const bytes = jsonByteSize(value);
    return bytes > maxBytes ? NULL : { value, bytes };
  }
  let sized: Sized;
  if (Array.isArray(value)) {
    const items: JsonValue[] = [];
    let bytes = 2 + Math.max(0, value.length - 1);
    for (const item of value) {
      const part = trimmed(item, maxBytes, depth + 1);
      items.push(part.value);
      bytes += part.bytes;
    }
    sized = { value: Object.freeze(items), bytes };
  } else {
    const members: Record<string, JsonValue> = {};
    let bytes = 2;
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
      bytes += jsonByteSize(key) + 1 + part.bytes;
      count++;
    }
    sized = { value: Object.freeze(members), bytes: bytes + Math.max(0, count - 1) };
  }
  return depth > 0 && sized.bytes > maxBytes ? NULL : sized;
}
