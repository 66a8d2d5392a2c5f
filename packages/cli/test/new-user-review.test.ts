import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, example, fixture, inProcess, inProcessJson, tempDir } from "./cli-harness.js";

// Review s39: a new user's walk through the CLI (decision 0090).
const greetingPlan = example("greeting", "plan.json");
const greetingTools = example("greeting", "tools.ts");
const tools = ["--tools", fixture("tools.js")];
/** A plan whose one call waits for `†state.approvals.go` (SPEC §7). */
const gated = { type: "plan", plan: [{ _tool: "shout", _id: "loud", text: "†state.approvals.go" }] };

/** The run id of a text run's output (`… · run <id>)` on its first line). */
const runIdOf = (stdout: string): string => String(/run ([\w-]+)\)$/m.exec(stdout)?.[1]);

describe("a call waiting for an approval is not shown as done", () => {
  it("run says it did not run and what to do; exit 0 as documented; resume's end says to send the plan again", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "gated.json"), JSON.stringify(gated));
    const run = await inProcess(["run", "gated.json", ...tools, "--thread", "t"], cwd);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Run succeeded in .+ — 1 waiting for an approval \(not run\)$/m);
    expect(run.stdout).toContain(
      "  ⏸ 1 call (loud) did not run: it waits for an approval, which a person must give before the plan runs again\n",
    );
    expect(run.stdout).toContain("then run the same command again: the waiting calls go on");
    const resumed = await inProcess(["resume", runIdOf(run.stdout), ...tools], cwd);
    expect(resumed.code).toBe(0);
    // a resume ends its run: resuming it again is refused, the plan goes on in a new run
    expect(resumed.stdout).toContain(
      "then send the plan again with obelisk run (its completed calls are satisfied): the waiting calls go on",
    );
  });
});

describe("RUN_NOT_RESUMABLE and RUN_NOT_FOUND in the CLI's words", () => {
  it("a second resume says to send the plan again with obelisk run, not engine.runs.show", async () => {
    const cwd = tempDir();
    const input = ["--input", '{"userName":"Ada"}'];
    const run = await inProcess(["run", greetingPlan, "--tools", greetingTools, ...input], cwd);
    const runId = runIdOf(run.stdout);
    expect((await inProcess(["resume", runId, "--tools", greetingTools], cwd)).code).toBe(0);
    const again = await inProcess(["resume", runId, "--tools", greetingTools], cwd);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      `(send the plan again with obelisk run: its completed calls are satisfied, not run twice; obelisk runs show ${runId} --format json has the plan it ran, in run.plan)`,
    );
    expect(again.stderr).not.toContain("engine.");
  });

  it("runs show, resume and runs cancel of a pruned run name the store and say pruned runs are gone", async () => {
    const cwd = tempDir();
    const store = ["--store", "sqlite:s.db"];
    const input = ["--input", '{"userName":"Ada"}'];
    const run = await inProcess(["run", greetingPlan, "--tools", greetingTools, ...input, ...store], cwd);
    const runId = runIdOf(run.stdout);
    expect((await inProcess(["runs", "prune", "--keep", "0", ...store], cwd)).code).toBe(0);
    for (const args of [
      ["runs", "show", runId],
      ["resume", runId, "--tools", greetingTools],
      ["runs", "cancel", runId],
    ]) {
      const refused = await inProcess([...args, ...store], cwd);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(
        `error [RUN_NOT_FOUND] no run "${runId}" is recorded in sqlite:s.db (obelisk runs list --store sqlite:s.db lists the recorded runs, --status interrupted (and cancelled, for a run Ctrl-C stopped) the runs to resume; a run obelisk runs prune removed, or whose thread obelisk state delete removed, is gone)\n`,
      );
    }
  });
});

describe("validate --format json locates each diagnostic in the plan file", () => {
  it("gives the line and column text prints (file:line:col)", async () => {
    const cwd = tempDir();
    const plan = join(cwd, "plan.json");
    writeFileSync(
      plan,
      '{\n  "type": "plan",\n  "plan": [\n    { "_tool": "gret", "name": "x" },\n    { "_tool": "greetUser", "name": 5 }\n  ]\n}\n',
    );
    const json = await inProcessJson(["validate", plan, "--tools", greetingTools], cwd);
    expect(json.code).toBe(1);
    const diagnostics = json.json.diagnostics as { pointer: string; line?: number; column?: number }[];
    const text = await inProcess(["validate", plan, "--tools", greetingTools], cwd);
    expect(diagnostics.length).toBeGreaterThan(1);
    for (const { line, column } of diagnostics) {
      expect(line).toBeGreaterThan(0);
      expect(text.stdout).toContain(`${plan}:${line}:${column}: error`);
    }
    expect(diagnostics[0]).toMatchObject({ pointer: "/plan/0/_tool", line: 4, column: 16 });
  });

  it("run --format json of an invalid plan does too", async () => {
    const cwd = tempDir();
    const run = await inProcessJson(["run", greetingPlan, "--tools", greetingTools], cwd);
    expect(run.code).toBe(1);
    expect(run.json.diagnostics).toEqual([
      expect.objectContaining({ code: "REF_UNRESOLVED", pointer: "/plan/0/name", line: 6, column: 15 }),
    ]);
  });
});

