import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ObeliskError } from "@obelisk/core";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { digest, refusal } from "./__fixtures__/file-fixtures.js";
import { commitOk, THREAD, write } from "./conformance/commit-fixtures.js";
import { createSqliteStore } from "./sqlite-store.js";

const root = mkdtempSync(join(tmpdir(), "obelisk-existing-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

/** A fresh directory for one case. */
function folder(): string {
  const dir = join(root, `case-${++counter}`);
  rmSync(dir, { recursive: true, force: true });
  return mkdtempSync(`${dir}-`);
}

/** Another program's SQLite database (rollback journal, one table). */
function foreignDatabase(dir: string): string {
  const file = join(dir, "app.db");
  const db = new BetterSqlite3(file);
  db.exec("CREATE TABLE meta (key TEXT, value TEXT); CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)");
  db.prepare("INSERT INTO users (name) VALUES (?)").run("ada");
  db.close();
  return file;
}

/** A store file holding one thread with one variable, closed. */
async function storeFile(dir: string): Promise<string> {
  const file = join(dir, "state.db");
  const store = createSqliteStore(file);
  await commitOk(store, { callId: "a", writes: [write(["greeting"], "hi")] });
  await store.close();
  return file;
}

describe("sqlite store: opening a file that must already hold a store", () => {
  it("readonly refuses an empty file and another program's database (not-a-store), leaving each as it was", () => {
    const dir = folder();
    const empty = join(dir, "empty.db");
    writeFileSync(empty, "");
    const foreign = foreignDatabase(dir);
    const before = { empty: digest(empty), foreign: digest(foreign) };
    for (const [file, what] of [
      [empty, "an empty file"],
      [foreign, "another program's database"],
    ] as const) {
      const error = refusal(() => createSqliteStore(file, { readonly: true }));
      expect(error).toMatchObject({ code: "STORE_ERROR", data: { reason: "not-a-store", file } });
      expect(error.message).toContain(`is not an Obelisk store (${what})`);
      expect(error.hint).toBeDefined();
    }
    expect({ empty: digest(empty), foreign: digest(foreign) }).toEqual(before);
    expect(readdirSync(dir).sort()).toEqual(["app.db", "empty.db"]);
  });

  it("readonly refuses a missing file, also in a missing folder (not-a-store, a hint naming it), creating nothing", () => {
    const dir = folder();
    for (const file of [join(dir, "missing.db"), join(dir, "sub", "missing.db")]) {
      const error = refusal(() => createSqliteStore(file, { readonly: true }));
      expect(error).toMatchObject({ code: "STORE_ERROR", data: { reason: "not-a-store", file } });
      expect(error.message).toContain("is not an Obelisk store (it does not exist)");
      expect(error.hint).toContain(`no store at ${file}`);
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it("readonly reads a thread the file lacks as empty without storing it, and leaves no file beside the store", async () => {
    const dir = folder();
    const file = await storeFile(dir);
    const before = digest(file);
    const files = readdirSync(dir);
    const store = createSqliteStore(file, { readonly: true });
    const typo = "typo" as typeof THREAD;
    await store.openThread(typo);
    expect(store.readState(typo)).toEqual({});
    expect(await store.listVariables(typo)).toEqual([]);
    expect(store.readState(THREAD)).toEqual({ greeting: "hi" });
    await store.close();
    expect(digest(file)).toBe(before);
    expect(readdirSync(dir)).toEqual(files);
    const reopened = createSqliteStore(file, { readonly: true });
    expect(await reopened.getThread(typo)).toBeUndefined();
    expect((await reopened.stats()).threads).toBe(1);
    await reopened.close();
  });

  it("create: false refuses a missing file, an empty one and another program's database, changing nothing", () => {
    const dir = folder();
    const missing = join(dir, "missing.db");
    const empty = join(dir, "empty.db");
    writeFileSync(empty, "");
    const foreign = foreignDatabase(dir);
    const before = { empty: digest(empty), foreign: digest(foreign) };
    for (const [file, what] of [
      [missing, "it does not exist"],
      [empty, "an empty file"],
      [foreign, "another program's database"],
    ] as const) {
      const error = refusal(() => createSqliteStore(file, { create: false }));
      expect(error).toMatchObject({ code: "STORE_ERROR", data: { reason: "not-a-store", file } });
      expect(error.message).toContain(`is not an Obelisk store (${what})`);
    }
    expect(existsSync(missing)).toBe(false);
    expect({ empty: digest(empty), foreign: digest(foreign) }).toEqual(before);
    expect(readdirSync(dir).sort()).toEqual(["app.db", "empty.db"]);
  });

  it("create: false opens a store as usual (writes work)", async () => {
    const file = await storeFile(folder());
    const store = createSqliteStore(file, { create: false });
    await commitOk(store, { callId: "b", writes: [write(["n"], 1)] });
    expect(store.readState(THREAD)).toEqual({ greeting: "hi", n: 1 });
    await store.close();
  });

  it("readonly refuses a store of an older schema version (readonly: it cannot be brought up to date)", async () => {
    const file = await storeFile(folder());
    const db = new BetterSqlite3(file);
    db.exec(
      "ALTER TABLE threads DROP COLUMN version; UPDATE meta SET value = '1' WHERE key = 'schema_version'",
    );
    db.close();
    const before = digest(file);
    const error = refusal(() => createSqliteStore(file, { readonly: true }));
    expect(error).toMatchObject({ code: "STORE_ERROR", data: { reason: "readonly" } });
    expect(error.message).toContain("older version");
    expect(digest(file)).toBe(before);
    // opened with write access (also with create: false), it is brought up to date
    const store = createSqliteStore(file, { create: false });
    expect(store.readState(THREAD)).toEqual({ greeting: "hi" });
    await store.close();
  });

  it("refuses a store of a newer schema version, writable or read-only, leaving it as it was", async () => {
    const file = await storeFile(folder());
    const db = new BetterSqlite3(file);
    // a later schema changed a table's columns: still a newer store, not another program's database
    db.exec(
      "UPDATE meta SET value = '99' WHERE key = 'schema_version'; ALTER TABLE threads ADD COLUMN label TEXT",
    );
    db.close();
    const before = digest(file);
    for (const options of [{}, { readonly: true }, { create: false }] as const) {
      const error = refusal(() => createSqliteStore(file, options));
      // the file's version and the one this build reads, in the message and in data
      expect(error).toMatchObject({
        code: "STORE_ERROR",
        data: { reason: "newer-version", file, fileVersion: 99, readsVersion: 2 },
      });
      expect(error.message).toBe(
        `${file} is a store of schema version 99, newer than this Obelisk reads (2)`,
      );
    }
    expect(digest(file)).toBe(before);
    expect(readdirSync(join(file, ".."))).toEqual(["state.db"]);
  });
});

describe("a store written by an older build (a table added since is missing)", () => {
  it("readonly reads it, the missing table as empty, and leaves the file as it was", async () => {
    const dir = folder();
    const file = await storeFile(dir);
    const db = new BetterSqlite3(file);
    db.exec("DROP TABLE run_calls");
    db.close();
    const before = digest(file);
    const store = createSqliteStore(file, { readonly: true });
    expect(await store.readState(THREAD)).toEqual({ greeting: "hi" });
    expect(await store.listRuns()).toEqual([]);
    await store.close();
    expect(digest(file)).toBe(before);
    // a writable open brings it up to date, as before
    const writable = createSqliteStore(file);
    await writable.close();
    const check = new BetterSqlite3(file, { readonly: true });
    expect(check.prepare("SELECT name FROM sqlite_master WHERE name = 'run_calls'").get()).toBeDefined();
    check.close();
  });
});

describe("reading a store whose -wal holds changes (a writer died without closing)", () => {
  it("readonly leaves the file's bytes and the -wal as they were (no checkpoint at close)", async () => {
    const file = await storeFile(folder());
    // a writer that exits without closing: its changes stay in the -wal, not yet in the file
    const writer = `const D=require("better-sqlite3");const db=new D(${JSON.stringify(file)});db.pragma("wal_autocheckpoint=0");db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('note', 'x')").run();process.exit(0);`;
    execFileSync(process.execPath, ["-e", writer], { cwd: import.meta.dirname });
    const wal = `${file}-wal`;
    const before = { file: digest(file), wal: digest(wal) };
    expect(readFileSync(wal).length).toBeGreaterThan(0);
    const store = createSqliteStore(file, { readonly: true });
    expect(await store.readState(THREAD)).toEqual({ greeting: "hi" });
    await store.close();
    expect({ file: digest(file), wal: digest(wal) }).toEqual(before);
  });
});

describe("a store whose folder does not exist", () => {
  it("is refused with STORE_ERROR reason no-folder and a hint to create the folder; nothing is created", () => {
    const dir = join(folder(), "missing", "deeper");
    let error: unknown;
    try {
      createSqliteStore(join(dir, "state.db"));
    } catch (caught) {
      error = caught;
    }
    expect(ObeliskError.is(error, "STORE_ERROR")).toBe(true);
    expect(error).toMatchObject({
      message: expect.stringContaining("does not exist"),
      hint: expect.stringContaining("create the folder first"),
      data: { reason: "no-folder" },
    });
    expect(existsSync(dir)).toBe(false);
  });
});
