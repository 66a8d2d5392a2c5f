import { spawnSync } from "node:child_process";
import { closeSync, existsSync, ftruncateSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  BIN,
  example,
  expectOneLineError,
  fixture,
  inProcess,
  inProcessJson,
  obelisk,
  obeliskSpawned,
  tempDir,
} from "./cli-harness.js";

const cwd = tempDir();
const greetingTools = example("greeting", "tools.ts");
const greetingPlan = example("greeting", "plan.json");

describe.concurrent("obelisk: help, version and usage errors (exit 2)", { timeout: 120_000 }, () => {
  it("prints the version and help with exit 0", async () => {
    const version = await obelisk(["--version"], cwd);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const help = await inProcess(["--help"], cwd);
    expect(help.code).toBe(0);
    for (const command of ["validate", "run", "graph", "schema", "state", "runs", "resume"]) {
      expect(help.stdout).toContain(command);
    }
  });

  it("prints the version as a JSON document in json format (review-cli 19)", async () => {
    for (const args of [
      ["--format", "json", "--version"],
      ["-V", "--format=json"],
      ["--format", "json", "run", "--version"],
      ["--format", "json", "--version", "--version"],
    ]) {
      const version = await inProcess(args, cwd);
      expect(version.code).toBe(0);
      expect(JSON.parse(version.stdout)).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+$/) });
    }
  });

  it.skipIf(!existsSync("/usr/bin/script"))(
    "a plan from standard input (-) that is a terminal is refused at once with a hint, not waited for",
    () => {
      // `script` gives the command a pseudo-terminal as its stdin; before, validate waited until killed
      const command = `node ${BIN} validate - --tools ${greetingTools}`;
      const result = spawnSync("/usr/bin/script", ["-qec", command, "/dev/null"], {
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(result.status).toBe(2);
      expect(result.stdout).toContain("the plan is read from standard input (-), which is a terminal");
      expect(result.stdout).toContain("pipe or redirect the plan into it");
    },
  );

  it("run --format json prints the plan's warnings on stderr, stdout holding the run result (review-cli 18)", async () => {
    const plan = join(cwd, "suspicious-plan.json");
    writeFileSync(plan, '[{"_tool":"shout","text":"hello †state.x. there","_outputPath":"†state.said"}]');
    const run = await inProcessJson(["run", plan, "--tools", fixture("tools.js"), "--store", "memory"], cwd);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ status: "succeeded" });
    expect(run.stderr).toMatch(/^.*suspicious-plan\.json:1:\d+: warning REF_SUSPICIOUS: /m);
  });

  it("graph of a plan with errors points at the validate command that works, --tools included (review-cli 19)", async () => {
    const plan = join(cwd, "half-plan.json");
    writeFileSync(plan, '[{"_tool":"shout","text":"a","_outputPath":"†state.a"},{"_tool":"nope"}]');
    const tools = fixture("tools.js");
    const graph = await inProcess(["graph", plan, "--tools", tools], cwd);
    expect(graph.code).toBe(1);
    expect(graph.stderr).toContain(`see obelisk validate ${plan} --tools ${tools}\n`);
  });

  it("has --help on subcommands", async () => {
    const run = await inProcess(["run", "--help"], cwd);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("--approved <hash>");
    const set = await inProcess(["state", "set", "--help"], cwd);
    expect(set.code).toBe(0);
    expect(set.stdout).toContain("--value <json>");
  });

  it("rejects an unknown flag and an unknown command with one line", async () => {
    expectOneLineError(
      await inProcess(["validate", greetingPlan, "--tools", greetingTools, "--bogus"], cwd),
      2,
    );
    expectOneLineError(await inProcess(["frobnicate"], cwd), 2);
    expectOneLineError(
      await inProcess(["run", greetingPlan, "--tools", greetingTools, "--concurrency", "0"], cwd),
      2,
    );
  });

  it("takes --format before the command too, and says which command is missing", async () => {
    const before = await inProcess(["--format", "json", "runs", "list", "--store", "memory"], cwd);
    expect(before.code).toBe(0);
    expect(JSON.parse(before.stdout)).toEqual({ runs: [] });
    const equals = await inProcess(["--format=json", "schema", "--tools", greetingTools], cwd);
    expect(JSON.parse(equals.stdout)).toMatchObject({ type: "object" });
    const cases: [string[], string][] = [
      [["--format", "json"], "missing command: see obelisk --help"],
      [["--format", "json", "state"], "missing command: see obelisk state --help"],
      [["state", "--format", "json"], "missing command: see obelisk state --help"],
    ];
    for (const [args, message] of cases) {
      const result = await inProcess(args, cwd);
      expectOneLineError(result, 2);
      expect(JSON.parse(result.stdout), args.join(" ")).toEqual({ error: { code: "USAGE", message } });
    }
    // an unknown command lists the commands there are (decision 0103)
    const unknown = await inProcess(["--format", "json", "frobnicate"], cwd);
    expectOneLineError(unknown, 2);
    const hint =
      "obelisk has: validate, run, graph, schema, state, runs, threads, resume; see obelisk --help";
    expect(JSON.parse(unknown.stdout)).toEqual({
      error: { code: "USAGE", message: `unknown command 'frobnicate' (${hint})`, hint },
    });
    const invalid = await inProcess(["--format", "yaml", "runs", "list", "--store", "memory"], cwd);
    expectOneLineError(invalid, 2);
    expect(invalid.stderr).toContain("Allowed choices are text, json");
  });

  it("says that a help topic is no command, and which commands there are", async () => {
    const unknown = await inProcess(["help", "nothing"], cwd);
    expectOneLineError(unknown, 2);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr).toBe(
      "error [USAGE] unknown command 'nothing' (obelisk has: validate, run, graph, schema, state, runs, threads, resume; see obelisk --help)\n",
    );
    const nested = await inProcessJson(["state", "help", "nothing"], cwd);
    expectOneLineError(nested, 2);
    expect(nested.json).toEqual({
      error: {
        code: "USAGE",
        message: expect.stringMatching(
          /^unknown command 'state nothing' \(obelisk state has: summary, get, /,
        ),
        hint: expect.stringMatching(/^obelisk state has: summary, get, /),
      },
    });
    const known = await inProcess(["help", "state", "get"], cwd);
    expect(known.code).toBe(0);
    expect(known.stdout).toContain("Usage: obelisk state get");
  });

  it("reports usage errors as one JSON document in json format", async () => {
    const result = await inProcessJson(["validate", greetingPlan, "--tools", greetingTools, "--bogus"], cwd);
    expectOneLineError(result, 2);
    expect(result.json).toEqual({ error: { code: "USAGE", message: expect.any(String) } });
    const format = await inProcess(["schema", "--tools", greetingTools, "--format", "yaml"], cwd);
    expectOneLineError(format, 2);
  });

  it("rejects a missing plan file and a missing --tools", async () => {
    const missing = await inProcessJson(["validate", join(cwd, "nope.json"), "--tools", greetingTools], cwd);
    expectOneLineError(missing, 2);
    expect(missing.json).toMatchObject({ error: { code: "USAGE" } });
    expectOneLineError(await inProcess(["validate", greetingPlan], cwd), 2);
    expectOneLineError(await inProcess(["validate", greetingPlan, "--tools", join(cwd, "none.ts")], cwd), 2);
  });

  it("reports a tools module that throws on import, with its message", async () => {
    const result = await inProcess(["schema", "--tools", fixture("throws.mjs")], cwd);
    expectOneLineError(result, 2);
    expect(result.stderr).toContain("this tools module cannot be loaded");
  });

  it("rejects a tools module without a valid default export", async () => {
    expectOneLineError(await inProcess(["schema", "--tools", fixture("no-default.mjs")], cwd), 2);
  });

  it("reads the default export of a CommonJS module (exports.default, export default in a .cts) (review-cli 5)", async () => {
    for (const tools of ["export-default-tools.cts", "exports-default-tools.cjs"]) {
      const run = await inProcessJson(
        [
          "run",
          fixture("shout-plan.json"),
          "--tools",
          fixture(tools),
          "--store",
          "memory",
          "--input",
          '{"word":"hey"}',
        ],
        cwd,
      );
      expect(run.code, tools).toBe(0);
      expect(run.json).toMatchObject({ status: "succeeded" });
    }
  });

  it("loads an object of tools whose one tool is named default (review-cli2 5)", async () => {
    const tools = fixture("default-named-tool.mjs");
    const plan = fixture("default-named-plan.json");
    const run = await inProcessJson(["run", plan, "--tools", tools, "--store", "memory"], cwd);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ status: "succeeded", state: { d: 1 } });
  });

  it("refuses values that are not tools in an object of tools by name (an array is no latent tool) (review-cli 5)", async () => {
    const result = await inProcessJson(["schema", "--tools", fixture("not-tools.mjs")], cwd);
    expectOneLineError(result, 2);
    expect(result.json).toEqual({
      error: {
        code: "USAGE",
        message: expect.stringMatching(/not-tools\.mjs .*\(foo is not a tool: an array\)$/),
      },
    });
    // an undefined value (a tool imported under a wrong name) is "undefined", not "a undefined"
    const missing = await inProcess(["schema", "--tools", fixture("undefined-tool.mjs")], cwd);
    expectOneLineError(missing, 2);
    expect(missing.stderr).toMatch(/undefined-tool\.mjs .*\(verify is not a tool: undefined\)\n$/);
  });

  it("says a tool definition's hint once: an execute key is told to be run (review-runtime 29, 3)", async () => {
    const args = ["schema", "--tools", fixture("execute-tools.mjs")];
    const text = await inProcess(args, cwd);
    expectOneLineError(text, 2);
    expect(text.stderr).toBe('error [USAGE] tool "x": unknown key "execute" (did you mean "run"?)\n');
    const json = await inProcessJson(args, cwd);
    expect(json.json).toEqual({
      error: {
        code: "USAGE",
        message: 'tool "x": unknown key "execute" (did you mean "run"?)',
        hint: 'did you mean "run"?',
      },
    });
  });

  it("warns on stderr when a tools module defines a tool name twice (the later wins), exit unchanged", async () => {
    const tools = fixture("duplicate-tools.mjs");
    const plan = join(cwd, "echo-plan.json");
    writeFileSync(plan, JSON.stringify([{ _tool: "echo", _outputPath: "†state.said" }]));
    const validate = await inProcess(["validate", plan, "--tools", tools], cwd);
    expect(validate.code).toBe(0);
    expect(validate.stderr).toMatch(/^warning \[REGISTRY_DUPLICATE_TOOL\] tool "echo"/m);
    const schema = await inProcessJson(["schema", "--tools", tools], cwd);
    expect(schema.code).toBe(0);
    expect(schema.stderr).toContain("REGISTRY_DUPLICATE_TOOL");
    const run = await inProcessJson(["run", plan, "--tools", tools, "--store", "memory"], cwd);
    expect(run.code).toBe(0);
    expect(JSON.stringify(run.json)).toContain('"said":"second"');
  });

  it("refuses a plan or --input file that is not UTF-8 (no silent U+FFFD), naming the byte", async () => {
    const plan = join(cwd, "latin1-plan.json");
    writeFileSync(
      plan,
      Buffer.from('{"type":"plan","plan":[{"_tool":"greetUser","userName":"Jos\xe9"}]}', "latin1"),
    );
    const refused = await inProcessJson(["validate", plan, "--tools", greetingTools], cwd);
    expectOneLineError(refused, 2);
    expect(refused.json).toMatchObject({ error: { code: "USAGE" } });
    // the 0xE9 of "José" (latin1) is byte 60
    expect(refused.json).toMatchObject({ error: { message: expect.stringContaining("byte 60, 0xE9,") } });
    // a sequence cut short is named by its first byte (review-cli 14): 0xE2 0x82 then "("
    const cut = join(cwd, "cut-plan.json");
    writeFileSync(cut, Buffer.from([0x61, 0x62, 0xe2, 0x82, 0x28]));
    const cutRefused = await inProcessJson(["validate", cut, "--tools", greetingTools], cwd);
    expect(cutRefused.json).toMatchObject({ error: { message: expect.stringContaining("byte 3, 0xE2,") } });
    const input = join(cwd, "latin1-input.json");
    writeFileSync(input, Buffer.from('{"userName":"Jos\xe9"}', "latin1"));
    expectOneLineError(
      await inProcess(["run", greetingPlan, "--tools", greetingTools, "--input", input], cwd),
      2,
    );
  });

  it("reads a plan from standard input given as - (review-cli 7); a pipe given by name says how", async () => {
    const text = readFileSync(greetingPlan, "utf8");
    const validated = await obeliskSpawned(
      ["validate", "-", "--tools", greetingTools, "--format", "json"],
      cwd,
      {
        stdin: text,
      },
    );
    expect(validated.code).toBe(0);
    expect(JSON.parse(validated.stdout)).toMatchObject({ ok: true });
    const args = ["run", "-", "--tools", greetingTools, "--input", '{"userName":"Ada"}', "--store", "memory"];
    const ran = await obeliskSpawned([...args, "--format", "json"], cwd, { stdin: text });
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject({ status: "succeeded" });
    const invalid = await obeliskSpawned(["validate", "-", "--tools", greetingTools], cwd, { stdin: "[1," });
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toMatch(/^<stdin>:1:\d+: error JSON_SYNTAX/m);
    const fifo = await obelisk(["validate", "/dev/stdin", "--tools", greetingTools], cwd);
    expectOneLineError(fifo, 2);
    expect(fifo.stderr).toContain("give - and send it to stdin");
  });

  it("refuses a plan file over the document size limit without reading all of it (review-cli 8)", async () => {
    // sparse: 3 GB on paper, nothing on disk; reading it whole failed (Node reads at most 2 GiB at once)
    const huge = join(cwd, "huge-plan.json");
    const fd = openSync(huge, "w");
    ftruncateSync(fd, 3 * 1024 ** 3);
    closeSync(fd);
    const result = await inProcessJson(["validate", huge, "--tools", greetingTools], cwd);
    rmSync(huge);
    expect(result.code).toBe(1);
    expect(result.json).toMatchObject({ ok: false, diagnostics: [{ code: "PLAN_LIMIT" }] });
  });

  it("a plan over the limit that starts with a byte order mark is PLAN_LIMIT, from a file and from stdin (review-cli2 1)", async () => {
    // the read stops just past the limit, inside the 4-byte character: the text read is valid JSON
    const max = 16 * 1024 * 1024;
    const doc = '{"type":"plan","plan":[]}';
    const text = `\ufeff${doc}${" ".repeat(max - 1 - doc.length)}😀${" trailing garbage".repeat(10)}`;
    const big = join(cwd, "bom-garbage.json");
    writeFileSync(big, text);
    const fromFile = await inProcessJson(["validate", big, "--tools", greetingTools], cwd);
    rmSync(big);
    expect(fromFile.code).toBe(1);
    expect(fromFile.json).toMatchObject({ ok: false, diagnostics: [{ code: "PLAN_LIMIT" }] });
    const args = ["validate", "-", "--tools", greetingTools, "--format", "json"];
    const fromStdin = await obeliskSpawned(args, cwd, { stdin: text });
    expect(fromStdin.code).toBe(1);
    expect(JSON.parse(fromStdin.stdout)).toMatchObject({ ok: false, diagnostics: [{ code: "PLAN_LIMIT" }] });
  });

  it("reads a plan and an --input file that start with a byte order mark (Windows editors write one)", async () => {
    const plan = join(cwd, "bom-plan.json");
    writeFileSync(plan, `\ufeff${readFileSync(greetingPlan, "utf8")}`);
    const input = join(cwd, "bom-input.json");
    writeFileSync(input, '\ufeff{"userName":"Ada"}');
    const checked = await inProcessJson(["validate", plan, "--tools", greetingTools, "--input", input], cwd);
    expect(checked.code).toBe(0);
    expect(checked.json).toMatchObject({ ok: true });
  });

  it("says what is wrong with an empty --input, a directory as input or tools, an unknown module extension", async () => {
    const empty = await inProcessJson(["run", greetingPlan, "--tools", greetingTools, "--input", ""], cwd);
    expectOneLineError(empty, 2);
    expect(JSON.stringify(empty.json)).toContain("--input is empty");
    const dirInput = await inProcessJson(
      ["run", greetingPlan, "--tools", greetingTools, "--input", "."],
      cwd,
    );
    expect(JSON.stringify(dirInput.json)).toContain("--input is not a file");
    const dirTools = await inProcessJson(["validate", greetingPlan, "--tools", "."], cwd);
    expectOneLineError(dirTools, 2);
    expect(JSON.stringify(dirTools.json)).toContain("tools module is not a file");
    const text = join(cwd, "tools.txt");
    writeFileSync(text, "export default []");
    const extension = await inProcessJson(["validate", greetingPlan, "--tools", text], cwd);
    expect(JSON.stringify(extension.json)).toContain(".mts");
    const huge = await inProcessJson(
      ["run", greetingPlan, "--tools", greetingTools, "--concurrency", "99999999999999999999999"],
      cwd,
    );
    expectOneLineError(huge, 2);
    expect(JSON.stringify(huge.json)).not.toContain("createEngine");
    expect(JSON.stringify(huge.json)).toContain("whole number from 1");
  });

  it("rejects an unknown store scheme and malformed --input", async () => {
    const store = await inProcessJson(["state", "summary", "--store", "postgres://x"], cwd);
    expectOneLineError(store, 2);
    expect(store.json).toMatchObject({ error: { code: "USAGE" } });
    const input = await inProcess(
      ["run", greetingPlan, "--tools", greetingTools, "--input", "{ userName: "],
      cwd,
    );
    expectOneLineError(input, 2);
    const value = await inProcess(
      ["state", "set", "--store", "memory", "--ref", "†state.x", "--value", "{nope"],
      cwd,
    );
    expectOneLineError(value, 2);
  });

  it("reports a malformed JSON plan as JSON_SYNTAX with exit 1 and its line", async () => {
    const json = await inProcessJson(
      ["validate", fixture("malformed.json"), "--tools", fixture("tools.mjs")],
      cwd,
    );
    expect(json.code).toBe(1);
    expect(json.json.ok).toBe(false);
    expect(json.json.diagnostics).toEqual([expect.objectContaining({ code: "JSON_SYNTAX", pointer: "" })]);
    const text = await inProcess(
      ["validate", fixture("malformed.json"), "--tools", fixture("tools.mjs")],
      cwd,
    );
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/malformed\.json:3:\d+: error JSON_SYNTAX/);
    expect(text.stdout).toContain("^");
    expect(text.stdout).toContain("it is not JSON, nothing to approve");
    expect(text.stderr).not.toContain("    at ");
  });

  it("runs a plain .mjs tools module, and a failed run exits 1 with its errors", async () => {
    const dir = tempDir();
    const result = await inProcessJson(
      ["run", fixture("failing-plan.json"), "--tools", fixture("tools.mjs")],
      dir,
    );
    expect(result.code).toBe(1);
    expect(result.json).toMatchObject({
      status: "failed",
      calls: {
        boom: { status: "failed", error: { code: "EXPLODED" } },
        after: { status: "blocked" },
        independent: { status: "succeeded", wrote: ["†state.independent"] },
      },
      errors: [{ callId: "boom", error: { code: "EXPLODED" } }],
      state: { independent: { text: "still runs" } },
    });
    const text = await inProcess(
      ["run", fixture("failing-plan.json"), "--tools", fixture("tools.mjs"), "--store", "memory"],
      dir,
    );
    expect(text.code).toBe(1);
    expect(text.stdout).toContain("Run failed");
    expect(text.stdout).toMatch(/boom\s+explode\s+✗ failed/);
  });

  it("creates the default SQLite store under .obelisk on first use", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "input.json"), '{ "userName": "Grace" }');
    const result = await inProcessJson(
      ["run", greetingPlan, "--tools", greetingTools, "--input", "input.json"],
      dir,
    );
    expect(result.code).toBe(0);
    const state = await inProcessJson(["state", "get", "--ref", "†state.greeting"], dir);
    expect(state.json).toMatchObject({ value: { message: "Hello, Grace!" } });
  });
});
