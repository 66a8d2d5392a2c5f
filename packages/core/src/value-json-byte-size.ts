import type { JsonValue } from "./json-value.js";
import { isLowSurrogate } from "./utf8-length.js";

/** UTF-8 bytes of one character code as written inside a JSON string (escapes included). */
function escapedCharBytes(code: number): number {
  if (code === 0x22 || code === 0x5c) return 2;
  if (code < 0x20) return code === 8 || code === 9 || code === 10 || code === 12 || code === 13 ? 2 : 6;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  return 3;
}

/** Characters JSON escapes (controls, quote, backslash) and surrogates (a lone one is escaped): counted one by one. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it looks for
const COUNTED_ONE_BY_ONE = /[\u0000-\u001f"\\\ud800-\udfff]/;
/** From this length a regex test and a native UTF-8 count beat the loop (~1 against ~2.5 ns per character). */
const NATIVE_FROM = 64;

/** UTF-8 bytes of a string written as JSON (quotes and escapes; lone surrogates as `\uXXXX`, like JSON.stringify). */
export function jsonStringByteSize(text: string): number {
  // nothing escaped and no surrogate: the JSON text is the string's own UTF-8 between quotes
  if (text.length >= NATIVE_FROM && !COUNTED_ONE_BY_ONE.test(text))
    return Buffer.byteLength(text, "utf8") + 2;
  let bytes = 2;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdfff) {
      if (code <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))) {
        bytes += 4;
        index++;
      } else bytes += 6;
    } else bytes += escapedCharBytes(code);
  }
  return bytes;
}

/** UTF-8 bytes of a primitive written as JSON (numbers as JSON.stringify writes them). */
export function jsonPrimitiveByteSize(value: null | boolean | number | string): number {
  if (typeof value === "string") return jsonStringByteSize(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value).length : 4;
  if (value === null) return 4;
  return value ? 4 : 5;
}

/**
 * The size in UTF-8 bytes of a value's compact JSON (as `JSON.stringify` writes it), computed by walking
 * the value iteratively without building the text. Undefined object properties are not counted.
 */
export function jsonByteSize(value: JsonValue): number {
  return jsonByteSizeWithin(value, Number.POSITIVE_INFINITY) as number;
}

/**
 * Bytes of an object's own JSON syntax (braces, keys, colons, commas), pushing its defined members' values
 * on `stack` — or undefined as soon as that plus one byte per value found so far passes `room`.
 */
function objectMembersWithin(
  object: Record<string, unknown>,
  stack: unknown[],
  room: number,
): number | undefined {
  let bytes = 2;
  let members = 0;
  for (const key of Object.keys(object)) {
    const item = object[key];
    if (item === undefined) continue;
    if (members > 0) bytes++;
    if (key.length + 2 > room - bytes) return undefined;
    bytes += jsonStringByteSize(key) + 1;
    members++;
    if (bytes + members > room) return undefined;
    stack.push(item);
  }
  return bytes;
}

/**
 * {@link jsonByteSize} when it is at most `limit`, else undefined — found in work proportional to `limit`,
 * not to the value: a string of more characters than the room left is over at once (each character is at
 * least one byte), an array of more items than the room left is over before any item is read (each item is
 * at least one byte), and an object's members are read only until they fill the room.
 */
export function jsonByteSizeWithin(value: JsonValue, limit: number): number | undefined {
  let bytes = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === "string") {
      if (current.length + 2 > limit - bytes) return undefined;
      bytes += jsonStringByteSize(current);
    } else if (typeof current !== "object" || current === null) {
      bytes += current === undefined ? 4 : jsonPrimitiveByteSize(current as null | boolean | number);
    } else if (Array.isArray(current)) {
      bytes += 2 + Math.max(0, current.length - 1);
      if (bytes + current.length > limit) return undefined;
      for (const item of current) stack.push(item);
    } else {
      const own = objectMembersWithin(current as Record<string, unknown>, stack, limit - bytes);
      if (own === undefined) return undefined;
      bytes += own;
    }
    if (bytes > limit) return undefined;
  }
  return bytes;
}
