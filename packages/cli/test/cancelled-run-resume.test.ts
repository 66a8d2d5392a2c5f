import { describe, expect, it } from "vitest";
import { fixture, inProcess, obeliskInterrupted, tempDir } from "./cli-harness.js";

// Decision 0103 (review s41 r2 #4): a run Ctrl-C cancelled may be resumed (decision 0070), and the end of
// the run says so, but `runs show` later offered no resume (only interrupted runs got one), and the help of
// `runs list --status` and RUN_NOT_FOUND's hint called interrupted runs "the runs to resume".

const tools = fixture("tools.mjs");

describe("a run Ctrl-C cancelled is found and resumed later", { timeout: 120_000 }, () => {
  it("runs show offers its resume; the help and RUN_NOT_FOUND's hint say cancelled runs are resumed too", async () => {
    const cwd = tempDir();
    const args = ["run", fixture("interrupt-plan.json"), "--tools", tools, "--store", "sqlite:s.db"];
    const result = await obeliskInterrupted(args, cwd, "start  waits");
    expect(result.code).toBe(1);
    const runId = /run ([\w-]+)\)$/m.exec(result.stdout)?.[1] ?? "";
    const shown = await inProcess(["runs", "show", runId, "--store", "sqlite:s.db"], cwd);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(
      `it was cancelled before it ended; finish what is left (completed calls are satisfied): obelisk resume ${runId} --tools <module> --store sqlite:s.db`,
    );
    const help = await inProcess(["runs", "list", "--help"], cwd);
    expect(help.stdout.replace(/\s+/g, " ")).toContain(
      "interrupted, and cancelled by Ctrl-C: the runs to resume — runs show says",
    );
    const missing = await inProcess(["runs", "show", "no-such-run", "--store", "sqlite:s.db"], cwd);
    expect(missing.stderr).toContain(
      "--status interrupted (and cancelled, for a run Ctrl-C stopped) the runs to resume",
    );
  });

  it("a run that finished is offered no resume", async () => {
    const cwd = tempDir();
    const plan = fixture("shout-plan.json");
    const ran = await inProcess(
      ["run", plan, "--tools", fixture("tools.js"), "--input", '{"word":"x"}', "--store", "sqlite:s.db"],
      cwd,
    );
    const runId = /run ([\w-]+) ·/m.exec(ran.stdout)?.[1] ?? "";
    const shown = await inProcess(["runs", "show", runId, "--store", "sqlite:s.db"], cwd);
    expect(shown.stdout).toContain(`Run succeeded`);
    expect(shown.stdout).not.toContain("resume");
  });
});
