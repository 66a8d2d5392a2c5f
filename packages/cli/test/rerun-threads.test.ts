import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectOneLineError, fixture, inProcess, inProcessJson, tempDir } from "./cli-harness.js";

// Running satisfied calls again from the CLI (decision 0050: `run --rerun`, `resume --rerun`) and listing
// threads.

const plan = fixture("rerun-plan.json");
const tools = fixture("rerun-tools.mjs");
const run = (cwd: string, ...flags: string[]) =>
  inProcessJson(["run", plan, "--tools", tools, ...flags], cwd);
const statuses = (json: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(json.calls as Record<string, { status: string }>).map(([id, call]) => [id, call.status]),
  );

describe("obelisk run --rerun", { timeout: 60_000 }, () => {
  it("a re-sent plan's satisfied calls: the run says how to run them again", async () => {
    const cwd = tempDir();
    await run(cwd);
    const again = await inProcess(["run", plan, "--tools", tools], cwd);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      "2 calls satisfied from an earlier run (same tool and parameters): pass --rerun to run them again",
    );
  });

  it("--rerun alone runs the idempotent tools' calls again; the others are named to run them", async () => {
    const cwd = tempDir();
    const first = await run(cwd);
    const again = await inProcess(["run", plan, "--tools", tools, "--rerun"], cwd);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/t\s+tick\s+✓ succeeded/);
    expect(again.stdout).toContain(
      "1 call still satisfied: its tool is not idempotent, which --rerun alone leaves; to run it again: --rerun s",
    );
    const state = await inProcessJson(["state", "get", "--ref", "†state.t"], cwd);
    expect(state.json.value).not.toEqual((first.json.state as { t: number }).t);
  });

  it("--rerun <ids…> runs the named calls again, of any tool; the plan hash is the same", async () => {
    const cwd = tempDir();
    const first = await run(cwd);
    const again = await run(cwd, "--rerun", "s", "t", "--approved", first.json.planHash as string);
    expect(again.code).toBe(0);
    expect(statuses(again.json)).toEqual({ t: "succeeded", s: "succeeded" });
    expect(again.json.planHash).toBe(first.json.planHash);
  });

  it("an id the plan has not is a usage error (exit 2) naming the plan's ids; nothing runs", async () => {
    const cwd = tempDir();
    await run(cwd);
    const refused = await inProcess(["run", plan, "--tools", tools, "--rerun", "nope"], cwd);
    expectOneLineError(refused, 2);
    // the flag's name, not the library option's (rerun names …)
    expect(refused.stderr).toContain('error [USAGE] --rerun names a call the plan does not have: "nope"');
    expect(refused.stderr).toContain('the plan\'s calls are "t", "s"');
    const json = await run(cwd, "--rerun", "tt");
    expect(json.code).toBe(2);
    expect(json.json.error).toMatchObject({ code: "USAGE", hint: 'did you mean "t"?' });
    const runs = await inProcessJson(["runs", "list"], cwd);
    expect((runs.json.runs as unknown[]).length).toBe(1);
  });

  it("the plan file taken as an id (--rerun before it) is a usage error saying where the flag goes", async () => {
    const refused = await inProcess(["run", "--rerun", plan, "--tools", tools], tempDir());
    expectOneLineError(refused, 2);
    expect(refused.stderr).toContain("looks like the plan file: give --rerun after it");
  });
});

