import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ObeliskError } from "@obelisk/core";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { digest, refusal } from "./__fixtures__/file-fixtures.js";
import { commitOk, THREAD, write } from "./conformance/commit-fixtures.js";
import { ensureSchema, storeFileKind } from "./internal/sqlite-schema.js";
import { LATER_TABLES, SCHEMA_TABLES } from "./internal/sqlite-tables.js";
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

/** A `meta` table of the store's shape holding a `schema_version` row, as another program may have one. */
const META =
  "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('schema_version', '1');";

/** The store's schema of version 1 (no `threads.version`, none of the tables added since), as SQL. */
const VERSION_1 = SCHEMA_TABLES.filter((table) => !LATER_TABLES.includes(table.name))
  .map((table) => table.definition.replace(/,\s*version INTEGER NOT NULL DEFAULT 0/, ""))
  .join(";\n");

/** What `storeFileKind` tells of `file` (opened read-only). */
function kindOf(file: string): string {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    return storeFileKind(db);
  } finally {
    db.close();
  }
}

describe("sqlite store: a meta table with a schema_version row does not make a store", () => {
  it("another program's database with one is foreign: refused by if-empty, false and readonly, unchanged", () => {
    const file = database(`${META} CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)`);
    expect(kindOf(file)).toBe("foreign");
    for (const options of [{ create: "if-empty" }, { create: false }, { readonly: true }] as const) {
      const error = expectRefusedUnchanged(file, () => createSqliteStore(file, options));
      expect(error.message).toContain("is not an Obelisk store (another program's database)");
    }
    expect(shape(file)).toEqual({ journal: "delete", tables: ["meta", "users"] });
  });

  it("one whose threads table has other columns is refused as a clash, its threads table not altered", () => {
    const file = database(`${META} CREATE TABLE threads (thread_id TEXT, other TEXT)`);
    const error = expectRefusedUnchanged(file, () => createSqliteStore(file));
    expect(error.data).toMatchObject({ clash: "threads" });
    expect(shape(file)).toEqual({ journal: "delete", tables: ["meta", "threads"] });
  });

  it("one with every table of an older store but one of them of other columns is foreign, not an older store", () => {
    const file = database(
      `${META} ${VERSION_1.replace("status TEXT NOT NULL, record", "state TEXT, record")};`,
    );
    expect(kindOf(file)).toBe("foreign");
    const error = expectRefusedUnchanged(file, () => createSqliteStore(file));
    expect(error.data).toMatchObject({ clash: "runs" });
  });

  it("a newer schema version counts only with a store's threads and runs tables; a meta row alone is foreign", () => {
    const file = database(`${META.replace("'1'", "'99'")} CREATE TABLE users (id INTEGER)`);
    expect(kindOf(file)).toBe("foreign");
    expectRefusedUnchanged(file, () => createSqliteStore(file, { create: "if-empty" }));
  });

  it("one that lacks a table every store has is foreign, also with threads.version", () => {
    const threads = SCHEMA_TABLES.find((table) => table.name === "threads")?.definition ?? "";
    const file = database(`${META} ${threads}; CREATE TABLE users (id INTEGER)`);
    expect(kindOf(file)).toBe("foreign");
    expectRefusedUnchanged(file, () => createSqliteStore(file, { create: "if-empty" }));
  });

  it("a store of version 1 as its first builds wrote it (no snapshots, no run_calls) is older and upgraded", async () => {
    const file = join(mkdtempSync(join(root, "v1-")), "state.db");
    const first = createSqliteStore(file);
    await commitOk(first, { callId: "a", writes: [write(["n"], 1)] });
    await first.close();
    const db = new BetterSqlite3(file);
    db.exec(`ALTER TABLE threads DROP COLUMN version; UPDATE meta SET value = '1' WHERE key = 'schema_version';
      DROP TABLE snapshots; DROP TABLE run_calls; PRAGMA journal_mode = DELETE`);
    db.close();
    expect(kindOf(file)).toBe("older");
    const store = createSqliteStore(file, { create: "if-empty" });
    expect(store.readState(THREAD)).toEqual({ n: 1 });
    await store.close();
    expect(kindOf(file)).toBe("store");
  });

  it("ensureSchema rolls everything back when the file is no complete store afterwards (migration included)", () => {
    const file = database(`${META} CREATE TABLE threads (thread_id TEXT, other TEXT)`);
    const before = digest(file);
    const db = new BetterSqlite3(file);
    // admitting the file anyway: the migration alters their threads table, which is still no store's
    expect(() => ensureSchema(db, () => undefined)).toThrow(/not a complete store/);
    db.close();
    expect(digest(file)).toBe(before);
    expect(shape(file)).toEqual({ journal: "delete", tables: ["meta", "threads"] });
  });
});

describe("sqlite store: another program's database in WAL mode whose -wal holds changes", () => {
  /** A WAL database whose writer exited without closing: its changes are in the -wal only. */
  function walDatabase(sql: string): string {
    const file = join(mkdtempSync(join(root, `wal-${++counter}-`)), "app.db");
    const writer = `const D=require("better-sqlite3");const db=new D(${JSON.stringify(file)});db.pragma("journal_mode=WAL");db.pragma("wal_autocheckpoint=0");db.exec(${JSON.stringify(sql)});process.exit(0);`;
    execFileSync(process.execPath, ["-e", writer], { cwd: import.meta.dirname });
    return file;
  }

  it("a refusal leaves the file and its -wal byte for byte as they were, and -shm in place", () => {
    for (const [sql, options] of [
      ["CREATE TABLE users (id INTEGER); INSERT INTO users VALUES (1)", { create: "if-empty" }],
      ["CREATE TABLE threads (id INTEGER); INSERT INTO threads VALUES (1)", {}],
      ["CREATE TABLE users (id INTEGER); INSERT INTO users VALUES (1)", { create: false }],
    ] as const) {
      const file = walDatabase(sql);
      const wal = `${file}-wal`;
      const before = { file: digest(file), wal: digest(wal) };
      expect(readFileSync(wal).length).toBeGreaterThan(0);
      expectRefusedUnchanged(file, () => createSqliteStore(file, options));
      expect({ file: digest(file), wal: digest(wal), shm: existsSync(`${file}-shm`) }).toEqual({
        ...before,
        shm: true,
      });
    }
  });
});
