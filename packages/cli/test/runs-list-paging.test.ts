import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createEngine } from "obelisk";
import { createSqliteStore } from "obelisk/sqlite";
import { describe, expect, it } from "vitest";
import { expectOneLineError, fixture, inProcess, inProcessJson, tempDir } from "./cli-harness.js";

declare global {
  var obeliskTestGate: Promise<void> | undefined;
  var obeliskTestStarted: (() => void) | undefined;
}

// The s35 embedder review: `runs list` had no cursor for a long history (L3), and no way to find the running
// runs of a process that died in another container or on another host (H2, decision 0068). Decision 0074.

const dir = tempDir();
writeFileSync(join(dir, "tools.mjs"), 'export default [{ name: "give", run: () => 1 }];\n');
writeFileSync(join(dir, "plan.json"), '[{ "_tool": "give", "_rerun": true, "_outputPath": "†state.x" }]');

const runIds = (json: Record<string, unknown>): string[] =>
  (json.runs as { runId: string }[]).map((run) => run.runId);

describe("runs list --before <runId>: the next page", () => {
  it("pages newest first; the more line names the command for the next page", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "tools.mjs"), 'export default [{ name: "give", run: () => 1 }];\n');
    writeFileSync(join(cwd, "plan.json"), '[{ "_tool": "give", "_rerun": true, "_outputPath": "†state.x" }]');
    for (const thread of ["t", "t", "t", "t", "t", "u"])
      expect(
        (await inProcess(["run", "plan.json", "--tools", "tools.mjs", "--thread", thread], cwd)).code,
      ).toBe(0);
    const all = runIds((await inProcessJson(["runs", "list", "--thread", "t"], cwd)).json);
    expect(all).toHaveLength(5);
    const first = await inProcessJson(["runs", "list", "--thread", "t", "--limit", "2"], cwd);
    expect(first.json).toEqual({ runs: [expect.anything(), expect.anything()], more: true });
    const text = await inProcess(["runs", "list", "--thread", "t", "--limit", "2"], cwd);
    expect(text.stdout).toContain(
      `more runs match: these are the newest 2; the next 2: obelisk runs list --thread t --limit 2 --before ${all[1]}\n`,
    );
    const second = await inProcessJson(
      ["runs", "list", "--thread", "t", "--limit", "2", "--before", all[1] as string],
      cwd,
    );
    expect(runIds(second.json)).toEqual(all.slice(2, 4));
    expect(second.json.more).toBe(true);
    const secondText = await inProcess(
      ["runs", "list", "--thread", "t", "--limit", "2", "--before", all[1] as string],
      cwd,
    );
    expect(secondText.stdout).toContain(
      `more runs match: these are the 2 before ${all[1]}; the next 2: obelisk runs list --thread t --limit 2 --before ${all[3]}\n`,
    );
    const last = await inProcessJson(
      ["runs", "list", "--thread", "t", "--limit", "2", "--before", all[3] as string],
      cwd,
    );
    expect(last.json).toEqual({ runs: [expect.objectContaining({ runId: all[4] })] });
    const none = await inProcess(["runs", "list", "--thread", "t", "--before", all[4] as string], cwd);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe(`no runs recorded before ${all[4]}\n`);
  });

  it("a --before run the store does not hold is RUN_NOT_FOUND (exit 2), one of another thread a usage error", async () => {
    expect((await inProcess(["run", "plan.json", "--tools", "tools.mjs", "--thread", "u"], dir)).code).toBe(
      0,
    );
    const [other] = runIds((await inProcessJson(["runs", "list"], dir)).json);
    const unknown = await inProcess(["runs", "list", "--before", "nope"], dir);
    expectOneLineError(unknown, 2);
    expect(unknown.stderr).toContain('no run "nope" to list the runs before');
    expect(unknown.stderr).toContain("obelisk runs list without --before starts again from the newest");
    const json = await inProcessJson(["runs", "list", "--before", "nope"], dir);
    expect(json.code).toBe(2);
    expect(json.json).toMatchObject({
      error: { code: "RUN_NOT_FOUND", data: { runId: "nope", before: true } },
    });
    const elsewhere = await inProcess(["runs", "list", "--thread", "t", "--before", other as string], dir);
    expectOneLineError(elsewhere, 2);
    expect(elsewhere.stderr).toContain(
      `before names run "${other}" of thread "u", not of the listed thread "t"`,
    );
  });
});

