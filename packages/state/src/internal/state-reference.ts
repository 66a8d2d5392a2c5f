import type { Path } from "@obelisk/core";

const PREFIX = "†state";
const NAME = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;
const DOT = 0x2e;
const OPEN = 0x5b;
const CLOSE = 0x5d;
const ZERO = 0x30;
const NINE = 0x39;

/** The index written `[digits]` at `at` of `text`, and where it ends; -1 when there is none. */
function indexEnd(text: string, at: number, index: number): number {
  if (text.charCodeAt(at) !== OPEN) return -1;
  let position = at + 1;
  let value = 0;
  const first = position;
  for (; position < text.length; position++) {
    const code = text.charCodeAt(position);
    if (code < ZERO || code > NINE) break;
    value = value * 10 + (code - ZERO);
  }
  const digits = position - first;
  if (digits === 0 || (digits > 1 && text.charCodeAt(first) === ZERO)) return -1;
  if (value !== index || text.charCodeAt(position) !== CLOSE) return -1;
  return position + 1;
}

/**
 * True when `reference` is exactly `formatReference("state", path)`, checked without building that text,
 * for paths of names and array indices (any other segment answers false: the caller formats it).
 */
export function isStateReference(reference: string, path: Path): boolean {
  if (!reference.startsWith(PREFIX)) return false;
  let at = PREFIX.length;
  for (let index = 0; index < path.length; index++) {
    const segment = path[index];
    if (typeof segment === "number") {
      if (!Number.isSafeInteger(segment) || segment < 0) return false;
      at = indexEnd(reference, at, segment);
      if (at < 0) return false;
      continue;
    }
    if (typeof segment !== "string" || reference.charCodeAt(at) !== DOT || !NAME.test(segment)) return false;
    if (!reference.startsWith(segment, at + 1)) return false;
    at += 1 + segment.length;
  }
  return at === reference.length;
}
