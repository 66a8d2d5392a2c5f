import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectOneLineError, fixture, inProcess, inProcessJson, tempDir } from "./cli-harness.js";

type Json = Record<string, unknown>;

const tools = fixture("tools.js");
const cwd = tempDir();
/** A plan that asks for more retries than the default limit (10) allows. */
const retryPlan = join(cwd, "retry-plan.json");
writeFileSync(
  retryPlan,
  '[{ "_tool": "shout", "_id": "loud", "text": "hi", "_retry": { "attempts": 20 }, "_outputPath": "†state.loud" }]\n',
);
const raised = ["--limits", "maxRetryAttempts=20"];

/** The first `attempts` schema in a plan JSON Schema (the `_retry` of a call). */
function attemptsSchema(value: unknown): Json | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const attempts = (value as Json).attempts;
  if (typeof attempts === "object" && attempts !== null && "maximum" in attempts) return attempts as Json;
  for (const child of Object.values(value)) {
    const found = attemptsSchema(child);
    if (found !== undefined) return found;
  }
  return undefined;
}

describe.concurrent("--limits <name=n,…> sets the engine's limits", { timeout: 120_000 }, () => {
  it("validate: a plan over the default limit is PLAN_LIMIT with a hint naming the flag; with the flag it is valid", async () => {
    const text = await inProcess(["validate", retryPlan, "--tools", tools], cwd);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/retry-plan\.json:1:\d+: error PLAN_LIMIT/);
    expect(text.stdout).toContain(
      "hint: lower it, or raise maxRetryAttempts; with the CLI: --limits maxRetryAttempts=<n> (now 10)",
    );
    const json = await inProcessJson(["validate", retryPlan, "--tools", tools], cwd);
    expect(json.code).toBe(1);
    // the json diagnostic keeps its fields; its hint says the same as the text
    expect(json.json.diagnostics).toEqual([
      {
        code: "PLAN_LIMIT",
        severity: "error",
        message: expect.any(String),
        pointer: "/0/_retry/attempts",
        callId: "loud",
        hint: "lower it, or raise maxRetryAttempts; with the CLI: --limits maxRetryAttempts=<n> (now 10)",
        // where `pointer` is in the plan file, as text prints it (decision 0090)
        line: 1,
        column: 75,
      },
    ]);
    const valid = await inProcess(["validate", retryPlan, "--tools", tools, ...raised], cwd);
    expect(valid.code).toBe(0);
    // the suggested run command has the limits it needs
    expect(valid.stdout).toMatch(
      /approve and run it with: obelisk run .* --limits maxRetryAttempts=20 --approved/,
    );
  });

  it("run, graph and resume take the flag; resume needs it again to compile the recorded plan", async () => {
    const dir = tempDir();
    const refused = await inProcessJson(["run", retryPlan, "--tools", tools], dir);
    expect(refused.code).toBe(1);
    expect(refused.json).toMatchObject({ ok: false, diagnostics: [{ code: "PLAN_LIMIT" }] });
    const ran = await inProcessJson(["run", retryPlan, "--tools", tools, ...raised], dir);
    expect(ran.code).toBe(0);
    expect(ran.json).toMatchObject({ status: "succeeded", state: { loud: "HI" } });
    const graph = await inProcessJson(["graph", retryPlan, "--tools", tools], dir);
    expect(graph.code).toBe(1);
    expect(graph.json).toMatchObject({
      ok: false,
      diagnostics: [{ hint: expect.stringContaining("--limits") }],
    });
    expect((await inProcess(["graph", retryPlan, "--tools", tools, ...raised], dir)).code).toBe(0);
    // its warning's validate command keeps the limits given
    const still = await inProcess(["graph", retryPlan, "--tools", tools, "--limits", "maxDepth=100"], dir);
    expect(still.stderr).toContain(
      `see obelisk validate ${retryPlan} --tools ${tools} --limits maxDepth=100\n`,
    );
    const runId = (ran.json as { runId: string }).runId;
    const resumeText = await inProcess(["resume", runId, "--tools", tools], dir);
    expect(resumeText.code).toBe(1);
    expect(resumeText.stdout).toContain("with the CLI: --limits maxRetryAttempts=<n> (now 10)");
    const resumed = await inProcessJson(["resume", runId, "--tools", tools, ...raised], dir);
    expect(resumed.code).toBe(0);
    expect(resumed.json).toMatchObject({ status: "succeeded", calls: { loud: { status: "satisfied" } } });
  });

  it("schema holds _retry to the limits given", async () => {
    const standard = await inProcessJson(["schema", "--tools", tools], cwd);
    expect(attemptsSchema(standard.json)).toMatchObject({ maximum: 10 });
    const more = await inProcessJson(["schema", "--tools", tools, "--limits", "maxRetryAttempts=20"], cwd);
    expect(attemptsSchema(more.json)).toMatchObject({ maximum: 20 });
  });

  it("state set and --input are held to maxValueBytes, refused with a hint naming the flag; a later --limits wins", async () => {
    const dir = tempDir();
    const set = [
      "state",
      "set",
      "--store",
      "sqlite:s.db",
      "--ref",
      "†state.note",
      "--value",
      '"a longer note"',
    ];
    expect((await inProcessJson(set, dir)).code).toBe(0);
    const small = await inProcessJson(
      [...set, "--limits", "maxValueBytes=100000", "--limits", "maxValueBytes=8"],
      dir,
    );
    expectOneLineError(small, 2);
    expect(small.json).toEqual({
      error: {
        code: "USAGE",
        message:
          "†state.note: the value is larger than 8 bytes of JSON (limits.maxValueBytes) (raise the limit: --limits maxValueBytes=<n> (now 8))",
        hint: "raise the limit: --limits maxValueBytes=<n> (now 8)",
      },
    });
    // refused before the store is opened: a store file that is not there is not created
    const fresh = tempDir();
    expectOneLineError(await inProcessJson([...set, "--limits", "maxValueBytes=8"], fresh), 2);
    expect(existsSync(join(fresh, "s.db"))).toBe(false);
    expect((await inProcessJson([...set, "--limits", "maxDepth=100,maxValueBytes=100000"], dir)).code).toBe(
      0,
    );
    const input = ["--input", '{"word":"more than ten bytes"}', "--limits", "maxValueBytes=10"];
    for (const command of ["validate", "run"]) {
      const refused = await inProcessJson(
        [command, fixture("shout-plan.json"), "--tools", tools, ...input],
        dir,
      );
      expectOneLineError(refused, 2);
      expect((refused.json.error as Json).message).toContain(
        "store it with obelisk state set (or a tool) and read it with †state; or raise the limit: --limits maxValueBytes=<n> (now 10)",
      );
    }
  });

  it("state's --ref is held to maxPathDepth: --limits lowers it for set (exit 2 before the store is opened)", async () => {
    const dir = tempDir();
    const set = ["state", "set", "--store", "sqlite:s.db", "--ref", "†state.a.b.c", "--value", "1"];
    const lowered = await inProcessJson([...set, "--limits", "maxPathDepth=2"], dir);
    expectOneLineError(lowered, 2);
    expect((lowered.json.error as Json).message).toContain(
      "--ref †state.a.b.c: path is deeper than the limit of 2 segments [PLAN_LIMIT] (use a path with fewer segments, or raise maxPathDepth; with the CLI: --limits maxPathDepth=<n> (now 2))",
    );
    expect(existsSync(join(dir, "s.db"))).toBe(false);
    expect((await inProcessJson([...set, "--limits", "maxPathDepth=3"], dir)).code).toBe(0);
    // the default (32) where no --limits is taken, with the same exit code
    const deep = `†state${".x".repeat(33)}`;
    const read = await inProcessJson(["state", "get", "--store", "sqlite:s.db", "--ref", deep], dir);
    expectOneLineError(read, 2);
    expect((read.json.error as Json).message).toContain("limit of 32 segments [PLAN_LIMIT]");
  });

  it("a value written deeper than 32 segments with raised limits is read, summarized and taken back with them", async () => {
    const dir = tempDir();
    const store = ["--store", "sqlite:s.db"];
    const deep = `†state${".x".repeat(40)}`;
    const raised = ["--limits", "maxPathDepth=64"];
    const set = ["state", "set", ...store, "--ref", deep, "--value", "7", ...raised];
    expect((await inProcessJson(set, dir)).code).toBe(0);
    const got = await inProcessJson(["state", "get", ...store, "--ref", deep, ...raised], dir);
    expect([got.code, got.json.value]).toEqual([0, 7]);
    const summary = await inProcessJson(["state", "summary", ...store, "--ref", deep, ...raised], dir);
    expect(summary.code).toBe(0);
    expect(JSON.stringify(summary.json)).toContain(".x.x.x");
    const unset = await inProcessJson(["state", "unset", ...store, "--ref", deep, ...raised], dir);
    expect([unset.code, unset.json.removed]).toEqual([0, true]);
    const gone = await inProcessJson(["state", "get", ...store, "--ref", deep, ...raised], dir);
    expect([gone.code, (gone.json.error as Json).code]).toEqual([1, "REF_EVICTED"]);
  });

  it("the document size limit is also what is read of a plan file: raised, a larger plan is read whole", async () => {
    const dir = tempDir();
    const plan = join(dir, "padded-plan.json");
    // 17 MiB: over the default limit (16 MiB), of which no more than that is read
    writeFileSync(plan, `[{ "_tool": "shout", "text": "hi" }]${" ".repeat(17 * 1024 * 1024)}`);
    const over = await inProcessJson(["validate", plan, "--tools", tools], dir);
    expect(over.code).toBe(1);
    expect(over.json).toMatchObject({
      diagnostics: [
        { code: "PLAN_LIMIT", hint: expect.stringContaining("--limits maxDocumentBytes=<n> (now 16777216)") },
      ],
    });
    const within = await inProcessJson(
      ["validate", plan, "--tools", tools, "--limits", "maxDocumentBytes=33554432"],
      dir,
    );
    expect(within.code).toBe(0);
    const lowered = await inProcess(
      ["validate", retryPlan, "--tools", tools, "--limits", "maxDocumentBytes=50"],
      dir,
    );
    expect(lowered.code).toBe(1);
    expect(lowered.stdout).toContain("--limits maxDocumentBytes=<n> (now 50)");
  });

  it("an unknown limit or a value that is no positive whole number is a usage error (exit 2), creating nothing", async () => {
    const dir = tempDir();
    const cases: [string[], string][] = [
      [
        ["validate", retryPlan, "--tools", tools, "--limits", "maxDeph=100"],
        'unknown limit maxDeph (did you mean "maxDepth"?)',
      ],
      [
        ["run", retryPlan, "--tools", tools, "--limits", "depth=100"],
        "unknown limit depth (limits: maxDocumentBytes, maxCalls, ",
      ],
      [["graph", retryPlan, "--tools", tools, "--limits", "maxDepth"], "expected <name>=<n>"],
      [["schema", "--tools", tools, "--limits", "maxDepth=100,"], "expected <name>=<n>"],
      [
        ["resume", "r", "--tools", tools, "--limits", "maxCalls=0"],
        "limit maxCalls must be a whole number from 1 to",
      ],
      [
        ["run", retryPlan, "--tools", tools, "--limits", "maxCalls=-1"],
        "limit maxCalls must be a whole number",
      ],
      [
        ["run", retryPlan, "--tools", tools, "--limits", "maxCalls=1.5"],
        "limit maxCalls must be a whole number",
      ],
      [
        ["run", retryPlan, "--tools", tools, "--limits", "maxCalls=many"],
        "limit maxCalls must be a whole number",
      ],
      [
        ["run", retryPlan, "--tools", tools, "--limits", "maxCalls=9007199254740992"],
        'got "9007199254740992"',
      ],
      [
        ["state", "set", "--ref", "†state.a", "--value", "1", "--limits", "maxValueByte=9"],
        'did you mean "maxValueBytes"?',
      ],
    ];
    const results = await Promise.all(cases.map(([args]) => inProcessJson(args, dir)));
    results.forEach((result, at) => {
      const [args, message] = cases[at] as [string[], string];
      expectOneLineError(result, 2);
      expect({ args, message: (result.json.error as Json).message }).toEqual({
        args,
        message: expect.stringContaining(message),
      });
    });
    expect(existsSync(join(dir, ".obelisk"))).toBe(false);
  });

  it("--limit stays the page size of state get and runs list; --limits on runs list is refused with where it goes", async () => {
    const dir = tempDir();
    const store = ["--store", "sqlite:s.db"];
    await inProcess(["state", "set", ...store, "--ref", "†state.list", "--value", "[1,2,3,4]"], dir);
    const page = await inProcessJson(
      ["state", "get", ...store, "--ref", "†state.list", "--offset", "1", "--limit", "2"],
      dir,
    );
    expect(page.json).toMatchObject({ found: true, items: [2, 3], offset: 1, limit: 2, total: 4 });
    expect((await inProcessJson(["runs", "list", ...store, "--limit", "1"], dir)).code).toBe(0);
    const limits = await inProcess(["runs", "list", ...store, "--limits", "maxDepth=3"], dir);
    expectOneLineError(limits, 2);
    expect(limits.stderr).toContain(
      "unknown option '--limits': this command takes no engine limits (validate, run, graph, schema, resume and state set, get, unset and summary do)",
    );
    for (const args of [
      ["state", "get", ...store, "--ref", "†state.list", "--limit", "maxDepth=3"],
      ["runs", "list", ...store, "--limit", "maxDepth=3"],
    ]) {
      const limit = await inProcess(args, dir);
      expectOneLineError(limit, 2);
      expect(limit.stderr).toContain(
        "--limit <n> is the page size; engine limits are set with --limits <name>=<n>",
      );
    }
  });
});
