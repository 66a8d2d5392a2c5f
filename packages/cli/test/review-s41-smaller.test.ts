import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectOneLineError, fixture, inProcess, inProcessJson, tempDir } from "./cli-harness.js";

// Decision 0103, review s41 r2's smaller findings: #6 graph json without locations, #7 a failed run with no
// next step, #11 tool definition errors not naming the tools module, #12 help gaps, #13 the memory store's
// notes, #15 unknown commands and --older-than 7d.

type Json = Record<string, unknown>;
const tools = fixture("tools.js");
const cwd = tempDir();
const write = (name: string, text: string): string => {
  writeFileSync(join(cwd, name), text);
  return name;
};

describe.concurrent("review s41 r2: the smaller findings", { timeout: 120_000 }, () => {
  it("#6 graph --format json locates its diagnostics, and its stderr counts errors in words", async () => {
    const plan = write(
      "partial.json",
      '{"plan":[{"_tool":"nope","_id":"x"},\n{"_tool":"shout","_id":"y","text":"hi"}]}',
    );
    const graph = await inProcessJson(["graph", plan, "--tools", tools, "--as", "json"], cwd);
    expect(graph.code).toBe(1);
    expect((graph.json.diagnostics as Json[])[0]).toMatchObject({
      code: "TOOL_UNKNOWN",
      line: 1,
      column: 19,
    });
    expect(graph.stderr).toContain("warning: the plan has 1 error; see obelisk validate partial.json");
    const none = write("none.json", '{"plan":[{"_tool":"nope","_id":"x"}]}');
    const empty = await inProcessJson(["graph", none, "--tools", tools], cwd);
    expect((empty.json.diagnostics as Json[])[0]).toMatchObject({
      code: "TOOL_UNKNOWN",
      line: 1,
      column: 19,
    });
  });

  it("#7 a failed run names the stack and the re-send after the fix", async () => {
    const failing = await inProcess(
      ["run", fixture("failing-plan.json"), "--tools", fixture("tools.mjs"), "--store", "sqlite:f.db"],
      cwd,
    );
    expect(failing.code).toBe(1);
    expect(failing.stdout).toMatch(/^Run failed/m);
    expect(failing.stdout).toContain(
      "after the fix:           run the same command again (completed calls are satisfied: the failed and blocked ones run)",
    );
  });

  it("#11 a tool definition the engine refuses names the tools module", async () => {
    const bad = write(
      "bad-retry.mjs",
      'export default [{ name: "echo", input: { type: "object" }, run: () => 1, retry: "lots" }];\n',
    );
    const refused = await inProcess(["validate", fixture("shout-plan.json"), "--tools", bad], cwd);
    expectOneLineError(refused, 2);
    expect(refused.stderr).toBe(
      'error [USAGE] tools module bad-retry.mjs: tool "echo": retry must be an object\n',
    );
  });

  it("#12 help: - for standard input, required flags marked, runs show's argument", async () => {
    const help = async (...args: string[]) =>
      (await inProcess([...args, "--help"], cwd)).stdout.replace(/\s+/g, " ");
    for (const command of ["validate", "run", "graph"])
      expect(await help(command)).toContain("plan file (JSON), or - to read the plan from standard input");
    expect(await help("run")).toContain("implementations) (required)");
    expect(await help("state", "set")).toContain("the value, as JSON (required)");
    expect(await help("state", "keep")).toContain("how many variables to keep (required)");
    expect(await help("runs", "show")).toContain("Arguments: runId the run's id (runs list lists them)");
  });

  it("#13 the memory store: state set says the value is gone; RUN_NOT_FOUND names the store file to give", async () => {
    const set = await inProcess(
      ["state", "set", "--ref", "state.x", "--value", "1", "--store", "memory"],
      cwd,
    );
    expect(set.code).toBe(0);
    expect(set.stdout).toContain("the memory store ends with this command, and the value with it");
    const shown = await inProcessJson(["runs", "show", "r-1", "--store", "memory"], cwd);
    expect((shown.json.error as Json).hint).toBe(
      "give the store the run was recorded in: --store sqlite:<file> (the default, sqlite:.obelisk/state.db, when run had no --store)",
    );
  });

  it("#15 an unknown command lists the commands there are; --older-than 7d names its milliseconds", async () => {
    const top = await inProcessJson(["frobnicate"], cwd);
    expectOneLineError(top, 2);
    expect(top.json.error).toEqual({
      code: "USAGE",
      message: expect.stringContaining("unknown command 'frobnicate'"),
      hint: "obelisk has: validate, run, graph, schema, state, runs, threads, resume; see obelisk --help",
    });
    const sub = await inProcessJson(["state", "frob"], cwd);
    expect((sub.json.error as Json).hint).toBe(
      "obelisk state has: summary, get, set, unset, reset, keep, delete, vacuum; see obelisk state --help",
    );
    const prune = await inProcessJson(["runs", "prune", "--older-than", "7d"], cwd);
    expectOneLineError(prune, 2);
    expect((prune.json.error as Json).message).toContain(
      "(--older-than counts milliseconds: for 7d, --older-than 604800000)",
    );
  });
});
