import { describe, expect, it } from "vitest";
import { expectOneLineError, fixture, inProcessJson, obelisk, obeliskJson, tempDir } from "./cli-harness.js";

const plan = fixture("stall-plan.json");
const neverSettles = fixture("never-settles.mjs");

describe.concurrent("obelisk: a promise that nothing can settle (the event loop empties while the command waits)", () => {
  it("run cancels the run, names the call that waits, records the run cancelled (exit 1) and resume finishes it", async () => {
    const cwd = tempDir();
    const result = await obeliskJson(["run", plan, "--tools", neverSettles, "--thread", "s"], cwd);
    expect(result.code).toBe(1);
    expect(result.json).toMatchObject({
      status: "cancelled",
      calls: {
        q: { status: "succeeded" },
        w: { status: "cancelled", reason: "run cancelled: stalled: a promise never settled" },
      },
    });
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/^stalled: .*call w \(wait\).*never settle.*cancelling the run/);
    const runId = (result.json as { runId: string }).runId;
    const runs = await inProcessJson(["runs", "list"], cwd);
    expect(runs.json.runs).toEqual([expect.objectContaining({ runId, status: "cancelled" })]);
    // the tools fixed, resume runs what had not finished
    const resumed = await inProcessJson(["resume", runId, "--tools", fixture("settles.mjs")], cwd);
    expect(resumed.code).toBe(0);
    expect(resumed.json).toMatchObject({
      status: "succeeded",
      calls: { q: { status: "satisfied" }, w: { status: "succeeded" } },
      state: { quick: "quick", waited: "waited" },
    });
  });

  it("run in text says so and names the resume command", async () => {
    const cwd = tempDir();
    const result = await obelisk(["run", plan, "--tools", neverSettles], cwd);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^stalled: .*call w \(wait\)/);
    expect(result.stdout).toMatch(/^Run cancelled in /m);
    expect(result.stdout).toMatch(/finish what is left: +obelisk resume [\w-]+ --tools /);
  });

  it("a tools module whose top-level await never settles does not load (USAGE, exit 2)", async () => {
    const cwd = tempDir();
    const args = ["validate", plan, "--tools", fixture("never-loads.mjs")];
    const json = await obeliskJson(args, cwd);
    expectOneLineError(json, 2);
    expect(json.json).toEqual({
      error: {
        code: "USAGE",
        message: expect.stringMatching(/never-loads\.mjs.*top-level await.*never settle/),
      },
    });
    const text = await obelisk(args, cwd);
    expectOneLineError(text, 2);
    expect(text.stdout).toBe("");
  });
});
