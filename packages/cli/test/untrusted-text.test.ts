import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inProcess, obeliskSpawned, tempDir } from "./cli-harness.js";

// s35 security review M2, L2: text from a plan, a tool or the store reaches the terminal escaped — no escape
// sequence (colours, the window title, OSC 8 links, OSC 52 clipboard writes), no bidi control or U+2028.

/** What must never reach the terminal raw (line feeds are the CLI's own). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: asserts no control character is left
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

/** A hostile string, as a plan writes it in JSON, and as the CLI shows it. */
const HOSTILE_JSON =
  "\\u001b]0;PWNED\\u0007\\u001b]52;c;ZWNobw==\\u0007\\u001b]8;;http://x\\u0007\\u202eevil\\u2028X";
const HOSTILE_SHOWN = "\\x1b]0;PWNED\\x07\\x1b]52;c;ZWNobw==\\x07\\x1b]8;;http://x\\x07\\u202eevil\\u2028X";

const TOOLS = `
const hostile = JSON.parse('"${HOSTILE_JSON.replaceAll("\\", "\\\\")}"');
export default [
  { name: "t", input: { type: "object" }, run: () => "line1\\n" + hostile },
  { name: "boom", input: { type: "object" }, run: () => { throw new Error("bad " + hostile); } },
  {
    name: "waits",
    input: { type: "object" },
    timeoutMs: 20000,
    run: (_args, ctx) => new Promise((_resolve, reject) => {
      const keep = setTimeout(() => {}, 20000);
      ctx.signal.addEventListener("abort", () => { clearTimeout(keep); reject(ctx.signal.reason); });
    }),
  },
  {
    name: "throwLater",
    input: { type: "object" },
    run: () => { setTimeout(() => { throw new Error("late " + hostile); }, 0); return 1; },
  },
];
`;

