import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { digest, refusal } from "./__fixtures__/file-fixtures.js";
import { commitOk, THREAD, write } from "./conformance/commit-fixtures.js";
import { createSqliteStore } from "./sqlite-store.js";

const root = mkdtempSync(join(tmpdir(), "obelisk-migrate-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A store file as a build of schema version 1 left it (no `threads.version`), holding `greeting: "hi"`. */
async function olderStoreFile(): Promise<string> {
  const file = join(mkdtempSync(join(root, "case-")), "state.db");
  const store = createSqliteStore(file);
  await commitOk(store, { callId: "a", writes: [write(["greeting"], "hi")] });
  await store.close();
  const db = new BetterSqlite3(file);
  db.exec(
    "ALTER TABLE threads DROP COLUMN version; UPDATE meta SET value = '1' WHERE key = 'schema_version'",
  );
  db.close();
  return file;
}

/** The file's schema version row and whether `threads` has the column version 2 added. */
function schemaOf(file: string): { version: string; threadVersions: boolean } {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const { value } = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as {
      value: string;
    };
    const columns = db.prepare("PRAGMA table_info(threads)").all() as { name: string }[];
    return { version: value, threadVersions: columns.some((column) => column.name === "version") };
  } finally {
    db.close();
  }
}

describe("sqlite store: migrate: false (rolling deploys)", () => {
  it("refuses a store of an older schema version, naming both versions, and leaves the file as it was", async () => {
    const file = await olderStoreFile();
    const before = digest(file);
    for (const options of [{ migrate: false }, { migrate: false, create: false }] as const) {
      const error = refusal(() => createSqliteStore(file, options));
      expect(error).toMatchObject({
        code: "STORE_ERROR",
        data: { reason: "older-version", file, fileVersion: 1, readsVersion: 2 },
      });
      expect(error.message).toBe(
        `${file} is a store of schema version 1, older than this Obelisk writes (2), and migrate is false`,
      );
      expect(error.hint).toContain(
        "migrate: true (the default) once every process sharing it runs this build",
      );
    }
    expect(digest(file)).toBe(before);
    expect(readdirSync(join(file, ".."))).toEqual(["state.db"]);
    expect(schemaOf(file)).toEqual({ version: "1", threadVersions: false });
  });

  it("refuses it as well while another connection's -wal is beside it, changing neither file", async () => {
    const file = await olderStoreFile();
    const other = new BetterSqlite3(file);
    other.pragma("journal_mode = WAL");
    other.pragma("wal_autocheckpoint = 0");
    other.exec("INSERT INTO meta (key, value) VALUES ('host-note', 'x')");
    try {
      const before = { main: digest(file), wal: digest(`${file}-wal`) };
      const error = refusal(() => createSqliteStore(file, { migrate: false }));
      expect(error).toMatchObject({ code: "STORE_ERROR", data: { reason: "older-version", fileVersion: 1 } });
      expect({ main: digest(file), wal: digest(`${file}-wal`) }).toEqual(before);
    } finally {
      other.close();
    }
    expect(schemaOf(file)).toEqual({ version: "1", threadVersions: false });
  });

  it("by default (and with migrate: true) brings the older store up to date, as before", async () => {
    for (const options of [{}, { migrate: true }] as const) {
      const file = await olderStoreFile();
      const store = createSqliteStore(file, options);
      expect(store.readState(THREAD)).toEqual({ greeting: "hi" });
      await store.close();
      expect(schemaOf(file)).toEqual({ version: "2", threadVersions: true });
    }
  });

  it("opens a store of this version as usual (writes work)", async () => {
    const file = join(mkdtempSync(join(root, "case-")), "state.db");
    const created = createSqliteStore(file, { migrate: false });
    await commitOk(created, { callId: "a", writes: [write(["n"], 1)] });
    await created.close();
    const store = createSqliteStore(file, { migrate: false });
    await commitOk(store, { callId: "b", writes: [write(["m"], 2)] });
    expect(store.readState(THREAD)).toEqual({ n: 1, m: 2 });
    await store.close();
  });

  it("refuses a migrate that is not a boolean (USAGE), before the file is touched", () => {
    const file = join(mkdtempSync(join(root, "case-")), "state.db");
    const error = refusal(() => createSqliteStore(file, { migrate: "no" as unknown as boolean }), "USAGE");
    expect(error.message).toBe('migrate must be true or false, not "no"');
    expect(readdirSync(join(file, ".."))).toEqual([]);
  });
});
