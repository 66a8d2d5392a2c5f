import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parsePlanText } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { decodeUtf8, overLimitBytes, readUtf8File } from "./read-utf8.js";

const MAX = 64;
const limits = { maxDocumentBytes: MAX };
const dir = mkdtempSync(join(tmpdir(), "obelisk-read-utf8-"));

/** A valid plan padded with spaces, then `tail` (a 4-byte character cut by the read, garbage after it). */
function overLimitDocument(bom: string, pad: number, tail: string): Buffer {
  const plan = '{"type":"plan","plan":[]}';
  return Buffer.from(`${bom}${plan}${" ".repeat(pad)}${tail}`);
}

describe("readUtf8File and decodeUtf8 with a limit (review-cli2 1)", () => {
  it("a document over the limit stays over it once cut, with a BOM and a cut inside a character", () => {
    for (const bom of ["", "\ufeff", "\ufeff\ufeff"]) {
      for (let pad = MAX - 30; pad <= MAX + 10; pad++) {
        const bytes = overLimitDocument(bom, pad, "😀 trailing garbage ".repeat(4));
        const file = join(dir, "plan.json");
        writeFileSync(file, bytes);
        const fromFile = readUtf8File(file, MAX);
        // the same path as standard input: the first bytes, decoded as cut
        const cap = overLimitBytes(MAX);
        const fromStdin = decodeUtf8(bytes.subarray(0, cap), bytes.length >= cap);
        for (const text of [fromFile, fromStdin]) {
          const codes = parsePlanText(text, { limits }).diagnostics.map((d) => d.code);
          expect(codes, `${bom.length} BOM, pad ${pad}`).toEqual(["PLAN_LIMIT"]);
        }
      }
    }
  });

  it("a document under the limit is read whole, its BOM dropped", () => {
    writeFileSync(join(dir, "small.json"), "\ufeff{}");
    expect(readUtf8File(join(dir, "small.json"), MAX)).toBe("{}");
  });
});
