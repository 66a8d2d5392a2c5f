import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixture, inProcess, inProcessJson, tempDir } from "./cli-harness.js";

const jsTools = fixture("tools.js");

/** A plan that reads what an earlier run of the shout plan wrote on the thread. */
const readerPlan = (cwd: string): string => {
  const file = join(cwd, "reader.json");
  writeFileSync(file, '[{ "_tool": "shout", "text": "†state.loud", "_outputPath": "†state.again" }]');
  return file;
};

describe.concurrent("obelisk validate: which thread a plan is checked against (decision 0049)", () => {
  it("without --thread checks against an empty thread, not the default thread's leftovers, and says so", async () => {
    const cwd = tempDir();
    // the default thread of the default store holds †state.loud
    const run = await inProcess(
      ["run", fixture("shout-plan.json"), "--tools", jsTools, "--input", '{"word":"x"}'],
      cwd,
    );
    expect(run.code).toBe(0);
    const plan = readerPlan(cwd);
    const fresh = await inProcess(["validate", plan, "--tools", jsTools], cwd);
    expect(fresh.code).toBe(1);
    expect(fresh.stdout).toContain("REF_UNRESOLVED");
    expect(fresh.stdout).toContain(
      "checked against an empty thread (give --thread <id> to check against a thread's stored state)",
    );
    const stored = await inProcess(["validate", plan, "--tools", jsTools, "--thread", "default"], cwd);
    expect(stored.code).toBe(0);
    expect(stored.stdout).toContain("checked against thread default in sqlite:.obelisk/state.db");
    const json = await inProcessJson(["validate", plan, "--tools", jsTools], cwd);
    expect(json.json).toMatchObject({ ok: false, diagnostics: [{ code: "REF_UNRESOLVED" }] });
  });

  it("a --store without --thread is not read, with a warning; graph checks the same way", async () => {
    const cwd = tempDir();
    const plan = readerPlan(cwd);
    const store = ["--store", "sqlite:s.db"];
    const run = await inProcess(
      ["run", fixture("shout-plan.json"), "--tools", jsTools, "--input", '{"word":"x"}', ...store],
      cwd,
    );
    expect(run.code).toBe(0);
    const validate = await inProcess(["validate", plan, "--tools", jsTools, ...store], cwd);
    expect(validate.code).toBe(1);
    expect(validate.stderr).toBe(
      "warning: --store sqlite:s.db is read only with --thread <id>: checking against an empty thread\n",
    );
    // a memory store holds nothing to leave unread: no warning
    const memory = await inProcess(["validate", plan, "--tools", jsTools, "--store", "memory"], cwd);
    expect(memory.stderr).toBe("");
    const graph = await inProcess(["graph", plan, "--tools", jsTools, ...store, "--thread", "t"], cwd);
    expect(graph.code).toBe(1);
    // the validate it suggests checks the same thread
    expect(graph.stderr).toContain("--store sqlite:s.db --thread t");
    const stored = await inProcess(["graph", plan, "--tools", jsTools, ...store, "--thread", "default"], cwd);
    expect(stored).toMatchObject({ code: 0, stderr: "" });
  });
});
