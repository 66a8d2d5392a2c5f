import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliInProcess, fixture, tempDir } from "./cli-harness.js";

declare global {
  var obeliskTestGate: Promise<void> | undefined;
  var obeliskTestStarted: (() => void) | undefined;
}

/** Runs the CLI in-process (from source) with `--format json`; returns the exit code and the parsed stdout. */
async function cli(args: string[], cwd: string): Promise<{ code: number; json: Record<string, unknown> }> {
  const { code, stdout } = await cliInProcess([...args, "--format", "json"], cwd);
  return { code, json: JSON.parse(stdout) as Record<string, unknown> };
}

describe("obelisk state set / unset / reset / keep / delete and runs prune while a run holds the thread", () => {
  it("are refused with THREAD_BUSY (exit 1) and change nothing", async () => {
    const cwd = tempDir();
    const store = ["--store", "sqlite:state.db", "--thread", "t"];
    expect((await cli(["state", "set", ...store, "--ref", "†state.a", "--value", "1"], cwd)).code).toBe(0);
    // a finished run on the thread: runs prune has a run to leave alone
    writeFileSync(join(cwd, "first.json"), JSON.stringify([{ _tool: "hold", _outputPath: "†state.h0" }]));
    expect((await cli(["run", "first.json", "--tools", fixture("gate-tools.mjs"), ...store], cwd)).code).toBe(
      0,
    );
    writeFileSync(join(cwd, "plan.json"), JSON.stringify([{ _tool: "hold", _outputPath: "†state.h" }]));
    let open!: () => void;
    globalThis.obeliskTestGate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const started = new Promise<void>((resolve) => {
      globalThis.obeliskTestStarted = resolve;
    });
    try {
      const run = cli(["run", "plan.json", "--tools", fixture("gate-tools.mjs"), ...store], cwd);
      await started;
      const edits = [
        ["state", "set", ...store, "--ref", "†state.a", "--value", "2"],
        ["state", "unset", ...store, "--ref", "†state.a"],
        ["state", "reset", ...store],
        ["state", "keep", ...store, "--last", "0"],
        ["state", "delete", ...store],
        ["runs", "prune", ...store, "--keep", "0"],
      ];
      for (const edit of edits) {
        const refused = await cli(edit, cwd);
        expect([edit[1], refused.code, (refused.json.error as { code?: string })?.code]).toEqual([
          edit[1],
          1,
          "THREAD_BUSY",
        ]);
      }
      // every thread's runs: the held thread is left alone and named, not an error
      const everyThread = await cli(["runs", "prune", "--store", "sqlite:state.db", "--keep", "0"], cwd);
      expect(everyThread).toEqual({
        code: 0,
        json: { ok: true, runIds: [], callRecords: 0, keptCallRecords: 0, busyThreads: ["t"] },
      });
      open();
      const result = await run;
      expect(result.code).toBe(0);
      expect(result.json.state).toEqual({ a: 1, h0: "held", h: "held" });
    } finally {
      open();
      globalThis.obeliskTestGate = undefined;
      globalThis.obeliskTestStarted = undefined;
    }
  });
});
