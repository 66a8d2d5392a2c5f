import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliInProcess, fixture, tempDir } from "./cli-harness.js";

const cli = cliInProcess;
const json = async (args: string[], cwd: string) => {
  const { code, stdout } = await cli([...args, "--format", "json"], cwd);
  return { code, json: JSON.parse(stdout) as Record<string, unknown> };
};
const digest = (file: string): string => createHash("sha256").update(readFileSync(file)).digest("hex");
const store = ["--store", "sqlite:s.db"];

/** Runs the shout plan with `word` on `thread` (each word a new call: a different input). */
async function shout(cwd: string, thread: string, word: string): Promise<Record<string, unknown>> {
  const input = JSON.stringify({ word });
  const args = ["run", fixture("shout-plan.json"), "--tools", fixture("tools.js"), "--input", input];
  const ran = await json([...args, ...store, "--thread", thread], cwd);
  expect(ran.code).toBe(0);
  return ran.json;
}

/** The run ids of `thread`, newest first. */
async function runIds(cwd: string, thread: string): Promise<string[]> {
  const listed = await json(["runs", "list", ...store, "--thread", thread], cwd);
  return (listed.json.runs as { runId: string }[]).map((run) => run.runId);
}

/** A store with three runs on thread `t` (words a, b, c) and one on `u`. */
async function history(): Promise<string> {
  const cwd = tempDir();
  for (const word of ["a", "b", "c"]) await shout(cwd, "t", word);
  await shout(cwd, "u", "z");
  return cwd;
}

