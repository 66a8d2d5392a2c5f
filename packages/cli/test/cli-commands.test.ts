import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type CliResult,
  example,
  expectOneLineError,
  fixture,
  inProcess,
  inProcessJson,
  obelisk,
  obeliskInterrupted,
  obeliskJson,
  tempDir,
} from "./cli-harness.js";

type Json = Record<string, unknown>;

const greetingPlan = example("greeting", "plan.json");
const greetingTools = example("greeting", "tools.ts");
const shoutPlan = fixture("shout-plan.json");
const jsTools = fixture("tools.js");
// biome-ignore lint/suspicious/noControlCharactersInRegex: looks for ANSI colour codes
const ANSI_COLOUR = /\x1b\[\d+m/;

/** Every command and subcommand of SPEC §10. */
const COMMANDS = [
  [],
  ["validate"],
  ["run"],
  ["graph"],
  ["schema"],
  ["state"],
  ["state", "summary"],
  ["state", "get"],
  ["state", "set"],
  ["state", "unset"],
  ["state", "reset"],
  ["state", "keep"],
  ["state", "delete"],
  ["state", "vacuum"],
  ["runs"],
  ["runs", "list"],
  ["runs", "show"],
  ["runs", "prune"],
  ["runs", "cancel"],
  ["threads"],
  ["threads", "list"],
  ["resume"],
];

/** Asserts the one JSON document of a failure: `{ "error": { "code", "message", "hint"?, "data"? } }` and nothing else. */
function expectErrorDocument(result: CliResult & { json: Json }, exitCode: number, code: string): void {
  expectOneLineError(result, exitCode);
  expect(Object.keys(result.json)).toEqual(["error"]);
  const error = result.json.error as Record<string, unknown>;
  expect(error).toMatchObject({ code, message: expect.any(String) });
  for (const key of Object.keys(error)) expect(["code", "message", "hint", "data"]).toContain(key);
  if ("hint" in error) expect(error.hint).toEqual(expect.any(String));
  expect((result.json.error as { message: string }).message).not.toContain("\n");
}

describe.concurrent("obelisk: every command", { timeout: 180_000 }, () => {
  it("has --help on every command and subcommand (exit 0, usage on stdout)", async () => {
    const cwd = tempDir();
    const results = await Promise.all(COMMANDS.map((path) => inProcess([...path, "--help"], cwd)));
    results.forEach((result, i) => {
      const path = ["obelisk", ...(COMMANDS[i] ?? [])].join(" ");
      expect(result.code, path).toBe(0);
      expect(result.stdout, path).toContain(`Usage: ${path}`);
      expect(result.stdout, path).toContain("-h, --help");
      expect(result.stderr, path).toBe("");
    });
    const leaves = results.filter(
      (_, i) => !["", "state", "runs", "threads"].includes((COMMANDS[i] ?? []).join(" ")),
    );
    for (const result of leaves) expect(result.stdout).toContain("--format <format>");
    const help = await inProcess(["help", "run"], cwd);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: obelisk run");
  });

  it("state reset --help says what reset does: completed calls are forgotten, run history stays", async () => {
    const cwd = tempDir();
    const [reset, state] = await Promise.all([
      inProcess(["state", "reset", "--help"], cwd),
      inProcess(["state", "--help"], cwd),
    ]);
    for (const help of [reset, state]) {
      const text = help.stdout.replace(/\s+/g, " "); // commander wraps long descriptions
      expect(text).toContain("forget its completed calls (a re-sent plan runs again)");
      expect(text).not.toContain("call records stay");
    }
  });

  it("a command group without its subcommand is a usage error", async () => {
    const cwd = tempDir();
    for (const group of ["state", "runs"]) {
      const result = await inProcessJson([group], cwd);
      expectErrorDocument(result, 2, "USAGE");
    }
  });

  it("prints exactly one JSON document for every failure, with the exit code of SPEC §10", async () => {
    const cwd = tempDir();
    const missing = join(cwd, "missing.json");
    const cases: [string, string[], number, string][] = [
      ["validate: missing plan", ["validate", missing, "--tools", greetingTools], 2, "USAGE"],
      ["run: tools module throws", ["run", greetingPlan, "--tools", fixture("throws.mjs")], 2, "USAGE"],
      ["run: no default export", ["run", greetingPlan, "--tools", fixture("no-default.mjs")], 2, "USAGE"],
      ["run: tools not a module", ["run", greetingPlan, "--tools", greetingPlan], 2, "USAGE"],
      ["graph: missing --tools", ["graph", greetingPlan], 2, "USAGE"],
      ["graph: bad --as", ["graph", greetingPlan, "--tools", greetingTools, "--as", "png"], 2, "USAGE"],
      ["schema: unknown flag", ["schema", "--tools", greetingTools, "--nope"], 2, "USAGE"],
      ["state summary: unknown store", ["state", "summary", "--store", "redis://x"], 2, "USAGE"],
      ["state summary: bad --last", ["state", "summary", "--last", "-1"], 2, "USAGE"],
      [
        "state get: not stored",
        ["state", "get", "--store", "memory", "--ref", "†state.x"],
        1,
        "REF_UNRESOLVED",
      ],
      ["state get: malformed --ref", ["state", "get", "--store", "memory", "--ref", "stat.x"], 2, "USAGE"],
      ["state get: missing --ref", ["state", "get", "--store", "memory"], 2, "USAGE"],
      ["state set: read-only kind", ["state", "set", "--ref", "†input.x", "--value", "1"], 2, "USAGE"],
      [
        "state set: forbidden segment",
        ["state", "set", "--ref", "†state.__proto__.x", "--value", "1"],
        2,
        "USAGE",
      ],
      ["state set: malformed --value", ["state", "set", "--ref", "†state.x", "--value", "{x"], 2, "USAGE"],
      [
        "state set: a number JSON cannot hold",
        ["state", "set", "--ref", "†state.x", "--value", "1e999"],
        2,
        "USAGE",
      ],
      ["state unset: missing --ref", ["state", "unset", "--store", "memory"], 2, "USAGE"],
      [
        "state unset: read-only kind",
        ["state", "unset", "--store", "memory", "--ref", "†calls.c"],
        2,
        "USAGE",
      ],
      ["state reset: empty sqlite file", ["state", "reset", "--store", "sqlite:"], 2, "USAGE"],
      ["state keep: missing --last", ["state", "keep"], 2, "USAGE"],
      ["runs list: bad --limit", ["runs", "list", "--limit", "0"], 2, "USAGE"],
      ["runs prune: neither --keep nor --older-than", ["runs", "prune", "--store", "memory"], 2, "USAGE"],
      ["state delete: missing --thread", ["state", "delete", "--store", "memory"], 2, "USAGE"],
      ["runs show: unknown run", ["runs", "show", "no-such-run", "--store", "memory"], 2, "RUN_NOT_FOUND"],
      [
        "resume: unknown run",
        ["resume", "no-such-run", "--tools", greetingTools, "--store", "memory"],
        2,
        "RUN_NOT_FOUND",
      ],
      ["resume: missing run id", ["resume", "--tools", greetingTools], 2, "USAGE"],
    ];
    const results = await Promise.all(cases.map(([, args]) => inProcessJson(args, cwd)));
    results.forEach((result, i) => {
      const [label, , exitCode, code] = cases[i] ?? ["", [], 0, ""];
      expect({ label, code: result.code }).toEqual({ label, code: exitCode });
      expectErrorDocument(result, exitCode, code);
    });
    const tooBig = results[cases.findIndex(([label]) => label.includes("JSON cannot hold"))];
    expect(tooBig?.stderr).toContain("--value holds a number out of range (Infinity)");
    // RUN_NOT_FOUND names the id looked up and where the run may be (it read "no run no-such-run"); a
    // memory store's runs list is always empty: the hint names the store file to give (decision 0103)
    for (const label of ["runs show: unknown run", "resume: unknown run"]) {
      const unknown = results[cases.findIndex(([name]) => name === label)];
      expect(unknown?.stderr).toContain(
        `no run "no-such-run" is recorded in the memory store (it holds only this command's runs) (give the store the run was recorded in: --store sqlite:<file>`,
      );
    }
  });

  it("prints exactly one JSON document for every success", async () => {
    const cwd = tempDir();
    const store = ["--store", "sqlite:state/db.sqlite", "--thread", "t"];
    const set = await inProcessJson(
      ["state", "set", ...store, "--ref", "†state.a.b", "--value", '{"n":1}'],
      cwd,
    );
    expect(set.json).toEqual({ ok: true, threadId: "t", ref: "†state.a.b", value: { n: 1 } });
    await inProcess(["state", "set", ...store, "--ref", "†state.c", "--value", '"text"'], cwd);
    const summary = await inProcessJson(["state", "summary", ...store], cwd);
    expect(summary.code).toBe(0);
    expect(JSON.stringify(summary.json)).toContain("†state.c");
    const get = await inProcessJson(["state", "get", ...store, "--ref", "†state.a"], cwd);
    expect(get.json).toMatchObject({ found: true, value: { b: { n: 1 } } });
    const page = await inProcessJson(
      ["state", "get", ...store, "--ref", "†state.c", "--offset", "1", "--limit", "2"],
      cwd,
    );
    expect(page.json).toMatchObject({ found: true, text: "ex", offset: 1, total: 4 });
    await inProcess(["state", "set", ...store, "--ref", "†state.approvals.go", "--value", "true"], cwd);
    const unset = await inProcessJson(["state", "unset", ...store, "--ref", "†state.approvals.go"], cwd);
    expect(unset.json).toEqual({
      ok: true,
      threadId: "t",
      ref: "†state.approvals.go",
      removed: true,
      variables: ["†state.approvals.go"],
    });
    const keep = await inProcessJson(["state", "keep", ...store, "--last", "1"], cwd);
    expect(keep.json).toEqual({ ok: true, threadId: "t", kept: 1 });
    const kept = await inProcessJson(["state", "get", ...store, "--ref", "†state.a.b"], cwd);
    expect(kept.code).toBe(1);
    const reset = await inProcessJson(["state", "reset", ...store], cwd);
    expect(reset.json).toEqual({ ok: true, threadId: "t" });
    const runs = await inProcessJson(["runs", "list", ...store.slice(0, 2)], cwd);
    expect(runs.json).toEqual({ runs: [] });
    const schema = await inProcessJson(["schema", "--tools", jsTools], cwd);
    expect(schema.json).toMatchObject({
      $schema: expect.stringContaining("json-schema.org"),
      type: "object",
    });
    expect(JSON.stringify(schema.json)).toContain('"const":"shout"');
    const graph = await inProcessJson(
      ["graph", shoutPlan, "--tools", jsTools, "--input", '{"word":"x"}', ...store],
      cwd,
    );
    expect(graph.json).toEqual({ as: "mermaid", ok: true, graph: expect.stringContaining("loud") });
    // without --input the input is unknown (a plan is approved before its inputs exist): nothing to resolve
    const noInput = await inProcessJson(["graph", shoutPlan, "--tools", jsTools, ...store], cwd);
    expect(noInput.code).toBe(0);
    expect(noInput.json).toMatchObject({ ok: true });
    const emptyInput = await inProcessJson(
      ["graph", shoutPlan, "--tools", jsTools, "--as", "dot", "--input", "{}", ...store],
      cwd,
    );
    expect(emptyInput.code).toBe(1);
    expect(emptyInput.json).toMatchObject({
      as: "dot",
      ok: false,
      graph: expect.stringContaining("digraph"),
      diagnostics: [{ code: "REF_UNRESOLVED", pointer: "/plan/0/text" }],
    });
    expect(existsSync(join(cwd, "state/db.sqlite"))).toBe(true);
    expect(existsSync(join(cwd, ".obelisk"))).toBe(false);
  });

  it("state get pages strings by characters, says when a page is empty and when a value is not paged", async () => {
    const cwd = tempDir();
    const store = ["--store", "sqlite:state/db.sqlite", "--thread", "t"];
    await inProcess(["state", "set", ...store, "--ref", "†state.e", "--value", '"😀😀😀 naïve"'], cwd);
    await inProcess(["state", "set", ...store, "--ref", "†state.n", "--value", "7"], cwd);
    const emoji = await inProcess(
      ["state", "get", ...store, "--ref", "†state.e", "--offset", "1", "--limit", "2"],
      cwd,
    );
    expect(emoji.stdout).toContain("😀😀\n");
    expect(emoji.stdout).toContain("characters 1–2 of 9");
    const past = await inProcess(["state", "get", ...store, "--ref", "†state.e", "--offset", "20"], cwd);
    expect(past.code).toBe(0);
    expect(past.stdout).toContain(
      "†state.e: --offset 20 is past the end: it holds 9 characters (--offset 0 to 8)",
    );
    // objects page by keys (test/state-get.test.ts); a number has nothing to page
    const number = await inProcess(["state", "get", ...store, "--ref", "†state.n", "--limit", "1"], cwd);
    expect(number.code).toBe(2);
    expect(number.stderr).toContain("USAGE");
    expect(number.stderr).toContain("arrays (items), objects (keys) and strings (characters)");
  });

  it("the commands a text output suggests name the thread and the store it used", async () => {
    const cwd = tempDir();
    const store = ["--store", "sqlite:state/db.sqlite", "--thread", "t"];
    const ran = await inProcessJson(
      ["run", shoutPlan, "--tools", jsTools, "--input", '{"word":"x"}', ...store],
      cwd,
    );
    const runId = (ran.json as { runId: string }).runId;
    const summary = await inProcess(["state", "summary", ...store], cwd);
    expect(summary.stdout).toMatch(
      /obelisk state get --ref <reference> .*--thread t --store sqlite:state\/db\.sqlite/,
    );
    const shown = await inProcess(["runs", "show", runId, "--store", "sqlite:state/db.sqlite"], cwd);
    expect(shown.stdout).toContain(`obelisk runs show ${runId} --store sqlite:state/db.sqlite --format json`);
    const other = `sha256:${"0".repeat(64)}`;
    const refused = await inProcessJson(
      ["run", shoutPlan, "--tools", jsTools, "--input", '{"word":"x"}', "--approved", other, ...store],
      cwd,
    );
    expect(refused.code).toBe(1);
    expect(JSON.stringify(refused.json)).toContain(other);
    expect(JSON.stringify(refused.json)).toMatch(/the plan's hash sha256:[0-9a-f]{64}/);
    // a value that is no plan hash is a bad flag value (review-cli 12); the bare digits get a hint
    const hash = (refused.json as { error: { message: string } }).error.message.match(
      /sha256:([0-9a-f]{64})/,
    )?.[1];
    const malformed = ["sha256:abc", "abc", String(hash), `SHA256:${String(hash).toUpperCase()}`].map(
      (approved) =>
        inProcessJson(
          ["run", shoutPlan, "--tools", jsTools, "--input", '{"word":"x"}', "--approved", approved, ...store],
          cwd,
        ),
    );
    const [short, word, bare, upper] = await Promise.all(malformed);
    for (const result of [short, word, bare, upper])
      expectErrorDocument(result as CliResult & { json: Json }, 2, "USAGE");
    expect(JSON.stringify(bare?.json)).toContain(`add the sha256: prefix: sha256:${hash}`);
    // an upper-case prefix is there: the hint says what is wrong (it said to add the prefix)
    expect(JSON.stringify(upper?.json)).toContain(`a plan hash is written in lower case: sha256:${hash}`);
  });

  it("resume of a run whose plan no longer compiles prints its diagnostics, as run does (exit 1)", async () => {
    const cwd = tempDir();
    const store = ["--store", "sqlite:state/db.sqlite"];
    const ran = await inProcessJson(
      ["run", shoutPlan, "--tools", jsTools, "--input", '{"word":"x"}', ...store],
      cwd,
    );
    const runId = (ran.json as { runId: string }).runId;
    const otherTools = example("greeting", "tools.ts");
    const json = await inProcessJson(["resume", runId, "--tools", otherTools, ...store], cwd);
    expect(json.code).toBe(1);
    expect(json.json).toMatchObject({ ok: false, diagnostics: [{ code: "TOOL_UNKNOWN" }] });
    const text = await inProcess(["resume", runId, "--tools", otherTools, ...store], cwd);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain("TOOL_UNKNOWN");
    expect(text.stdout).toContain("the plan was not run");
  });

  it("--fail-fast aborts the calls in flight at the first failure; --concurrency is checked", async () => {
    const cwd = tempDir();
    const args = [
      "run",
      fixture("fail-fast-plan.json"),
      "--tools",
      fixture("tools.mjs"),
      "--store",
      "memory",
    ];
    const result = await inProcessJson([...args, "--fail-fast", "--concurrency", "2"], cwd);
    expect(result.code).toBe(1);
    // Without --fail-fast the waiting call would end only at its 20 s timeout, as failed (TIMEOUT).
    expect(result.json).toMatchObject({
      status: "failed",
      calls: { boom: { status: "failed" }, waits: { status: "cancelled" } },
    });
    for (const bad of ["0", "-2", "1.5", "many"]) {
      expectErrorDocument(await inProcessJson([...args, "--concurrency", bad], cwd), 2, "USAGE");
    }
  });

  it("Ctrl-C cancels the run: calls in flight are aborted, the run is recorded as cancelled (exit 1); a busy thread is refused", async () => {
    const cwd = tempDir();
    const tools = fixture("tools.mjs");
    const args = ["run", fixture("interrupt-plan.json"), "--tools", tools, "--thread", "i"];
    let busy: (CliResult & { json: Json }) | undefined;
    const result = await obeliskInterrupted(args, cwd, "start  waits", async () => {
      // Meanwhile the thread is locked: a second run on it is refused at once.
      busy = await inProcessJson(
        ["run", shoutPlan, "--tools", jsTools, "--thread", "i", "--input", '{"word":"x"}'],
        cwd,
      );
    });
    expect(busy?.code).toBe(1);
    // scripts that retry read who holds the thread from data, not from the message
    expect(busy?.json).toEqual({
      error: {
        code: "THREAD_BUSY",
        message: expect.any(String),
        hint: expect.any(String),
        data: expect.objectContaining({ threadId: "i", holder: expect.any(Object) }),
      },
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stdout).toMatch(/^Run cancelled in \S+ m?s — 2 cancelled$/m);
    expect(result.stdout).toMatch(/^ {2}waits +waitForAbort +⊝ cancelled/m);
    const runId = /run ([\w-]+)\)$/m.exec(result.stdout)?.[1];
    expect(result.stdout).toContain(`finish what is left:     obelisk resume ${runId} --tools ${tools}`);
    const runs = await inProcessJson(["runs", "list"], cwd);
    expect(runs.json.runs).toEqual([expect.objectContaining({ runId, status: "cancelled" })]);
  });

  it("keeps what a tools module logs off stdout in json format", async () => {
    const cwd = tempDir();
    const args = [
      "run",
      fixture("chatty-plan.json"),
      "--tools",
      fixture("chatty-tools.mjs"),
      "--store",
      "memory",
    ];
    const json = await obeliskJson(args, cwd);
    expect(json.code).toBe(0);
    expect(json.json).toMatchObject({ status: "succeeded", state: { chat: { text: "hello" } } });
    expect(json.stderr).toContain("chatty tools module loaded");
    expect(json.stderr).toContain("chat says hello");
    const schema = await obeliskJson(["schema", "--tools", fixture("chatty-tools.mjs")], cwd);
    expect(schema.json).toMatchObject({ type: "object" });
    const text = await obelisk(args, cwd);
    expect(text.stdout).toContain("chat says hello");
  });

  it("keeps a tools module's own process.stdout.write off stdout in json format", async () => {
    const cwd = tempDir();
    const tools = ["--tools", fixture("writing-tools.mjs")];
    const args = ["run", fixture("writing-plan.json"), ...tools, "--store", "memory"];
    const json = await obeliskJson(args, cwd);
    expect(json.code).toBe(0);
    expect(json.json).toMatchObject({ status: "succeeded", state: { scribble: { text: "hello" } } });
    for (const line of [
      "raw write on import",
      "raw write says hello",
      "raw write with an encoding",
      "raw write of a buffer",
    ])
      expect(json.stderr).toContain(line);
    const [validate, schema, failed] = await Promise.all([
      obeliskJson(["validate", fixture("writing-plan.json"), ...tools], cwd),
      obeliskJson(["schema", ...tools], cwd),
      obeliskJson(["run", fixture("writing-plan.json"), ...tools, "--store", "redis://x"], cwd),
    ]);
    expect(validate.json).toMatchObject({ ok: true });
    expect(schema.json).toMatchObject({ type: "object" });
    expect(failed.code).toBe(2);
    expect(failed.json).toEqual({ error: { code: "USAGE", message: expect.any(String) } });
    const text = await obelisk(args, cwd);
    expect(text.stdout).toContain("raw write says hello");
  });

  it("runs an invalid plan as one JSON document of diagnostics (exit 1), nothing run", async () => {
    const cwd = tempDir();
    const args = ["run", example("broken-plan", "plan.json"), "--tools", example("broken-plan", "tools.ts")];
    const result = await inProcessJson(args, cwd);
    expect(result.code).toBe(1);
    expect(result.json).toMatchObject({ ok: false, planHash: expect.stringMatching(/^sha256:/) });
    expect((result.json.diagnostics as unknown[]).length).toBeGreaterThan(10);
    const runs = await inProcessJson(["runs", "list"], cwd);
    expect(runs.json).toEqual({ runs: [] });
  });

  it("locates the diagnostics of a plan the run refuses (line:column, source line, caret), with or without --input", async () => {
    const cwd = tempDir();
    const plan = example("data-analysis", "plan.json");
    const args = ["run", plan, "--tools", example("data-analysis", "tools.ts"), "--store", "memory"];
    const [without, withInput] = await Promise.all([
      inProcess(args, cwd),
      inProcess([...args, "--input", "{}"], cwd),
    ]);
    for (const result of [without, withInput]) {
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(`${plan}:8:16: error REF_UNRESOLVED: nothing writes †input.count`);
      expect(result.stdout).toContain(
        '  8 |       "count": "†input.count",\n    |                ^~~~~~~~~~~~~~',
      );
      expect(result.stdout).not.toContain("(at /plan/0/count)");
    }
    // the same but for the hints: without --input they say none was given (decision 0090), and the verdict
    // blames the missing input, not the plan (decision 0103)
    const hintless = (stdout: string) =>
      stdout.replace(/^ {2}hint: .*$/gm, "").replace("✗ input is missing:", "✗ plan is invalid:");
    expect(hintless(without.stdout)).toBe(hintless(withInput.stdout));
    expect(without.stdout).toContain("✗ input is missing: 4 errors, 0 warnings");
    expect(withInput.stdout).toContain("hint: the run's input has no value there");
    expect(without.stdout).toContain(
      `hint: no --input was given, so the run's input is empty: give it, e.g. --input '{"count": …, "seed": …, "minAmount": …}' (or --input <file.json>)`,
    );
    // a resumed run whose recorded plan no longer compiles: located in the recorded plan as printed
    const store = ["--store", "sqlite:s.db"];
    const ran = await inProcessJson(
      ["run", shoutPlan, "--tools", jsTools, "--input", '{"word":"x"}', ...store],
      cwd,
    );
    const runId = (ran.json as { runId: string }).runId;
    const resumed = await inProcess(
      ["resume", runId, "--tools", example("greeting", "tools.ts"), ...store],
      cwd,
    );
    expect(resumed.code).toBe(1);
    expect(resumed.stdout).toMatch(new RegExp(`^run ${runId}:\\d+:\\d+: error TOOL_UNKNOWN`, "m"));
  });

  it("loads a plain .js tools module; --input takes inline JSON or a file, a plain object or an Input message", async () => {
    const cwd = tempDir();
    const base = ["run", shoutPlan, "--tools", jsTools, "--store", "memory"];
    const inputs: [string, string][] = [
      ['{"word":"plain"}', "PLAIN"],
      ['  {"type":"input","input":{"word":"message"}}', "MESSAGE"],
      [fixture("shout-input.json"), "FROM A FILE"],
    ];
    const results = await Promise.all(
      inputs.map(([input]) => inProcessJson([...base, "--input", input], cwd)),
    );
    results.forEach((result, i) => {
      expect(result.code).toBe(0);
      expect(result.json).toMatchObject({ status: "succeeded", state: { loud: inputs[i]?.[1] } });
    });
    writeFileSync(join(cwd, "relative.json"), '{ "word": "relative" }');
    const relative = await inProcessJson([...base, "--input", "relative.json"], cwd);
    expect(relative.json).toMatchObject({ state: { loud: "RELATIVE" } });
    for (const bad of ["[1,2]", '"text"', "nope.json", "{ word: 1 }"]) {
      expectErrorDocument(await inProcessJson([...base, "--input", bad], cwd), 2, "USAGE");
    }
  });

  it("loads TypeScript tools modules through tsx: .mts as an ES module, .cts as CommonJS", async () => {
    const cwd = tempDir();
    const run = (tools: string) =>
      obeliskJson(
        ["run", shoutPlan, "--tools", fixture(tools), "--store", "memory", "--input", '{"word":"ts"}'],
        cwd,
      );
    const [esm, commonJs] = await Promise.all([run("shout-tools.mts"), run("shout-tools.cts")]);
    expect(esm.json).toMatchObject({ status: "succeeded", state: { loud: "TS!" } });
    expect(commonJs.json).toMatchObject({ status: "succeeded", state: { loud: "TS" } });
  });

  it("loads a .cts tools module that requires obelisk, an ES module package (consumer review 1)", async () => {
    const result = await obeliskJson(
      [
        "run",
        shoutPlan,
        "--tools",
        fixture("obelisk-tools.cts"),
        "--store",
        "memory",
        "--input",
        '{"word":"cts"}',
      ],
      tempDir(),
    );
    expect(result.json).toMatchObject({ status: "succeeded", state: { loud: "CTS" } });
  });

  it("keeps state in sqlite:<file> between processes; memory forgets it", async () => {
    const cwd = tempDir();
    const file = join(cwd, "nested", "dir", "state.db");
    const store = ["--store", `sqlite:${file}`];
    const run = await obelisk(
      ["run", shoutPlan, "--tools", jsTools, ...store, "--input", '{"word":"kept"}'],
      cwd,
    );
    expect(run.code).toBe(0);
    expect(existsSync(file)).toBe(true);
    // read by the test's process: the run's process is gone
    const get = await inProcessJson(["state", "get", "--ref", "†state.loud", ...store], cwd);
    expect(get.json).toMatchObject({ found: true, value: "KEPT" });
    const memory = await inProcessJson(["state", "get", "--ref", "†state.loud", "--store", "memory"], cwd);
    expect(memory.code).toBe(1);
    const runs = await inProcessJson(["runs", "list", ...store], cwd);
    expect(runs.json.runs).toEqual([expect.objectContaining({ status: "succeeded", threadId: "default" })]);
  });

  it("prints the key lines of validate, run and runs show in text", async () => {
    const cwd = tempDir();
    const args = [greetingPlan, "--tools", greetingTools, "--input", '{"userName":"Ada"}'];
    const valid = await inProcess(["validate", ...args, "--thread", "t"], cwd);
    expect(valid.code).toBe(0);
    expect(valid.stdout).toContain("✓ plan is valid");
    expect(valid.stdout).toMatch(/plan hash sha256:[0-9a-f]{64}/);
    expect(valid.stdout).toContain("graph     1 call, 0 dependencies, 1 can start at once");
    expect(valid.stdout).toContain("greetUser$1 (greetUser) → †state.greeting");
    const hash = /plan hash (sha256:[0-9a-f]{64})/.exec(valid.stdout)?.[1];
    expect(valid.stdout).toContain(
      `approve and run it with: obelisk run ${greetingPlan} --tools ${greetingTools} --input '{"userName":"Ada"}' --thread t --approved ${hash}`,
    );
    const run = await inProcess(["run", ...args, "--thread", "t", "--approved", String(hash)], cwd);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Running 1 call on thread t \(plan sha256:[0-9a-f]{12}…, run [\w-]+\)$/m);
    expect(run.stdout).toMatch(/^ {2}▶ start {2}greetUser\$1$/m);
    expect(run.stdout).toMatch(/^ {2}✓ succeeded greetUser\$1 \S+ m?s$/m);
    expect(run.stdout).toMatch(/^Run succeeded in \S+ m?s — 1 succeeded$/m);
    expect(run.stdout).toMatch(/^ {2}call +tool +status +time +wrote \/ reason$/m);
    expect(run.stdout).toContain("inspect what was stored: obelisk state summary --thread t");
    const runId = /run ([\w-]+)\)$/m.exec(run.stdout)?.[1];
    const shown = await inProcess(["runs", "show", String(runId)], cwd);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^Run succeeded in \S+ m?s — 1 call record$/m);
    expect(shown.stdout).toContain('input {"userName":"Ada"}');
    expect(shown.stdout).toMatch(/greetUser\$1 +greetUser +✓ succeeded +1 +†state\.greeting/);
    const list = await inProcess(["runs", "list"], cwd);
    expect(list.stdout).toMatch(new RegExp(`${runId} +t +succeeded`));
    const resumed = await inProcess(["resume", String(runId), "--tools", greetingTools], cwd);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/^ {2}= satisfied greetUser\$\d+$/m);
    expect(resumed.stdout).toMatch(/^Run succeeded in \S+ m?s — 1 satisfied$/m);
    // the resume's first line names the run it resumes (run-start's resumeOf)
    expect(resumed.stdout).toMatch(
      new RegExp(
        `^Running 1 call on thread t \\(plan sha256:[0-9a-f]{12}…, run [\\w-]+, resumes ${runId}\\)$`,
        "m",
      ),
    );
    const summary = await inProcess(["state", "summary", "--thread", "t"], cwd);
    expect(summary.stdout).toMatch(
      /^Thread t: 1 variable, newest first\. \d+ characters describe \d+ B of data\.$/m,
    );
    expect(summary.stdout).toContain("### †state.greeting");
  });

  it("uses colours only when asked for or on a terminal, and never with NO_COLOR", async () => {
    const cwd = tempDir();
    const args = [
      "validate",
      example("broken-plan", "plan.json"),
      "--tools",
      example("broken-plan", "tools.ts"),
    ];
    const [plain, forced, both] = await Promise.all([
      obelisk(args, cwd, { NO_COLOR: "" }),
      obelisk(args, cwd, { NO_COLOR: "", FORCE_COLOR: "1" }),
      obelisk(args, cwd, { NO_COLOR: "1", FORCE_COLOR: "1" }),
    ]);
    expect(plain.stdout).toContain("error TOOL_UNKNOWN");
    expect(plain.stdout).not.toContain("\x1b");
    expect(forced.stdout).toMatch(ANSI_COLOUR);
    expect(both.stdout).not.toContain("\x1b");
    const failed = await obelisk(
      ["run", fixture("failing-plan.json"), "--tools", fixture("tools.mjs"), "--store", "memory"],
      cwd,
      {
        NO_COLOR: "",
      },
    );
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain("Run failed");
    expect(failed.stdout).not.toContain("\x1b");
  });
});
