import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliInProcess, fixture, tempDir } from "./cli-harness.js";

const store = ["--store", "sqlite:s.db"];
const tools = ["--tools", fixture("tools.js")];
/** A plan whose one call waits for `†state.approvals.go` (SPEC §7). */
const gated = { type: "plan", plan: [{ _tool: "shout", _id: "loud", text: "†state.approvals.go" }] };

/** A store with a run waiting for approval on thread `t`, then a plain run on `u`; answers the waiting run's id. */
async function withWaitingRun(cwd: string): Promise<string> {
  writeFileSync(join(cwd, "gated.json"), JSON.stringify(gated));
  const ran = await cliInProcess(
    ["run", "gated.json", ...tools, ...store, "--thread", "t", "--format", "json"],
    cwd,
  );
  expect(ran.code).toBe(0);
  const { runId, calls } = JSON.parse(ran.stdout) as { runId: string; calls: { loud: { status: string } } };
  expect(calls.loud.status).toBe("waiting");
  const input = ["--input", '{"word":"a"}'];
  expect(
    (
      await cliInProcess(
        ["run", fixture("shout-plan.json"), ...tools, ...input, ...store, "--thread", "u"],
        cwd,
      )
    ).code,
  ).toBe(0);
  return runId;
}

describe("obelisk runs list --waiting", () => {
  it("lists only the runs with a call waiting for approval (json and text), and says how to go on", async () => {
    const cwd = tempDir();
    const runId = await withWaitingRun(cwd);
    const json = await cliInProcess(["runs", "list", ...store, "--waiting", "--format", "json"], cwd);
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as { runs: { runId: string }[] }).runs.map((run) => run.runId)).toEqual([
      runId,
    ]);
    const text = await cliInProcess(["runs", "list", ...store, "--waiting"], cwd);
    expect(text.code).toBe(0);
    const lines = text.stdout.split("\n");
    expect(lines[0]).toMatch(/^\s*run\s+thread\s+status\s+started\s+plan$/);
    expect(lines[1]).toMatch(new RegExp(`^\\s*${runId}\\s+t\\s+succeeded\\s`));
    expect(lines).toHaveLength(5);
    expect(lines[3]).toBe(
      "waiting: a call of the run waited for an approval (a later run may have given it since); obelisk runs show <run> --store sqlite:s.db names it",
    );
  });

  it("combines with --thread and --status; none found is a line, exit 0", async () => {
    const cwd = tempDir();
    const runId = await withWaitingRun(cwd);
    const ofThread = await cliInProcess(
      ["runs", "list", ...store, "--waiting", "--thread", "t", "--format", "json"],
      cwd,
    );
    expect(JSON.parse(ofThread.stdout)).toEqual({ runs: [expect.objectContaining({ runId })] });
    expect(await cliInProcess(["runs", "list", ...store, "--waiting", "--thread", "u"], cwd)).toEqual({
      code: 0,
      stdout: "no runs waiting for approval\n",
    });
    expect(await cliInProcess(["runs", "list", ...store, "--waiting", "--status", "failed"], cwd)).toEqual({
      code: 0,
      stdout: "no failed runs waiting for approval\n",
    });
  });

  it("--waiting takes no value (usage error, exit 2)", async () => {
    const cwd = tempDir();
    await withWaitingRun(cwd);
    expect((await cliInProcess(["runs", "list", ...store, "--waiting=no"], cwd)).code).toBe(2);
  });
});
