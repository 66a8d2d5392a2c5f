import { readFileSync } from "node:fs";

// A leading BOM (Windows editors and PowerShell write one) is dropped: JSON text has none, and JSON.parse
// would call it an invalid symbol at 1:1.
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads a text file that must be UTF-8 (JSON is): bytes that are not UTF-8 throw instead of silently
 * becoming U+FFFD, which would change the plan (and its hash) without a word. A leading byte order mark is
 * dropped.
 */
export function readUtf8File(path: string): string {
  const bytes = readFileSync(path);
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new Error(`it is not UTF-8 text (byte ${firstInvalidByte(bytes) + 1} is not valid UTF-8)`);
  }
}

/** Offset of the first byte where UTF-8 decoding fails (found by halving: decoding prefixes). */
function firstInvalidByte(bytes: Uint8Array): number {
  let good = 0;
  let bad = bytes.length;
  while (bad - good > 1) {
    const middle = (good + bad) >> 1;
    if (decodes(bytes.subarray(0, middle))) good = middle;
    else bad = middle;
  }
  return good;
}

/** True when a prefix decodes, allowing a sequence cut at the end (it may continue past the prefix). */
function decodes(prefix: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(prefix, { stream: true });
    return true;
  } catch {
    return false;
  }
}
