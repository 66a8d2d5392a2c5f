import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createEngine, ENGINE_CLOSED_REASON } from "obelisk";
import { createSqliteStore } from "obelisk/sqlite";
import { describe, expect, it } from "vitest";
import { fixture, inProcess, inProcessJson, obeliskSpawned, tempDir } from "./cli-harness.js";

const tools = fixture("misbehaving-tools.mjs");
const digest = (file: string): string => createHash("sha256").update(readFileSync(file)).digest("hex");

/** A store whose one run was killed (SIGKILL) mid-call: its record stays `running`, its lock row names a gone pid. */
async function killedRun(): Promise<{ cwd: string; runId: string }> {
  const cwd = tempDir();
  await inProcess(
    [
      "run",
      fixture("shout-plan.json"),
      "--tools",
      fixture("tools.js"),
      "--input",
      '{"word":"a"}',
      "--store",
      "sqlite:s.db",
    ],
    cwd,
  );
  const args = ["run", fixture("stubborn-plan.json"), "--tools", tools, "--store", "sqlite:s.db"];
  const killed = await obeliskSpawned(args, cwd, { when: "stubborn started", signal: "SIGKILL" });
  expect(killed.code).not.toBe(0);
  const listed = await inProcessJson(["runs", "list", "--store", "sqlite:s.db", "--limit", "1"], cwd);
  const runId = (listed.json.runs as { runId: string }[])[0]?.runId ?? "";
  return { cwd, runId };
}

