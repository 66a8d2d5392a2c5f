import { createHash } from "node:crypto";
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  expectOneLineError,
  fixture,
  inProcess,
  inProcessJson,
  obelisk,
  ROOT,
  tempDir,
} from "./cli-harness.js";

const shoutPlan = fixture("shout-plan.json");
const jsTools = fixture("tools.js");
const digest = (file: string): string => createHash("sha256").update(readFileSync(file)).digest("hex");

/** better-sqlite3, as the state package has it (to make another program's database). */
const Sqlite = createRequire(join(ROOT, "packages/state/package.json"))("better-sqlite3") as new (
  file: string,
) => { exec(sql: string): void; close(): void };

/** Every command that reads a store without creating one, on `store` (validate and graph with tools). */
function commandsOn(store: string, thread = "default"): string[][] {
  const at = ["--store", store, "--thread", thread];
  return [
    ["state", "summary", ...at],
    ["state", "get", "--ref", "†state.x", ...at],
    ["state", "unset", "--ref", "†state.x", ...at],
    ["state", "reset", ...at],
    ["state", "keep", "--last", "1", ...at],
    ["state", "delete", ...at],
    ["state", "vacuum", "--store", store],
    ["runs", "list", "--store", store],
    ["runs", "show", "some-run", "--store", store],
    ["runs", "prune", "--keep", "1", "--store", store],
    ["validate", shoutPlan, "--tools", jsTools, ...at],
    ["graph", shoutPlan, "--tools", jsTools, ...at],
  ];
}

/** The commands that write a store (and create it when missing), on `store`. */
function writeCommandsOn(store: string): string[][] {
  const at = ["--store", store];
  return [
    ["run", shoutPlan, "--tools", jsTools, "--input", '{"word":"x"}', ...at],
    ["resume", "some-run", "--tools", jsTools, ...at],
    ["state", "set", "--ref", "†state.x", "--value", "1", ...at],
  ];
}

/** Runs every command in `cwd`: each ends in one USAGE error line (exit 2) saying `message`, `hint` on stderr. */
async function expectUsageRefusals(
  commands: string[][],
  cwd: string,
  message: string,
  hint?: string,
): Promise<void> {
  const results = await Promise.all(commands.map((args) => inProcessJson(args, cwd)));
  results.forEach((result, i) => {
    expectOneLineError(result, 2);
    expect(result.json, commands[i]?.join(" ")).toEqual({
      error: expect.objectContaining({ code: "USAGE", message: expect.stringContaining(message) }),
    });
    if (hint !== undefined) expect(result.stderr).toContain(hint);
  });
}