describe("obelisk runs prune", () => {
  it("--keep N keeps each thread's N newest runs and says what it removed (text and json)", async () => {
    const cwd = await history();
    const [newest, ...older] = await runIds(cwd, "t");
    const pruned = await json(["runs", "prune", ...store, "--thread", "t", "--keep", "1"], cwd);
    expect(pruned.code).toBe(0);
    expect(pruned.json).toEqual({
      ok: true,
      runIds: older,
      callRecords: 2,
      keptCallRecords: 0,
      busyThreads: [],
    });
    expect(await runIds(cwd, "t")).toEqual([newest]);
    expect(await runIds(cwd, "u")).toHaveLength(1);
    // the thread's values stay
    expect(
      (await json(["state", "get", ...store, "--thread", "t", "--ref", "†state.loud"], cwd)).json,
    ).toEqual({ found: true, value: "C" });
    const again = await cli(["runs", "prune", ...store, "--thread", "t", "--keep", "1"], cwd);
    expect(again).toEqual({ code: 0, stdout: "no finished run of thread t matched: nothing pruned\n" });
    // every thread: the records whose values the threads hold stay, so their calls stay satisfied
    const all = await cli(["runs", "prune", ...store, "--keep", "0"], cwd);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(
      /^✓ pruned 2 runs; kept 2 call records whose value is still in the thread \(a re-sent plan's call stays satisfied\)\n {2}\S+, \S+\n$/,
    );
    expect(await runIds(cwd, "t")).toEqual([]);
    const resent = await shout(cwd, "t", "c");
    expect((resent.calls as Record<string, { status: string }>).loud?.status).toBe("satisfied");
  });

  it("--older-than selects runs by age; with --keep, only the runs both select", async () => {
    const cwd = await history();
    const hour = ["--older-than", "3600000"];
    const young = await json(["runs", "prune", ...store, ...hour], cwd);
    expect(young).toEqual({
      code: 0,
      json: { ok: true, runIds: [], callRecords: 0, keptCallRecords: 0, busyThreads: [] },
    });
    const both = await json(["runs", "prune", ...store, ...hour, "--keep", "0"], cwd);
    expect(both.json.runIds).toEqual([]);
    expect(await runIds(cwd, "t")).toHaveLength(3);
  });

  it("without --keep or --older-than, or with a bad value, is a usage error (exit 2) that changes nothing", async () => {
    const cwd = await history();
    const before = digest(join(cwd, "s.db"));
    const refusals = [
      ["runs", "prune", ...store],
      ["runs", "prune", ...store, "--thread", "t"],
      ["runs", "prune", ...store, "--keep", "-1"],
      ["runs", "prune", ...store, "--keep", "1.5"],
      ["runs", "prune", ...store, "--older-than", "soon"],
      ["runs", "prune", ...store, "--keep", "1", "--last", "1"],
    ];
    for (const args of refusals) {
      const refused = await json(args, cwd);
      expect([args.slice(3).join(" "), refused.code, (refused.json.error as { code: string }).code]).toEqual([
        args.slice(3).join(" "),
        2,
        "USAGE",
      ]);
    }
    const neither = await json(["runs", "prune", ...store, "--thread", "t"], cwd);
    expect(neither.json).toEqual({
      error: {
        code: "USAGE",
        message: expect.stringMatching(
          /^runs prune needs --keep <n> or --older-than <ms> \(or both\) \(--keep 20 keeps/,
        ),
        hint: expect.stringMatching(/^--keep 20 keeps/),
      },
    });
    expect(digest(join(cwd, "s.db"))).toBe(before);
  });

  it("a thread edited only by state set: its old edits' records go, and the text says so (not 'nothing pruned')", async () => {
    const cwd = tempDir();
    for (const value of ["1", "2", "3"])
      expect(
        (await cli(["state", "set", ...store, "--thread", "e", "--ref", "†state.n", "--value", value], cwd))
          .code,
      ).toBe(0);
    const pruned = await cli(["runs", "prune", ...store, "--thread", "e", "--keep", "1"], cwd);
    expect(pruned).toEqual({
      code: 0,
      stdout: "✓ pruned 2 call records of state set/unset edits of thread e (no finished run matched)\n",
    });
    // the edit whose value the thread holds stays: pruning again removes nothing
    const again = await cli(["runs", "prune", ...store, "--thread", "e", "--keep", "1"], cwd);
    expect(again).toEqual({ code: 0, stdout: "no finished run of thread e matched: nothing pruned\n" });
  });

  it("a store without runs, or a thread it does not hold, has nothing to prune; a missing default store is not created", async () => {
    const cwd = await history();
    const before = digest(join(cwd, "s.db"));
    const ghost = await cli(["runs", "prune", ...store, "--thread", "ghost", "--keep", "0"], cwd);
    expect(ghost).toEqual({ code: 0, stdout: "no finished run of thread ghost matched: nothing pruned\n" });
    expect(digest(join(cwd, "s.db"))).toBe(before);
    const fresh = tempDir();
    expect(await json(["runs", "prune", "--keep", "0"], fresh)).toEqual({
      code: 0,
      json: { ok: true, runIds: [], callRecords: 0, keptCallRecords: 0, busyThreads: [] },
    });
    expect(await cli(["state", "delete", "--thread", "t"], fresh)).toEqual({
      code: 0,
      stdout: "thread t does not exist: nothing to delete\n",
    });
    expect(readdirSync(fresh)).toEqual([]);
  });
});

describe("obelisk state delete", () => {
  it("removes the thread's values and history and says how much; the same plan then runs again", async () => {
    const cwd = await history();
    const deleted = await json(["state", "delete", ...store, "--thread", "t"], cwd);
    expect(deleted).toEqual({
      code: 0,
      json: { ok: true, threadId: "t", deleted: true, runs: 3, callRecords: 3, variables: 1 },
    });
    expect(await runIds(cwd, "t")).toEqual([]);
    expect(await runIds(cwd, "u")).toHaveLength(1);
    const got = await json(["state", "get", ...store, "--thread", "t", "--ref", "†state.loud"], cwd);
    expect(got.code).toBe(1);
    const ran = await shout(cwd, "t", "c");
    expect((ran.calls as Record<string, { status: string }>).loud?.status).toBe("succeeded");
    const text = await cli(["state", "delete", ...store, "--thread", "u"], cwd);
    expect(text).toEqual({
      code: 0,
      stdout:
        "✓ deleted thread u: 1 run, 1 call record, 1 variable\n" +
        "a thread named u from now on is new: its automatic call ids start at 1 again, so tools' ctx.idempotencyKey values of the deleted thread repeat\n",
    });
  });

  it("a thread the store does not hold: nothing to delete, exit 0, the file byte for byte as it was", async () => {
    const cwd = await history();
    const before = digest(join(cwd, "s.db"));
    expect(await json(["state", "delete", ...store, "--thread", "ghost"], cwd)).toEqual({
      code: 0,
      json: { ok: true, threadId: "ghost", deleted: false, runs: 0, callRecords: 0, variables: 0 },
    });
    const text = await cli(["state", "delete", ...store, "--thread", "ghost"], cwd);
    expect(text).toEqual({ code: 0, stdout: "thread ghost does not exist: nothing to delete\n" });
    expect(digest(join(cwd, "s.db"))).toBe(before);
  });

  it("needs --thread: it is not defaulted to the default thread (usage error, exit 2, nothing removed)", async () => {
    const cwd = tempDir();
    await shout(cwd, "default", "d");
    const refused = await json(["state", "delete", ...store], cwd);
    expect(refused.code).toBe(2);
    expect(refused.json).toEqual({ error: { code: "USAGE", message: expect.stringContaining("--thread") } });
    expect(await runIds(cwd, "default")).toHaveLength(1);
  });
});