describe("obelisk resume --rerun", { timeout: 60_000 }, () => {
  /** Two runs of the plan; the second's calls are satisfied by the first's: its run id. */
  const satisfiedRun = async (cwd: string): Promise<string> => {
    await run(cwd);
    const again = await run(cwd);
    expect(statuses(again.json)).toEqual({ t: "satisfied", s: "satisfied" });
    return String(again.json.runId);
  };
  const resume = (cwd: string, runId: string, ...flags: string[]) =>
    inProcessJson(["resume", runId, "--tools", tools, ...flags], cwd);

  it("--rerun alone runs again the idempotent tools' calls an earlier run satisfied; without it they stay", async () => {
    const cwd = tempDir();
    const runId = await satisfiedRun(cwd);
    const plain = await resume(cwd, runId);
    expect(statuses(plain.json)).toEqual({ t: "satisfied", s: "satisfied" });
    const rerun = await resume(cwd, await satisfiedRun(cwd), "--rerun");
    expect(rerun.code).toBe(0);
    expect(statuses(rerun.json)).toEqual({ t: "succeeded", s: "satisfied" });
  });

  it("--rerun <ids…> runs the named calls again, of any tool", async () => {
    const cwd = tempDir();
    const rerun = await resume(cwd, await satisfiedRun(cwd), "--rerun", "s", "t");
    expect(rerun.code).toBe(0);
    expect(statuses(rerun.json)).toEqual({ t: "succeeded", s: "succeeded" });
  });

  it("an id the plan has not is a usage error (exit 2) naming --rerun and the plan's ids; nothing runs", async () => {
    const cwd = tempDir();
    const runId = await satisfiedRun(cwd);
    const refused = await inProcess(["resume", runId, "--tools", tools, "--rerun", "nope"], cwd);
    expectOneLineError(refused, 2);
    expect(refused.stderr).toContain('error [USAGE] --rerun names a call the plan does not have: "nope"');
    expect(refused.stderr).toContain('the plan\'s calls are "t", "s"');
    const json = await resume(cwd, runId, "--rerun", "tt");
    expect(json.code).toBe(2);
    expect(json.json.error).toMatchObject({ code: "USAGE", hint: 'did you mean "t"?' });
    const runs = await inProcessJson(["runs", "list"], cwd);
    expect((runs.json.runs as unknown[]).length).toBe(2);
  });

  it("the run id taken as an id (--rerun before it) is a usage error saying where the flag goes", async () => {
    const cwd = tempDir();
    const runId = await satisfiedRun(cwd);
    const refused = await inProcess(["resume", "--rerun", "t", runId, "--tools", tools], cwd);
    expectOneLineError(refused, 2);
    expect(refused.stderr).toContain(
      `"${runId}" looks like the run id: give --rerun after it (resume ${runId} --rerun [ids…] --tools …)`,
    );
  });
});

describe("--rerun with an empty id", () => {
  it("is a flag error (exit 2) on run and resume, not the library's sentence about an array", async () => {
    const cwd = tempDir();
    for (const args of [
      ["run", plan, "--tools", tools, "--rerun", ""],
      ["resume", "r", "--tools", tools, "--rerun", "t", ""],
    ]) {
      const refused = await inProcess(args, cwd);
      expectOneLineError(refused, 2);
      expect(refused.stderr).toContain(
        "a call id cannot be empty: give the _id of each call to run again (--rerun a b), or --rerun alone for every call of an idempotent tool",
      );
    }
    expect(existsSync(join(cwd, ".obelisk"))).toBe(false);
  });
});

describe("obelisk threads list", { timeout: 60_000 }, () => {
  it("no threads: says so (json: an empty list), exit 0", async () => {
    const cwd = tempDir();
    const text = await inProcess(["threads", "list"], cwd);
    expect([text.code, text.stdout.trim()]).toEqual([0, "no threads in this store"]);
    const json = await inProcessJson(["threads", "list", "--store", "memory"], cwd);
    expect(json.json).toEqual({ threads: [] });
  });

  it("lists every thread by id: variables, size, outputs, runs and the last run", async () => {
    const cwd = tempDir();
    await run(cwd, "--thread", "b");
    const last = await run(cwd, "--thread", "b");
    await inProcess(["state", "set", "--thread", "a", "--ref", "†state.note", "--value", '"hi"'], cwd);
    const json = await inProcessJson(["threads", "list"], cwd);
    expect(json.code).toBe(0);
    expect(json.json.threads).toEqual([
      {
        threadId: "a",
        createdAt: expect.any(String),
        variables: 1,
        variableBytes: 4,
        callOutputs: 0,
        callOutputBytes: 0,
        runs: 0,
      },
      {
        threadId: "b",
        createdAt: expect.any(String),
        variables: 2,
        variableBytes: expect.any(Number),
        callOutputs: 0,
        callOutputBytes: 0,
        runs: 2,
        lastRun: {
          runId: last.json.runId,
          status: "succeeded",
          startedAt: expect.any(String),
          endedAt: expect.any(String),
        },
      },
    ]);
    const text = await inProcess(["threads", "list"], cwd);
    expect(text.stdout).toMatch(/thread\s+variables\s+size\s+outputs\s+runs\s+last run/);
    expect(text.stdout).toMatch(new RegExp(`b\\s+2\\s+\\d+ B\\s+0\\s+2\\s+${last.json.runId} succeeded`));
    expect(text.stdout).toContain("look into one: obelisk state summary --thread <id>");
  });

  it("a --store file that does not exist is a usage error (exit 2), as for runs list, and is not created", async () => {
    const cwd = tempDir();
    const refused = await inProcess(["threads", "list", "--store", "sqlite:typo.db"], cwd);
    expectOneLineError(refused, 2);
    expect(refused.stderr).toContain("store file typo.db does not exist");
    expect(existsSync(join(cwd, "typo.db"))).toBe(false);
  });
});