describe.concurrent("obelisk: which commands create a store file", { timeout: 180_000 }, () => {
  it("commands that read refuse a --store file that does not exist, naming it, and create nothing", async () => {
    const cwd = tempDir();
    const store = ["--store", "sqlite:sub/typo.db"];
    const commands = [
      ["state", "get", "--ref", "†state.x", ...store],
      ["state", "summary", ...store],
      ["state", "unset", "--ref", "†state.x", ...store],
      ["state", "reset", ...store],
      ["state", "keep", "--last", "1", ...store],
      ["state", "delete", "--thread", "t", ...store],
      ["state", "vacuum", ...store],
      ["runs", "list", ...store],
      ["runs", "show", "some-run", ...store],
      ["runs", "prune", "--keep", "0", ...store],
    ];
    const results = await Promise.all(commands.map((args) => inProcessJson(args, cwd)));
    results.forEach((result, i) => {
      expectOneLineError(result, 2);
      expect(result.json, commands[i]?.join(" ")).toEqual({
        error: {
          code: "USAGE",
          message: expect.stringContaining("store file sub/typo.db does not exist"),
          hint: expect.stringContaining("check --store (nothing was created)"),
        },
      });
      expect(result.stderr).toContain("(check --store (nothing was created)");
    });
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("validate and graph read a missing --store file as an empty thread, with a warning, and create nothing", async () => {
    const cwd = tempDir();
    const args = [shoutPlan, "--tools", jsTools, "--store", "sqlite:typo.db", "--thread", "t"];
    const [validate, graph] = await Promise.all([
      inProcessJson(["validate", ...args], cwd),
      inProcess(["graph", ...args], cwd),
    ]);
    expect(validate.code).toBe(0);
    expect(validate.json).toMatchObject({ ok: true });
    expect(validate.stderr).toBe(
      "warning: store file typo.db does not exist: validating against an empty thread\n",
    );
    expect(graph.code).toBe(0);
    expect(graph.stderr).toContain("store file typo.db does not exist");
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("in a fresh directory the default store reads as empty (no runs, no variables) and is not created", async () => {
    const cwd = tempDir();
    const [runs, runsJson, summary, get, show, validate, reset] = await Promise.all([
      inProcess(["runs", "list"], cwd),
      inProcessJson(["runs", "list"], cwd),
      inProcess(["state", "summary"], cwd),
      inProcessJson(["state", "get", "--ref", "†state.x"], cwd),
      inProcessJson(["runs", "show", "some-run"], cwd),
      inProcess(["validate", shoutPlan, "--tools", jsTools], cwd),
      inProcess(["state", "reset"], cwd),
    ]);
    expect(runs).toMatchObject({ code: 0, stdout: "no runs recorded\n", stderr: "" });
    expect(runsJson.json).toEqual({ runs: [] });
    expect(summary).toMatchObject({ code: 0, stdout: "thread default holds no variables\n", stderr: "" });
    expect(get.code).toBe(1);
    expect(get.json).toMatchObject({ error: { code: "REF_UNRESOLVED" } });
    expect(show.code).toBe(2);
    expect(show.json).toMatchObject({ error: { code: "RUN_NOT_FOUND" } });
    expect(validate).toMatchObject({ code: 0, stderr: "" });
    expect(reset.code).toBe(0);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("refuses a file that is not an Obelisk store (another program's database, an empty file), leaving it as it was (exit 2)", async () => {
    const cwd = tempDir();
    const app = new Sqlite(join(cwd, "app.db"));
    app.exec(
      "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users (name) VALUES ('ada')",
    );
    app.close();
    writeFileSync(join(cwd, "empty.db"), "");
    const before = { app: digest(join(cwd, "app.db")), empty: digest(join(cwd, "empty.db")) };
    for (const [file, what] of [
      ["app.db", "another program's database"],
      ["empty.db", "an empty file"],
    ]) {
      await expectUsageRefusals(commandsOn(`sqlite:${file}`), cwd, `is not an Obelisk store (${what})`);
    }
    expect({ app: digest(join(cwd, "app.db")), empty: digest(join(cwd, "empty.db")) }).toEqual(before);
    expect(readdirSync(cwd).sort()).toEqual(["app.db", "empty.db"]);
  });

  it("run, resume and state set refuse another program's database too (exit 2), leaving it byte for byte as it was", async () => {
    const cwd = tempDir();
    const databases = {
      // no table of the store's names: the library would add its tables beside these; the CLI refuses
      "app.db":
        "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users (name) VALUES ('ada')",
      // tables of the store's names with other columns: this used to fail half way, the file half converted
      "clash.db": "CREATE TABLE threads (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE runs (x)",
      // a meta table with a schema_version row does not make an older store: this used to gain the store's
      // tables (meta.db) or have its threads table altered before failing (meta-clash.db)
      "meta.db":
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('schema_version', '7'); CREATE TABLE users (id INTEGER)",
      "meta-clash.db":
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('schema_version', '7'); CREATE TABLE threads (thread_id TEXT, other TEXT)",
    };
    for (const [file, sql] of Object.entries(databases)) {
      const app = new Sqlite(join(cwd, file));
      app.exec(sql);
      app.close();
    }
    const digests = () => Object.keys(databases).map((file) => digest(join(cwd, file)));
    const before = digests();
    for (const file of Object.keys(databases)) {
      await expectUsageRefusals(
        writeCommandsOn(`sqlite:${file}`),
        cwd,
        "is not an Obelisk store (another program's database)",
        "(check --store (the file was left as it was)",
      );
    }
    expect(digests()).toEqual(before);
    expect(readdirSync(cwd).sort()).toEqual(["app.db", "clash.db", "meta-clash.db", "meta.db"]);
  });

  it("every command refuses a file SQLite cannot read (random bytes) with a hint, leaving it as it was (exit 2)", async () => {
    const cwd = tempDir();
    const file = join(cwd, "broken.db");
    writeFileSync(file, Buffer.alloc(8192, 7));
    const before = digest(file);
    await expectUsageRefusals(
      [...commandsOn("sqlite:broken.db"), ...writeCommandsOn("sqlite:broken.db")],
      cwd,
      "broken.db is not a SQLite database, or a damaged one (SQLite: ",
      "(restore the file from a backup, or use another file",
    );
    expect(digest(file)).toBe(before);
    expect(readdirSync(cwd)).toEqual(["broken.db"]);
  });

  it("commands that read leave a store byte for byte as it was, also with a --thread it does not hold", async () => {
    const cwd = tempDir();
    const store = "sqlite:s.db";
    const ran = await inProcess(
      ["run", shoutPlan, "--tools", jsTools, "--input", '{"word":"x"}', "--store", store],
      cwd,
    );
    expect(ran.code).toBe(0);
    const before = digest(join(cwd, "s.db"));
    const reads = commandsOn(store, "typo").filter(
      ([, sub]) => !["unset", "reset", "keep", "delete", "vacuum", "prune"].includes(sub ?? ""),
    );
    const results = await Promise.all(reads.map((args) => inProcess(args, cwd)));
    // summary, get (REF_UNRESOLVED), runs list, runs show (RUN_NOT_FOUND), validate, graph
    expect(results.map((result) => result.code)).toEqual([0, 1, 0, 2, 0, 0]);
    expect(results[0]?.stdout).toBe("thread typo holds no variables\n");
    expect(digest(join(cwd, "s.db"))).toBe(before);
    expect(readdirSync(cwd)).toEqual(["s.db"]);
  });

  it("refused commands create no store file, no directory and no thread row (review-cli 6)", async () => {
    const cwd = tempDir();
    const at = (store: string): string[] => ["--store", `sqlite:${store}`];
    const run = ["run", shoutPlan, "--tools", jsTools, "--input", '{"word":"x"}'];
    const refused: [string[], number][] = [
      [["state", "set", "--ref", "†state.a", "--value", "{bad", ...at("value/s.db")], 2],
      [["state", "set", "--ref", "†state.a", "--value", "1e999", ...at("huge/s.db")], 2],
      [["run", fixture("malformed.json"), "--tools", jsTools, ...at("invalid/s.db")], 1],
      [[...run, "--approved", `sha256:${"0".repeat(64)}`, ...at("approved/s.db")], 1],
      [
        [
          ...run.slice(0, -1),
          '{"type":"input","input":{"word":1},"schema":{"properties":{"word":{"type":"string"}}}}',
          ...at("input/s.db"),
        ],
        1,
      ],
      [["resume", "no-such-run", "--tools", jsTools, ...at("resume/s.db")], 2],
    ];
    const results = await Promise.all(refused.map(([args]) => inProcess(args, cwd)));
    expect(results.map((result) => result.code)).toEqual(refused.map(([, code]) => code));
    expect(readdirSync(cwd)).toEqual([]);
    // on an existing store, a refused run on a mistyped thread does not add that thread
    expect((await inProcess([...run, ...at("s.db")], cwd)).code).toBe(0);
    const before = digest(join(cwd, "s.db"));
    const ghosts = await Promise.all([
      inProcess(
        ["run", fixture("malformed.json"), "--tools", jsTools, ...at("s.db"), "--thread", "ghost1"],
        cwd,
      ),
      inProcess([...run, "--approved", `sha256:${"0".repeat(64)}`, ...at("s.db"), "--thread", "ghost2"], cwd),
    ]);
    expect(ghosts.map((result) => result.code)).toEqual([1, 1]);
    expect(digest(join(cwd, "s.db"))).toBe(before);
  });

  it("run and resume check an empty store file as an empty store: refused, it stays empty; valid, its warnings are printed (review-cli2 3)", async () => {
    const cwd = tempDir();
    const empty = (name: string): string[] => {
      writeFileSync(join(cwd, name), "");
      return ["--store", `sqlite:${name}`];
    };
    const run = ["run", shoutPlan, "--tools", jsTools, "--input", '{"word":"x"}'];
    const refused = await Promise.all([
      inProcess(["run", fixture("malformed.json"), "--tools", jsTools, ...empty("invalid.db")], cwd),
      inProcess([...run, "--approved", `sha256:${"0".repeat(64)}`, ...empty("approved.db")], cwd),
      inProcess(["resume", "no-such-run", "--tools", jsTools, ...empty("resume.db")], cwd),
    ]);
    expect(refused.map((result) => result.code)).toEqual([1, 1, 2]);
    for (const name of ["invalid.db", "approved.db", "resume.db"])
      expect(readFileSync(join(cwd, name))).toHaveLength(0);
    const warned = await inProcess(
      ["run", fixture("suspicious-plan.json"), "--tools", jsTools, ...empty("warn.db")],
      cwd,
    );
    expect(warned.code).toBe(0);
    expect(warned.stdout).toMatch(/warning REF_SUSPICIOUS[\s\S]*plan is valid \(1 warning\)[\s\S]*^Running/m);
  });

  it("tools the engine refuses are refused before the store is opened: no file, no directory (review-cli2 3)", async () => {
    const cwd = tempDir();
    const tools = fixture("bad-concurrency-tools.mjs");
    const results = await Promise.all([
      inProcess(
        ["run", shoutPlan, "--tools", tools, "--input", '{"word":"x"}', "--store", "sqlite:a/s.db"],
        cwd,
      ),
      inProcess(["resume", "some-run", "--tools", tools, "--store", "sqlite:b/s.db"], cwd),
    ]);
    for (const result of results) {
      expectOneLineError(result, 2);
      expect(result.stderr).toContain("concurrency must be a positive number");
    }
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("run and state set create the store (and its directory); parallel first runs share the default one", async () => {
    const cwd = tempDir();
    const set = await inProcess(
      ["state", "set", "--ref", "†state.approvals.go", "--value", "true", "--store", "sqlite:new/s.db"],
      cwd,
    );
    expect(set.code).toBe(0);
    expect(existsSync(join(cwd, "new", "s.db"))).toBe(true);
    // three processes create the default store at once (the first open of a fresh file used to fail
    // now and then with "database is locked")
    const runs = await Promise.all(
      ["a", "b", "c"].map((thread) =>
        obelisk(["run", shoutPlan, "--tools", jsTools, "--input", '{"word":"x"}', "--thread", thread], cwd),
      ),
    );
    for (const run of runs) expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
    const list = await inProcessJson(["runs", "list"], cwd);
    expect((list.json.runs as unknown[]).length).toBe(3);
  });

  it("reads a store file this user may not write (read-only directory); a write is refused with STORE_ERROR", async () => {
    const cwd = tempDir();
    chmodSync(cwd, 0o755);
    const store = ["--store", "sqlite:ro/state.db"];
    const run = await inProcess(
      ["run", shoutPlan, "--tools", jsTools, "--input", '{"word":"kept"}', ...store],
      cwd,
    );
    expect(run.code).toBe(0);
    const file = join(cwd, "ro", "state.db");
    const before = digest(file);
    chmodSync(file, 0o444);
    chmodSync(join(cwd, "ro"), 0o555);
    // root may write any file: as root, read as `nobody`, for whom the file really is read-only
    const reader = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;
    try {
      const as = (args: string[]) => obelisk([...args, "--format", "json"], cwd, {}, reader);
      const [list, get, summary, set, unset, again, remove, prune, vacuum] = await Promise.all([
        as(["runs", "list", ...store]),
        as(["state", "get", "--ref", "†state.loud", ...store]),
        as(["state", "summary", ...store]),
        as(["state", "set", "--ref", "†state.loud", "--value", '"changed"', ...store]),
        as(["state", "unset", "--ref", "†state.loud", ...store]),
        as(["run", shoutPlan, "--tools", jsTools, "--input", '{"word":"again"}', ...store]),
        as(["state", "delete", "--thread", "default", ...store]),
        as(["runs", "prune", "--keep", "0", ...store]),
        as(["state", "vacuum", ...store]),
      ]);
      expect(list.code).toBe(0);
      expect(JSON.parse(list.stdout)).toMatchObject({ runs: [{ status: "succeeded" }] });
      expect(JSON.parse(get.stdout)).toMatchObject({ found: true, value: "KEPT" });
      expect(summary.code).toBe(0);
      for (const refused of [set, unset, again, remove, prune, vacuum]) {
        expectOneLineError(refused, 1);
        expect(JSON.parse(refused.stdout)).toEqual({
          error: expect.objectContaining({
            code: "STORE_ERROR",
            message: expect.stringContaining("is read-only"),
          }),
        });
      }
      expect(digest(file)).toBe(before);
    } finally {
      chmodSync(join(cwd, "ro"), 0o755);
    }
  });
});
