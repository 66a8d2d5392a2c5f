import { spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ObeliskError } from "@obelisk/core";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { refusedWriteError } from "./internal/sqlite-errors.js";
import { createSqliteStore } from "./sqlite-store.js";

const dir = mkdtempSync(join(tmpdir(), "obelisk-side-files-"));
chmodSync(dir, 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;

const SERVICE = { uid: 1000, gid: 1000 };
/** An operator of the service's group: another user, the service's group. */
const OPERATOR = { uid: 65534, gid: 1000 };
const isRoot = process.getuid?.() === 0;

const source = fileURLToPath(new URL("./sqlite-store.ts", import.meta.url));
const sqlite = createRequire(import.meta.url).resolve("better-sqlite3");
/**
 * A child: `write` takes the thread's lock and records a run, `read` lists the runs, `stale` reads raw and
 * dies, `hold` reads, says `ready` and closes when its input ends; `later` opens, says `ready`, and writes
 * when its input ends (opening again if the first open failed).
 */
const CHILD = `
import BetterSqlite3 from ${JSON.stringify(sqlite)};
import { createSqliteStore } from ${JSON.stringify(source)};
const [role, file] = process.argv.slice(2);
if (role === "stale") {
  const db = new BetterSqlite3(file, { readonly: true });
  db.prepare("SELECT count(*) FROM runs").get();
  process.exit(0); // killed while reading: nothing closes the connection
}
const described = (error) =>
  ({ name: error.constructor.name, code: error.code, message: error.message, hint: error.hint, data: error.data });
// a short wait for another user's side files to go: a holder closes only when told
const open = () => createSqliteStore(file, { busyTimeoutMs: 20 });
const write = async (store) => {
  // as a run does: the thread's lock first, then the run's record
  const lease = await store.lockThread("t");
  await store.createRun({ runId: "run-" + Date.now() + "-" + Math.random(), threadId: "t", planHash: "p",
    status: "running", startedAt: new Date(0).toISOString() });
  await lease.release();
};
const result = {};
let store;
if (role === "hold" || role === "later") {
  try {
    store = open();
    if (role === "hold") result.runs = (await store.listRuns()).length;
  } catch (error) {
    result.openError = described(error);
  }
  console.log("ready");
  for await (const _ of process.stdin);
}
try {
  store ??= open();
  if (role === "read") result.runs = (await store.listRuns()).length;
  if (role === "write" || role === "later") {
    await write(store);
    result.written = true;
  }
} catch (error) {
  result.error = described(error);
}
await store?.close();
console.log(JSON.stringify(result));
`;

const childArgs = (role: string, file: string): string[] => {
  const script = join(dir, `child-${++counter}.mts`);
  writeFileSync(script, CHILD, { mode: 0o644 });
  return ["--conditions=@obelisk/source", "--import", "tsx", script, role, file];
};

/** Runs the child as `who` in the shared folder; its JSON answer. */
function asUser(
  who: { uid: number; gid: number },
  role: "write" | "read" | "stale",
  file: string,
): Record<string, unknown> {
  const child = spawnSync(process.execPath, childArgs(role, file), {
    ...who,
    encoding: "utf8",
    timeout: 60_000,
  });
  if (child.status !== 0) throw new Error(`child ${role} failed (${child.status}): ${child.stderr}`);
  return role === "stale" ? {} : (JSON.parse(child.stdout) as Record<string, unknown>);
}

/** A `hold` or `later` child as `who`, once ready: `close` ends its input, then resolves to its answer. */
async function holding(
  who: { uid: number; gid: number },
  role: "hold" | "later",
  file: string,
): Promise<{ close: () => Promise<Record<string, unknown>> }> {
  const child = spawn(process.execPath, childArgs(role, file), {
    ...who,
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = "";
  const exited = new Promise<Record<string, unknown>>((resolve) =>
    child.on("exit", () => resolve(JSON.parse(out.replace("ready\n", "")) as Record<string, unknown>)),
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      out += String(chunk);
      if (out.startsWith("ready\n")) resolve();
    });
    child.on("exit", (status) => reject(new Error(`${role} child exited (${status}): ${out}`)));
  });
  return {
    close: () => {
      child.stdin.end();
      return exited;
    },
  };
}

/** A setgid folder shared by the service's group (mode 2775) holding the service's store (644). */
function sharedStore(): { folder: string; file: string } {
  const folder = mkdtempSync(join(dir, "shared-"));
  chownSync(folder, SERVICE.uid, SERVICE.gid);
  chmodSync(folder, 0o2775);
  const file = join(folder, "state.db");
  expect(asUser(SERVICE, "write", file)).toEqual({ written: true });
  return { folder, file };
}

