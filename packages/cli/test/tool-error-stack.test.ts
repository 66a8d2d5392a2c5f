import { describe, expect, it } from "vitest";
import { fixture, inProcess, inProcessJson, tempDir } from "./cli-harness.js";

/** A frame of the stack of the error `explode` (tools.mjs) throws: ` at run (…/tools.mjs:12:…)`. */
const FRAME = /at .*tools\.mjs:\d+/;

describe("a tool's exception: its stack with --verbose or OBELISK_DEBUG, and in runs show --format json (review s32 M8)", () => {
  const run = [
    "run",
    fixture("failing-plan.json"),
    "--tools",
    fixture("tools.mjs"),
    "--store",
    "sqlite:s.db",
  ];

  it("run prints the failed call's stack below its line only when asked", async () => {
    const cwd = tempDir();
    const plain = await inProcess(run, cwd);
    expect(plain.code).toBe(1);
    expect(plain.stdout).toContain("EXPLODED: kaboom");
    expect(plain.stdout).not.toMatch(FRAME);
    for (const [args, env] of [
      [[...run, "--verbose"], {}],
      [run, { OBELISK_DEBUG: "1" }],
    ] as const) {
      const shown = await inProcess(args, cwd, env);
      expect(shown.code).toBe(1);
      expect(shown.stdout).toMatch(/EXPLODED: kaboom\n\s+Error: kaboom\n\s+at /);
      expect(shown.stdout).toMatch(FRAME);
    }
  });

  it("runs show --format json gives the stored record's stack; the run result does not", async () => {
    const cwd = tempDir();
    const ran = await inProcessJson(run, cwd);
    expect(JSON.stringify(ran.json)).not.toMatch(FRAME);
    const shown = await inProcessJson(
      ["runs", "show", String(ran.json.runId), "--store", "sqlite:s.db"],
      cwd,
    );
    const calls = shown.json.calls as { callId: string; error?: { stack?: string } }[];
    expect(calls.find((call) => call.callId === "boom")?.error?.stack).toMatch(FRAME);
  });
});
