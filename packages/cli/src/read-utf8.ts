import { closeSync, openSync, readSync } from "node:fs";

// A leading BOM (Windows editors and PowerShell write one) is dropped: JSON text has none, and JSON.parse
// would call it an invalid symbol at 1:1.
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** The UTF-8 bytes of a byte order mark (U+FEFF). */
const BOM_BYTES = 3;

/**
 * Reads a text file that must be UTF-8 (JSON is): bytes that are not UTF-8 throw instead of silently
 * becoming U+FFFD, which would change the plan (and its hash) without a word. A leading byte order mark is
 * dropped. With `maxBytes`, at most a few bytes more than that are read (what lies beyond is not needed to
 * say the document is over a limit of `maxBytes`: a 3 GB file is refused without reading it).
 */
export function readUtf8File(path: string, maxBytes = Number.POSITIVE_INFINITY): string {
  const fd = openSync(path, "r");
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    const cap = overLimitBytes(maxBytes);
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1 << 20, cap - total));
      const read = chunk.length === 0 ? 0 : readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      total += read;
    }
    return decodeUtf8(Buffer.concat(chunks), total >= cap);
  } finally {
    closeSync(fd);
  }
}

/**
 * How many bytes to read to know whether a document is larger than `maxBytes`. When the document was cut
 * there, the text handed on must still be larger than `maxBytes`, or the compiler would see a truncated
 * document under the limit (one that is not JSON could run, a valid one would be a JSON_SYNTAX): one byte
 * past the limit, plus a leading byte order mark decoding drops and a second one the compiler drops (3
 * bytes each). The UTF-8 sequence the cut may split costs nothing: {@link decodeUtf8} puts U+FFFD (3 bytes)
 * in place of the unread rest.
 */
export function overLimitBytes(maxBytes: number): number {
  return Number.isFinite(maxBytes) ? maxBytes + 1 + 2 * BOM_BYTES : Number.MAX_SAFE_INTEGER;
}

/**
 * Decodes bytes that must be UTF-8 (see {@link readUtf8File}). `cut`: the bytes are the start of a longer
 * text, so a sequence cut at their end is not an error: the text ends with U+FFFD in place of the rest,
 * which was not read (never fewer bytes than were dropped, so a text cut over a limit stays over it).
 */
export function decodeUtf8(bytes: Uint8Array, cut = false): string {
  try {
    if (!cut) return strictUtf8.decode(bytes);
    return `${new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: true })}\uFFFD`;
  } catch {
    const at = firstInvalidByte(bytes);
    const hex = (bytes[at] ?? 0).toString(16).toUpperCase().padStart(2, "0");
    throw new Error(`it is not UTF-8 text (byte ${at + 1}, 0x${hex}, is not valid UTF-8)`);
  }
}

/**
 * Offset of the first byte of the first sequence that is not UTF-8 (RFC 3629: no overlong forms, no
 * surrogates, nothing past U+10FFFF), -1 when every sequence is valid. A sequence cut short is named by its
 * lead byte, where it starts, not by the byte where it turns out to be broken.
 */
function firstInvalidByte(bytes: Uint8Array): number {
  let at = 0;
  while (at < bytes.length) {
    const lead = bytes[at] as number;
    if (lead < 0x80) {
      at++;
      continue;
    }
    const length =
      lead >= 0xc2 && lead <= 0xdf
        ? 2
        : lead >= 0xe0 && lead <= 0xef
          ? 3
          : lead >= 0xf0 && lead <= 0xf4
            ? 4
            : 0;
    if (length === 0) return at;
    // the second byte's range is narrower after these leads (overlong forms, surrogates, past U+10FFFF)
    const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    for (let next = 1; next < length; next++) {
      const byte = bytes[at + next];
      const [min, max] = next === 1 ? [low, high] : [0x80, 0xbf];
      if (byte === undefined || byte < min || byte > max) return at;
    }
    at += length;
  }
  return -1;
}