describe.concurrent("obelisk runs list --status, and interrupted runs in runs list and runs show", {
  timeout: 120_000,
}, () => {
  it("lists the runs of one status; a killed run is interrupted, and --status interrupted finds it", async () => {
    const { cwd, runId } = await killedRun();
    const store = ["--store", "sqlite:s.db"];
    const before = digest(join(cwd, "s.db"));
    const all = await inProcessJson(["runs", "list", ...store], cwd);
    expect((all.json.runs as { status: string }[]).map((run) => run.status)).toEqual([
      "interrupted",
      "succeeded",
    ]);
    const interrupted = await inProcessJson(["runs", "list", ...store, "--status", "interrupted"], cwd);
    expect(interrupted.code).toBe(0);
    expect(interrupted.json).toEqual({
      runs: [
        expect.objectContaining({
          runId,
          status: "interrupted",
          endedAt: expect.any(String),
          reason: expect.stringMatching(/pid \d+ on .* is gone/),
        }),
      ],
    });
    const succeeded = await inProcessJson(["runs", "list", ...store, "--status", "succeeded"], cwd);
    expect((succeeded.json.runs as { status: string }[]).map((run) => run.status)).toEqual(["succeeded"]);
    const running = await inProcess(["runs", "list", ...store, "--status", "running"], cwd);
    expect(running).toMatchObject({ code: 0, stdout: "no running runs\n" });
    const text = await inProcess(["runs", "list", ...store], cwd);
    expect(text.stdout).toMatch(new RegExp(`${runId}\\s+default\\s+interrupted\\s`));
    expect(text.stdout).toContain(
      "continue one with obelisk resume <run> --tools <module> --store sqlite:s.db",
    );
    // listing reads the store read-only: the file is left as it was
    expect(digest(join(cwd, "s.db"))).toBe(before);
  });

  it("runs show prints an interrupted run's status and reason, and how to continue it, in text and json", async () => {
    const { cwd, runId } = await killedRun();
    const text = await inProcess(["runs", "show", runId, "--store", "sqlite:s.db"], cwd);
    expect(text.code).toBe(0);
    const lines = text.stdout.split("\n");
    // the call in flight when it was killed has no record: it is listed as not finished
    expect(lines[0]).toBe("Run interrupted — 0 call records, 1 call not finished");
    expect(text.stdout).toMatch(
      /\n {2}not finished when the run stopped \(no record\)\n {2}call +tool\n {2}slow +stubborn\n/,
    );
    expect(text.stdout).toMatch(/started \S+ · found interrupted \S+/);
    expect(text.stdout).toMatch(/ {2}reason the process holding thread "default" \(pid \d+ on .*\) is gone/);
    expect(text.stdout).toContain(`obelisk resume ${runId} --tools <module> --store sqlite:s.db`);
    const json = await inProcessJson(["runs", "show", runId, "--store", "sqlite:s.db"], cwd);
    expect(json.json).toMatchObject({ run: { runId, status: "interrupted", reason: expect.any(String) } });
    expect(json.json).toMatchObject({ calls: [], unfinished: [{ callId: "slow", tool: "stubborn" }] });
  });

  it("runs cancel gives an interrupted run up without running anything (decision 0043)", async () => {
    const { cwd, runId } = await killedRun();
    const store = ["--store", "sqlite:s.db"];
    const cancelled = await inProcessJson(
      ["runs", "cancel", runId, ...store, "--reason", "tool renamed"],
      cwd,
    );
    expect(cancelled.code).toBe(0);
    expect(cancelled.json).toMatchObject({
      ok: true,
      cancelled: [runId],
      run: { runId, status: "cancelled" },
    });
    expect((cancelled.json.run as { reason: string }).reason).toMatch(/^tool renamed/);
    const left = await inProcessJson(["runs", "list", ...store, "--status", "interrupted"], cwd);
    expect(left.json).toEqual({ runs: [] });
    // again: it has ended, nothing changes; text says so
    const again = await inProcess(["runs", "cancel", runId, ...store], cwd);
    expect(again).toMatchObject({
      code: 0,
      stdout: `run ${runId} had already ended (cancelled): nothing cancelled\n`,
    });
    const unknown = await inProcessJson(["runs", "cancel", "no-such-run", ...store], cwd);
    expect(unknown.code).toBe(2);
    expect(unknown.json).toMatchObject({ error: { code: "RUN_NOT_FOUND" } });
  });

  it("a run engine.close() stopped (decision 0030) is interrupted with the engine's reason: runs show gives its duration and says its engine was closed", async () => {
    const cwd = tempDir();
    let started = (): void => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const hang = {
      name: "hang",
      input: { type: "object" },
      run: (_args: unknown, ctx: { readonly signal: AbortSignal }) => {
        started();
        return new Promise((_resolve, reject) =>
          ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason)),
        );
      },
    };
    const engine = createEngine({ tools: [hang], store: createSqliteStore(join(cwd, "s.db")) });
    const result = engine.run([{ _tool: "hang", _id: "h" }], { threadId: "deploy" });
    await running;
    await engine.close();
    const { runId } = await result;
    const text = await inProcess(["runs", "show", runId, "--store", "sqlite:s.db"], cwd);
    expect(text.code).toBe(0);
    expect(text.stdout.split("\n")[0]).toMatch(/^Run interrupted in [^—]+ — 1 call record$/);
    expect(text.stdout).toMatch(/started \S+ · ended \S+/);
    expect(text.stdout).toContain(
      "\n  reason the engine was closed (engine.close()) while this run was in progress\n",
    );
    expect(text.stdout).toContain(
      `its engine was closed before it ended; continue it (completed calls are satisfied): obelisk resume ${runId}`,
    );
    const listed = await inProcessJson(
      ["runs", "list", "--store", "sqlite:s.db", "--status", "interrupted"],
      cwd,
    );
    expect(listed.json).toEqual({ runs: [expect.objectContaining({ runId, status: "interrupted" })] });
    expect(listed.json.runs).toEqual([expect.objectContaining({ reason: ENGINE_CLOSED_REASON })]);
  });

  it("a status that is none is a usage error naming the nearest one (exit 2), before the store is opened", async () => {
    const cwd = tempDir();
    for (const [given, hint] of [
      ["interupted", 'did you mean "interrupted"?'],
      ["done", "one of running, succeeded, failed, cancelled, interrupted"],
    ]) {
      const result = await inProcessJson(
        ["runs", "list", "--store", "sqlite:missing.db", "--status", given as string],
        cwd,
      );
      expect(result.code).toBe(2);
      expect(result.json).toEqual({
        error: { code: "USAGE", message: expect.stringContaining(`unknown run status "${given}" (${hint})`) },
      });
    }
  });
});