/**
 * Each case spawns up to five Node processes that load better-sqlite3 (~1 s each alone, 4–5 s a case):
 * under the whole suite on 2 cores one passed vitest's 30 s (stop 29's CI, twice).
 */
const CHILD_PROCESS_CASES = { timeout: 240_000 };

describe.runIf(isRoot)(
  "a store in a group-shared folder (two users, needs root)",
  CHILD_PROCESS_CASES,
  () => {
    it("an operator's read leaves no -wal/-shm behind, and the service writes afterwards", () => {
      const { folder, file } = sharedStore();
      expect(readdirSync(folder)).toEqual(["state.db"]);
      expect(asUser(OPERATOR, "read", file)).toEqual({ runs: 1 });
      expect(readdirSync(folder)).toEqual(["state.db"]);
      expect(asUser(SERVICE, "write", file)).toEqual({ written: true });
    });

    it("side files another user left make the service's open for writing STORE_ERROR naming the file and its owner", () => {
      const { file } = sharedStore();
      asUser(OPERATOR, "stale", file);
      expect(existsSync(`${file}-shm`)).toBe(true);
      const { error } = asUser(SERVICE, "write", file) as { error: Record<string, unknown> };
      expect(error).toMatchObject({
        name: "ObeliskError",
        code: "STORE_ERROR",
        data: { reason: "side-file", file, owner: OPERATOR.uid },
      });
      expect([`${file}-wal`, `${file}-shm`]).toContain((error.data as { sideFile: string }).sideFile);
      expect(error.hint).toEqual(expect.stringContaining(`${file}-shm`));
      // the hint's remedy works
      rmSync(`${file}-wal`);
      rmSync(`${file}-shm`);
      expect(asUser(SERVICE, "write", file)).toEqual({ written: true });
    });
  },
);

describe.runIf(isRoot)(
  "a store in a group-shared folder, read while the service opens it (needs root)",
  CHILD_PROCESS_CASES,
  () => {
    it("the service never keeps a connection that cannot write: its open waits for the read, or fails, never sticks", async () => {
      const { folder, file } = sharedStore();
      const reader = await holding(OPERATOR, "hold", file);
      expect(existsSync(`${file}-shm`)).toBe(true);
      // opened now, a connection could read but never write, even after the reader removed its files
      const service = await holding(SERVICE, "later", file);
      expect(await reader.close()).toEqual({ runs: 1 });
      expect(readdirSync(folder)).toEqual(["state.db"]);
      expect(await service.close()).toEqual({
        openError: expect.objectContaining({
          code: "STORE_ERROR",
          data: expect.objectContaining({ reason: "side-file", owner: OPERATOR.uid }),
        }),
        written: true,
      });
    });
  },
);

describe.skipIf(isRoot)("a store in a group-shared folder (two users)", () => {
  it.skip("SKIPPED: runs child processes as two users (uid 1000, 65534), which needs root", () => undefined);
});

describe("a write SQLite refuses", () => {
  /** A real SQLITE_READONLY: a write through a read-only connection to a WAL store with both side files. */
  function refusedWrite(): { file: string; error: unknown; close: () => void } {
    const file = join(dir, `refused-${++counter}.db`);
    const store = createSqliteStore(file);
    const reader = new BetterSqlite3(file, { readonly: true });
    reader.prepare("SELECT count(*) FROM runs").get();
    let error: unknown;
    try {
      reader.exec("DELETE FROM runs");
    } catch (thrown) {
      error = thrown;
    }
    return {
      file,
      error,
      close: () => {
        reader.close();
        void store.close();
      },
    };
  }

  it("is STORE_ERROR naming a side file this process may not write, with its owner and a hint", () => {
    const { file, error, close } = refusedWrite();
    expect(String((error as { code?: unknown }).code)).toMatch(/^SQLITE_READONLY/);
    const mapped = refusedWriteError(file, "commit", error, (path) => !path.endsWith("-shm"));
    close();
    expect(ObeliskError.is(mapped)).toBe(true);
    expect(mapped).toMatchObject({
      code: "STORE_ERROR",
      cause: error,
      data: { reason: "side-file", file, sideFile: `${file}-shm`, owner: process.getuid?.() },
    });
    expect(mapped.message).toContain(`${file}-shm`);
    expect(mapped.hint).toContain(`remove ${file}-shm`);
  });

  it("is STORE_ERROR reason readonly (never a raw SQLite error) when the side files are writable", () => {
    const { file, error, close } = refusedWrite();
    const mapped = refusedWriteError(file, "commit", error, () => true);
    close();
    expect(mapped).toMatchObject({ code: "STORE_ERROR", data: { reason: "readonly", file } });
    expect(mapped.hint).toBeDefined();
  });
});