/** A temporary directory holding the tools module and the given files (name → text). */
function project(files: Record<string, string>): { cwd: string; tools: string } {
  const cwd = tempDir();
  const tools = join(cwd, `tools-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(tools, TOOLS);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(cwd, name), text);
  return { cwd, tools };
}

function expectEscaped(text: string): void {
  expect(text).not.toMatch(RAW);
}

describe("obelisk validate shows the plan's text escaped (s35 review M2)", () => {
  // raw bidi, U+2028 and a C1 control are valid JSON: they stand before the unknown tool on its line
  const plan = `[{"_tool":"t","q":"\u202e\u2028\u009b"}, {"_tool":"nosuch${HOSTILE_JSON}"}, {"_tool":"t","_bad${HOSTILE_JSON}":1}]`;

  it("an unknown tool name and meta key in messages, and the source line, escaped; the column is the file's", async () => {
    const { cwd, tools } = project({ "plan.json": plan });
    const result = await inProcess(["validate", "plan.json", "--tools", tools, "--store", "memory"], cwd);
    expect(result.code).toBe(1);
    expectEscaped(result.stdout);
    expect(result.stdout).toContain(`no tool named "nosuch${HOSTILE_SHOWN}"`);
    expect(result.stdout).toContain(`unknown meta-property "_bad${HOSTILE_SHOWN}"`);
    expect(result.stdout).toContain(`"q":"\\u202e\\u2028\\x9b"}`);
    // the location counts the file's characters (an editor's column), not the escaped line's
    const column = plan.indexOf('"nosuch') + 1;
    expect(result.stdout).toContain(`plan.json:1:${column}: error TOOL_UNKNOWN`);
    // the caret stays under the value in the escaped line
    const lines = result.stdout.split("\n");
    const at = lines.findIndex((line) => line.includes("error TOOL_UNKNOWN"));
    const caret = lines[at + 2]?.indexOf("^") ?? -1;
    expect(lines[at + 1]?.slice(caret)).toMatch(/^"nosuch\\u001b/);
  });

  it("the thread it was checked against", async () => {
    const { cwd, tools } = project({ "plan.json": '[{"_tool":"t"}]' });
    const args = [
      "validate",
      "plan.json",
      "--tools",
      tools,
      "--store",
      "memory",
      "--thread",
      "t\u202e\x1b[2J",
    ];
    const result = await inProcess(args, cwd);
    expect(result.code).toBe(0);
    expectEscaped(result.stdout);
    expect(result.stdout).toContain("checked against thread t\\u202e\\x1b[2J in memory");
  });

  it("json: the same JSON value, with C1, bidi and U+2028 written \\u", async () => {
    const { cwd, tools } = project({ "plan.json": plan });
    const args = ["validate", "plan.json", "--tools", tools, "--store", "memory", "--format", "json"];
    const result = await inProcess(args, cwd);
    expectEscaped(result.stdout);
    const document = JSON.parse(result.stdout) as { diagnostics: { message: string }[] };
    const messages = document.diagnostics.map((diagnostic) => diagnostic.message);
    expect(messages).toContain(`no tool named "nosuch${JSON.parse(`"${HOSTILE_JSON}"`)}"`);
  });

  it("the excerpt of a plan that is not JSON (raw escape sequences) escaped", async () => {
    const raw = '[{"_tool":"t", "\x1b]0;PWNED\x07\x1b[2J\u202e": 1}]';
    const { cwd, tools } = project({ "plan.json": raw });
    const result = await inProcess(["validate", "plan.json", "--tools", tools, "--store", "memory"], cwd);
    expect(result.code).toBe(1);
    expectEscaped(result.stdout);
    expect(result.stdout).toContain("error JSON_SYNTAX");
    expect(result.stdout).toContain('"\\x1b]0;PWNED\\x07\\x1b[2J\\u202e": 1}]');
  });

  it("a quoted output-path key with bidi controls, in the graph summary and in graph --as mermaid", async () => {
    const { cwd, tools } = project({
      "plan.json": '[{"_tool":"t","_outputPath":"†state[\\"k\\u202e\\u2028\\u0085\\"]"}]',
    });
    const validate = await inProcess(["validate", "plan.json", "--tools", tools, "--store", "memory"], cwd);
    expect(validate.code).toBe(0);
    expectEscaped(validate.stdout);
    expect(validate.stdout).toContain('→ †state["k\\u202e\\u2028\\x85"]');
    for (const as of ["mermaid", "dot", "json"]) {
      const graph = await inProcess(["graph", "plan.json", "--tools", tools, "--as", as], cwd);
      expect(graph.code).toBe(0);
      expectEscaped(graph.stdout);
    }
  });
});

describe("stored text and error messages are shown escaped (s35 review M2, L2)", () => {
  const store = ["--store", "sqlite:s.db", "--thread", "t"];
  const plan = `[{"_tool":"t","_id":"a","_outputPath":"†state.x","_description":"${HOSTILE_JSON}"},{"_tool":"boom","_id":"b"}]`;

  it("run (bidi in a tool's error), state summary (_description) and state get (a string, its lines kept)", async () => {
    const { cwd, tools } = project({ "plan.json": plan });
    const run = await inProcess(["run", "plan.json", "--tools", tools, ...store], cwd);
    expect(run.code).toBe(1);
    expectEscaped(run.stdout);
    expect(run.stdout).toContain(`bad ${HOSTILE_SHOWN}`);

    const summary = await inProcess(["state", "summary", ...store], cwd);
    expect(summary.code).toBe(0);
    expectEscaped(summary.stdout);
    // (the summary itself makes a line separator in a description a space)
    expect(summary.stdout).toContain(`- description: ${HOSTILE_SHOWN.replace("\\u2028", " ")}`);

    const get = await inProcess(["state", "get", "--ref", "†state.x", ...store], cwd);
    expect(get.code).toBe(0);
    expectEscaped(get.stdout);
    expect(get.stdout).toBe(`line1\n${HOSTILE_SHOWN}\n`);
    const json = await inProcess(["state", "get", "--ref", "†state.x", ...store, "--format", "json"], cwd);
    expectEscaped(json.stdout);
    expect(JSON.parse(json.stdout)).toEqual({
      found: true,
      value: `line1\n${JSON.parse(`"${HOSTILE_JSON}"`)}`,
    });
  });

  it("runs show: the run's input preview", async () => {
    const { cwd, tools } = project({ "plan.json": '[{"_tool":"t","_id":"a"}]' });
    const input = '{"q":"\u202eevil\u2028\u0085"}';
    const run = await inProcess(["run", "plan.json", "--tools", tools, ...store, "--input", input], cwd);
    expect(run.code).toBe(0);
    const runId = /run ([\w-]+) ·/.exec(run.stdout)?.[1] ?? "";
    const show = await inProcess(["runs", "show", runId, "--store", "sqlite:s.db"], cwd);
    expect(show.code).toBe(0);
    expectEscaped(show.stdout);
    expect(show.stdout).toContain('input {"q":"\\u202eevil\\u2028\\x85"}');
  });

  it("an error's message quoting what it was given (state get of a reference not stored)", async () => {
    const { cwd } = project({});
    const ref = '†state["k\u202e\u2066"]';
    const result = await inProcess(["state", "get", "--ref", ref, "--store", "memory"], cwd);
    expect(result.code).toBe(1);
    expectEscaped(result.stderr);
    expect(result.stderr).toContain('error [REF_UNRESOLVED] †state["k\\u202e\\u2066"] is not stored');
  });

  it("a tool's uncaught exception, on stderr while the run is cancelled", async () => {
    const { cwd, tools } = project({
      "plan.json": '[{"_tool":"waits","_id":"w"},{"_tool":"throwLater","_id":"thrower"}]',
    });
    const result = await obeliskSpawned(["run", "plan.json", "--tools", tools, "--store", "memory"], cwd);
    expect(result.code).toBe(1);
    expectEscaped(result.stderr);
    expect(result.stderr).toContain(`error [TOOL_ERROR] a tool's uncaught exception: late ${HOSTILE_SHOWN}`);
  });
});
