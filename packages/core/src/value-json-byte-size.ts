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

/** UTF-8 bytes of a string written as JSON (quotes and escapes; lone surrogates as `\uXXXX`, like JSON.stringify). */
export function jsonStringByteSize(text: string): number {
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
  let bytes = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current !== "object" || current === null) {
      bytes += current === undefined ? 4 : jsonPrimitiveByteSize(current as null | boolean | number | string);
    } else if (Array.isArray(current)) {
      bytes += 2 + Math.max(0, current.length - 1);
      for (const item of current) stack.push(item);
    } else {
      let members = 0;
      for (const key of Object.keys(current)) {
        const item = (current as Record<string, unknown>)[key];
        if (item === undefined) continue;
        bytes += jsonStringByteSize(key) + 1;
        members++;
        stack.push(item);
      }
      bytes += 2 + Math.max(0, members - 1);
    }
  }
  return bytes;
}
