import { describe, expect, it } from "vitest";
import { fixture, inProcess, inProcessJson, tempDir } from "./cli-harness.js";

/** A frame of the stack of the error `explode` (tools.mjs) throws: ` at run (…/tools.mjs:12:…)`. */
const FRAME = /at .*tools\.mjs:\d+/;

describe("a tool's exception: its stack with --verbose or OBELISK_DEBUG, and in runs show --format json (decision 0049)", () => {
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

  it("runs show in text: the stack below the table only with --verbose or OBELISK_DEBUG, else how to see it", async () => {
    const cwd = tempDir();
    const ran = await inProcessJson(run, cwd);
    const runId = String(ran.json.runId);
    const show = ["runs", "show", runId, "--store", "sqlite:s.db"];
    const plain = await inProcess(show, cwd);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/boom\s+explode\s+✗ failed\s+1\s+— EXPLODED: kaboom\n/);
    expect(plain.stdout).not.toMatch(FRAME);
    expect(plain.stdout).toContain(
      `the stack of the error a tool threw: obelisk runs show ${runId} --store sqlite:s.db --verbose`,
    );
    for (const [args, env] of [
      [[...show, "--verbose"], {}],
      [show, { OBELISK_DEBUG: "1" }],
    ] as const) {
      const shown = await inProcess(args, cwd, env);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toMatch(/\n {2}boom \(explode\)\n\s+Error: kaboom\n\s+at /);
      expect(shown.stdout).toMatch(FRAME);
      expect(shown.stdout).not.toContain("--verbose");
    }
  });
});