describe("validate's approval line", () => {
  it("says the hash approves the plan, not the --input (only when --input is given)", async () => {
    const cwd = tempDir();
    const clause =
      "(the hash approves the plan, not the input: the same --approved runs it with any --input)";
    const withInput = await inProcess(
      ["validate", greetingPlan, "--tools", greetingTools, "--input", '{"userName":"Ada"}'],
      cwd,
    );
    expect(withInput.stdout).toMatch(
      /approve and run it with: .* --approved sha256:\w+\n\(the hash approves/,
    );
    expect(withInput.stdout).toContain(clause);
    const without = await inProcess(["validate", greetingPlan, "--tools", greetingTools], cwd);
    expect(without.code).toBe(0);
    expect(without.stdout).not.toContain(clause);
  });
});

describe("the run's input in the CLI's words", () => {
  it("run without --input says none was given and shows the form", async () => {
    const cwd = tempDir();
    const run = await inProcess(["run", greetingPlan, "--tools", greetingTools], cwd);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `hint: no --input was given, so the run's input is empty: give it, e.g. --input '{"userName": …}' (or --input <file.json>)`,
    );
  });

  it("an input breaking the plan's inputSchema: the verdict says the input is invalid", async () => {
    const cwd = tempDir();
    const plan = {
      type: "plan",
      inputSchema: { type: "object", properties: { userName: { type: "string", maxLength: 3 } } },
      plan: [{ _tool: "greetUser", name: "†input.userName", _outputPath: "†state.greeting" }],
    };
    writeFileSync(join(cwd, "plan.json"), JSON.stringify(plan));
    const args = ["plan.json", "--tools", greetingTools, "--input", '{"userName":"Adaaaa"}'];
    for (const command of ["run", "validate"]) {
      const refused = await inProcess([command, ...args], cwd);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toContain("✗ input is invalid: 1 error, 0 warnings");
    }
  });
});

describe("smaller findings", () => {
  it("obelisk --help names --format; state get --help says objects page by keys", async () => {
    const cwd = tempDir();
    const help = await inProcess(["--help"], cwd);
    expect(help.stdout).toContain("Every command takes --format text|json");
    const get = await inProcess(["state", "--help"], cwd);
    expect(get.stdout).toMatch(/one page of an array\s+\(items\),\s+object\s+\(keys\)\s+or\s+string/);
  });

  it("state get with an --offset past the end says so", async () => {
    const cwd = tempDir();
    const store = ["--store", "sqlite:s.db", "--thread", "t"];
    const items = JSON.stringify(Array.from({ length: 10 }, (_, i) => i));
    await inProcess(["state", "set", ...store, "--ref", "†state.list", "--value", items], cwd);
    const past = await inProcess(
      ["state", "get", ...store, "--ref", "†state.list", "--offset", "99999", "--limit", "2"],
      cwd,
    );
    expect(past.code).toBe(0);
    expect(past.stdout).toBe(
      "†state.list: --offset 99999 is past the end: it holds 10 items (--offset 0 to 9)\n",
    );
  });

  it("a tools module outside a project that imports obelisk: the hint says to install it next to the module", async () => {
    const outside = mkdtempSync(join(tmpdir(), "obelisk-outside-"));
    writeFileSync(join(outside, "tools.mjs"), 'import { defineTool } from "obelisk";\nexport default [];\n');
    const run = await inProcess(["run", greetingPlan, "--tools", join(outside, "tools.mjs")], tempDir());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Cannot find package 'obelisk'");
    expect(run.stderr).toContain(
      `install it next to the module, npm install obelisk in ${outside} or its project`,
    );
  });

  it("validate /dev/stdin < plan.json suggests run - with the plan sent to it again", async () => {
    const fd = openSync(greetingPlan, "r");
    const stdout = await new Promise<string>((done) => {
      const child = spawn(process.execPath, [BIN, "validate", "/dev/stdin", "--tools", greetingTools], {
        cwd: tempDir(),
        env: { ...process.env, NO_COLOR: "1" },
        stdio: [fd, "pipe", "inherit"],
      });
      let text = "";
      child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
        text += chunk;
      });
      child.on("close", () => done(text));
    });
    closeSync(fd);
    expect(stdout).toContain(
      // (the greeting reads †input.userName: the run needs its --input, decision 0103)
      `approve and run it with: obelisk run - --tools ${greetingTools} --input '{"userName": …}' --approved sha256:`,
    );
    expect(stdout).toContain("(the plan came from standard input: send it the same plan again, < plan.json)");
  });
});
