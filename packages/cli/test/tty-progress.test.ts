import { describe, expect, it } from "vitest";
import type { CliIo } from "../src/cli-io.js";
import { main } from "../src/main.js";
import { fixture, tempDir } from "./cli-harness.js";

// biome-ignore lint/suspicious/noControlCharactersInRegex: looks for ANSI colour codes
const ANSI_COLOUR = /\x1b\[\d+m/;
const CLEAR_LINE = "\r\x1b[2K";

/** Runs the CLI in-process with a stdout that says it is a terminal. */
async function onTerminal(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdout: { isTTY: true, columns: 100, write: (text: string) => (stdout += text) },
    stderr: { isTTY: true, write: (text: string) => (stderr += text) },
    env,
    cwd: tempDir(),
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

const RUN = ["run", fixture("failing-plan.json"), "--tools", fixture("tools.mjs"), "--store", "memory"];

describe("obelisk run on a terminal", () => {
  it("redraws a live status line (pending / running / done / blocked, elapsed) and uses colours", async () => {
    const { code, stdout } = await onTerminal(RUN, {});
    expect(code).toBe(1);
    expect(stdout).toContain(CLEAR_LINE);
    expect(stdout).toMatch(/\d+ pending\S* · \S*\d+ running\S* · \S*\d+ done/);
    expect(stdout).toMatch(/\d+ blocked\S* \S*[\d.]+ m?s/);
    expect(stdout).toMatch(ANSI_COLOUR);
    expect(stdout).toContain("boom");
    expect(stdout).toContain("independent");
    // The status line is cleared before the final table.
    const table = stdout.lastIndexOf("Run failed");
    expect(stdout.lastIndexOf(CLEAR_LINE)).toBeLessThan(table);
  });

  it("keeps the live line but drops colours with NO_COLOR", async () => {
    const { stdout } = await onTerminal(RUN, { NO_COLOR: "1" });
    expect(stdout).toContain(CLEAR_LINE);
    expect(stdout).toMatch(/\d+ pending · \d+ running · \d+ done · \d+ failed · \d+ blocked [\d.]+ m?s/);
    expect(stdout).not.toMatch(ANSI_COLOUR);
  });

  it("prints only the JSON document in json format, even on a terminal", async () => {
    const { code, stdout } = await onTerminal([...RUN, "--format", "json"], {});
    expect(code).toBe(1);
    expect(stdout).not.toContain("\x1b");
    expect(JSON.parse(stdout)).toMatchObject({ status: "failed", calls: { boom: { status: "failed" } } });
  });

  it("renders usage errors on stderr in colour only on a terminal without NO_COLOR", async () => {
    const coloured = await onTerminal(["validate", "missing.json", "--tools", fixture("tools.mjs")], {});
    expect(coloured.code).toBe(2);
    expect(coloured.stderr).toMatch(ANSI_COLOUR);
    expect(coloured.stdout).toBe("");
    const plain = await onTerminal(["validate", "missing.json", "--tools", fixture("tools.mjs")], {
      NO_COLOR: "1",
    });
    expect(plain.stderr).toMatch(/^error \[USAGE\] [^\n]+\n$/);
    expect(plain.stderr).not.toContain("\x1b");
  });
});
