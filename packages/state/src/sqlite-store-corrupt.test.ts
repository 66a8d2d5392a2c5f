import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { digest, refusal } from "./__fixtures__/file-fixtures.js";
import { createSqliteStore, type SqliteStoreOptions } from "./sqlite-store.js";

const root = mkdtempSync(join(tmpdir(), "obelisk-corrupt-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

/** `bytes` written to a file in a fresh directory. */
function fileOf(bytes: Buffer): string {
  const file = join(mkdtempSync(join(root, `case-${++counter}-`)), "state.db");
  writeFileSync(file, bytes);
  return file;
}

/** A SQLite header (page size 4096) followed by pages of garbage: a database SQLite cannot read. */
function damagedDatabase(): Buffer {
  const bytes = Buffer.alloc(8192, 0xee);
  bytes.fill(0, 0, 100);
  bytes.write("SQLite format 3\0", 0, "latin1");
  bytes.writeUInt16BE(4096, 16);
  return bytes;
}

const CASES = [
  ["random bytes", () => Buffer.alloc(8192, 7)],
  ["a damaged database", damagedDatabase],
] as const;

const MODES: readonly [string, SqliteStoreOptions][] = [
  ["create (default)", {}],
  ['create: "if-empty"', { create: "if-empty" }],
  ["create: false", { create: false }],
  ["readonly", { readonly: true }],
];

describe("sqlite store: a file SQLite cannot read as a database", () => {
  for (const [what, bytes] of CASES) {
    for (const [mode, options] of MODES) {
      it(`${what}, ${mode}: STORE_ERROR corrupt with a hint, the file and its folder left as they were`, () => {
        const file = fileOf(bytes());
        const before = digest(file);
        const folder = readdirSync(join(file, ".."));
        const error = refusal(() => createSqliteStore(file, options));
        expect(error).toMatchObject({ code: "STORE_ERROR", data: { reason: "corrupt", file } });
        expect(error.message).toContain(`${file} is not a SQLite database, or a damaged one (SQLite: `);
        expect(error.hint).toContain("restore the file from a backup");
        expect(digest(file)).toBe(before);
        expect(readdirSync(join(file, ".."))).toEqual(folder);
      });
    }
  }
});
