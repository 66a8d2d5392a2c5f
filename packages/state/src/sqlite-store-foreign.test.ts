import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ObeliskError } from "@obelisk/core";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { commitOk, THREAD, write } from "./conformance/commit-fixtures.js";
import { digest, refusal } from "./conformance/file-fixtures.js";
import { ensureSchema } from "./internal/sqlite-schema.js";
import { SCHEMA_TABLES } from "./internal/sqlite-tables.js";
import { createSqliteStore } from "./sqlite-store.js";

const root = mkdtempSync(join(tmpdir(), "obelisk-foreign-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

/** Another program's SQLite database (rollback journal) made by `sql`, in a fresh directory. */
function database(sql: string): string {
  const file = join(mkdtempSync(join(root, `case-${++counter}-`)), "app.db");
  const db = new BetterSqlite3(file);
  db.exec(sql);
  db.close();
  return file;
}

/** The journal mode and table names of `file`, read without changing it. */
function shape(file: string): { journal: unknown; tables: string[] } {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
    return {
      journal: db.pragma("journal_mode", { simple: true }),
      tables: (tables as { name: string }[]).map((row) => row.name),
    };
  } finally {
    db.close();
  }
}

/** Opening `file` throws STORE_ERROR not-a-store and leaves it, and its directory, as they were. */
function expectRefusedUnchanged(file: string, open: () => unknown): ObeliskError {
  const before = digest(file);
  const dir = readdirSync(join(file, ".."));
  const error = refusal(open);
  expect(error).toMatchObject({ code: "STORE_ERROR", data: { reason: "not-a-store", file } });
  expect(error.message).toContain(`${file} is not an Obelisk store (another program's database`);
  expect(error.hint).toBeDefined();
  expect(digest(file)).toBe(before);
  expect(readdirSync(join(file, ".."))).toEqual(dir);
  return error;
}

const CLASHING = `CREATE TABLE threads (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO threads (name) VALUES ('bob');
CREATE TABLE runs (x);`;

describe("sqlite store: another program's database (create: true, the default)", () => {
  it("refuses one whose tables clash with the store's (same names, other columns), changing nothing in it", () => {
    const file = database(CLASHING);
    const error = expectRefusedUnchanged(file, () => createSqliteStore(file));
    expect(error.data).toMatchObject({ clash: "threads" });
    expect(error.message).toContain("its table threads has other columns than the store's threads table");
    expect(shape(file)).toEqual({ journal: "delete", tables: ["runs", "threads"] });
  });

  it("refuses a view named like a store table, an index of the store's name on another table, a meta table without its key", () => {
    for (const [sql, clash] of [
      ["CREATE TABLE users (id INTEGER PRIMARY KEY); CREATE VIEW threads AS SELECT id FROM users", "threads"],
      ["CREATE TABLE users (id INTEGER PRIMARY KEY); CREATE INDEX runs_thread ON users (id)", "runs_thread"],
      ["CREATE TABLE meta (key TEXT, value TEXT)", "meta"],
      ["CREATE TABLE Locks (thread_id TEXT PRIMARY KEY, owner TEXT)", "Locks"],
    ] as const) {
      const file = database(sql);
      expect(expectRefusedUnchanged(file, () => createSqliteStore(file)).data).toMatchObject({ clash });
      expect(shape(file).journal).toBe("delete");
    }
  });

  it("adds the store's tables beside the tables of one without clashes, and keeps its data", async () => {
    const file = database(
      "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users (name) VALUES ('ada')",
    );
    const store = createSqliteStore(file);
    await commitOk(store, { callId: "a", writes: [write(["n"], 1)] });
    await store.close();
    const after = shape(file);
    expect(after.journal).toBe("wal");
    expect(after.tables).toEqual(
      expect.arrayContaining(["users", ...SCHEMA_TABLES.map((table) => table.name)]),
    );
    const db = new BetterSqlite3(file, { readonly: true });
    expect(db.prepare("SELECT name FROM users").all()).toEqual([{ name: "ada" }]);
    db.close();
    const reopened = createSqliteStore(file, { create: false });
    expect(reopened.readState(THREAD)).toEqual({ n: 1 });
    await reopened.close();
  });

  it("completes a store whose creation an older build left half done (some tables, threads without version)", async () => {
    const threads = SCHEMA_TABLES.find((table) => table.name === "threads")?.definition ?? "";
    const file = database(
      `${SCHEMA_TABLES[0]?.definition}; ${threads.replace(/,\s*version INTEGER NOT NULL DEFAULT 0/, "")};`,
    );
    const store = createSqliteStore(file);
    await commitOk(store, { callId: "a", writes: [write(["n"], 1)] });
    await store.close();
    expect(shape(file).tables).toEqual(expect.arrayContaining(SCHEMA_TABLES.map((table) => table.name)));
  });

  it("creates the schema all at once or not at all: a failing statement rolls every table back", () => {
    const file = database(CLASHING);
    const before = digest(file);
    const db = new BetterSqlite3(file);
    // admitting the clashing file anyway: the index on runs (thread_id, seq) fails after meta and snapshots
    expect(() => ensureSchema(db, () => undefined)).toThrow(/thread_id/);
    db.close();
    expect(digest(file)).toBe(before);
    expect(shape(file)).toEqual({ journal: "delete", tables: ["runs", "threads"] });
  });
});

describe('sqlite store: create: "if-empty" (the CLI\'s writing commands)', () => {
  it("makes a missing or empty file a store", async () => {
    const dir = mkdtempSync(join(root, "if-empty-"));
    const empty = join(dir, "empty.db");
    writeFileSync(empty, "");
    for (const file of [join(dir, "missing.db"), empty]) {
      const store = createSqliteStore(file, { create: "if-empty" });
      await commitOk(store, { callId: "a", writes: [write(["n"], 1)] });
      await store.close();
      expect(shape(file).journal).toBe("wal");
    }
  });

  it("refuses another program's database, also one without clashing tables, changing nothing", () => {
    const file = database("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)");
    const error = expectRefusedUnchanged(file, () => createSqliteStore(file, { create: "if-empty" }));
    expect(error.message).toContain("is not an Obelisk store (another program's database)");
    expect(shape(file)).toEqual({ journal: "delete", tables: ["users"] });
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it("opens a store as usual", async () => {
    const file = join(mkdtempSync(join(root, "store-")), "state.db");
    const first = createSqliteStore(file);
    await commitOk(first, { callId: "a", writes: [write(["n"], 1)] });
    await first.close();
    const store = createSqliteStore(file, { create: "if-empty" });
    expect(store.readState(THREAD)).toEqual({ n: 1 });
    await store.close();
  });
});