describe("runs list --stale: the running runs no live process holds", () => {
  it("lists a running run whose holder sent no heartbeat for over 30 s, not one a live process holds", async () => {
    const cwd = tempDir();
    let started = (): void => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let open = (): void => {};
    globalThis.obeliskTestGate = new Promise<void>((resolve) => {
      open = resolve;
    });
    globalThis.obeliskTestStarted = () => started();
    const { default: gateTools } = (await import(fixture("gate-tools.mjs"))) as { default: unknown[] };
    // the dead holder's clock stands still: by the CLI's clock its heartbeat is months old
    const frozen = Date.UTC(2026, 0, 1);
    const dead = createEngine({
      tools: gateTools as never,
      store: createSqliteStore(join(cwd, "s.db"), { now: () => frozen, lock: { heartbeatMs: 29_000 } }),
    });
    const live = createEngine({ tools: gateTools as never, store: createSqliteStore(join(cwd, "s.db")) });
    try {
      const stale = await dead.open({ threadId: "t" });
      stale.add({ _tool: "hold", _id: "h", _outputPath: "†state.h" });
      await running;
      const held = await live.open({ threadId: "u" });
      held.add({ _tool: "hold", _id: "h", _outputPath: "†state.h" });
      const all = await inProcessJson(["runs", "list", "--store", "sqlite:s.db", "--status", "running"], cwd);
      expect(runIds(all.json).sort()).toEqual([stale.runId, held.runId].sort());
      const listed = await inProcessJson(["runs", "list", "--store", "sqlite:s.db", "--stale"], cwd);
      expect(listed.code).toBe(0);
      expect(runIds(listed.json)).toEqual([stale.runId]);
      // --status running says the same
      const named = await inProcessJson(
        ["runs", "list", "--store", "sqlite:s.db", "--stale", "--status", "running"],
        cwd,
      );
      expect(runIds(named.json)).toEqual([stale.runId]);
      const text = await inProcess(["runs", "list", "--store", "sqlite:s.db", "--stale"], cwd);
      expect(text.stdout).toContain(stale.runId);
      expect(text.stdout).not.toContain(held.runId);
      expect(text.stdout).toContain(
        "stale: no live process holds the run's thread (it died, in another container or on another host, or hangs); obelisk resume <run> --tools <module> --store sqlite:s.db takes the thread over and continues it, obelisk runs cancel <run> --store sqlite:s.db gives it up",
      );
      const empty = await inProcess(
        ["runs", "list", "--store", "sqlite:s.db", "--stale", "--thread", "u"],
        cwd,
      );
      expect(empty.stdout).toBe("no stale running runs\n");
      // reading changed nothing: both are still running
      expect((await live.runs.show(stale.runId)).run.status).toBe("running");
      open();
      expect((await held.close()).status).toBe("succeeded");
    } finally {
      open();
      await live.close().catch(() => undefined);
      await dead.close().catch(() => undefined);
      globalThis.obeliskTestGate = undefined;
      globalThis.obeliskTestStarted = undefined;
    }
  });

  it("--stale with another status than running is a usage error (exit 2)", async () => {
    const result = await inProcess(["runs", "list", "--stale", "--status", "failed"], dir);
    expectOneLineError(result, 2);
    expect(result.stderr).toContain("--stale lists running runs, not failed ones");
    expect(result.stderr).toContain("leave --status out (or give --status running) with --stale");
  });
});
