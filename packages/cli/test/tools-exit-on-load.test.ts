import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { example, obelisk, tempDir } from "./cli-harness.js";

const dir = tempDir();
// exits at once, and after a top-level await (a module waiting for its config, then giving up)
writeFileSync(join(dir, "exits.mjs"), "process.exit(0);\n");
writeFileSync(join(dir, "exits-later.mjs"), "await Promise.resolve();\nprocess.exit(3);\n");
// loads, and leaves a timer that exits (0, then 3) once the load is over; a tool that leaves one when it runs
const greetUser = (run: string) =>
  `export default [{ name: "greetUser", description: "greets", input: { type: "object" }, run: ${run} }];\n`;
writeFileSync(
  join(dir, "timer-exits.mjs"),
  `setImmediate(() => process.exit(0));\n${greetUser("async () => ({})")}`,
);
writeFileSync(
  join(dir, "timer-exits-3.mjs"),
  `setImmediate(() => process.exit(3));\n${greetUser("async () => ({})")}`,
);
writeFileSync(
  join(dir, "tool-timer-exits.mjs"),
  greetUser("async () => { setImmediate(() => process.exit(0)); return { text: 'hi' }; }"),
);

describe("a tools module that calls process.exit while it loads", () => {
  it("is a tools module that does not load: exit 2, USAGE on stderr, one JSON document with --format json", async () => {
    const plan = example("greeting", "plan.json");
    const text = await obelisk(["validate", plan, "--tools", "exits.mjs"], dir);
    expect(text.code).toBe(2);
    expect(text.stdout).toBe("");
    expect(text.stderr).toContain(
      "error [USAGE] tools module exits.mjs failed to load: it called process.exit(0) while loading",
    );
    const json = await obelisk(
      ["run", plan, "--tools", "exits-later.mjs", "--store", "memory", "--format", "json"],
      dir,
    );
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: { code: "USAGE", message: expect.stringContaining("it called process.exit(3) while loading") },
    });
  });
});

describe("a tools module that calls process.exit once it has loaded (a timer it left running; review, stop 32)", () => {
  const plan = example("greeting", "plan.json");
  const input = ["--input", '{"userName":"Ada"}'];

  it("is an error naming the module, exit 1 whatever code it gave: the command's outcome is not lost silently", async () => {
    // validate is cut short (its result never printed) or has just printed it: either way not exit 0
    const text = await obelisk(["validate", plan, "--tools", "timer-exits.mjs", ...input], dir);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain("error [TOOL_ERROR] tools module timer-exits.mjs called process.exit(0)");
    expect(text.stderr).not.toContain("    at ");
    // json: stdout is still one JSON document (the error's, or the command's own), exit 1, not the module's 3
    const json = await obelisk(["graph", plan, "--tools", "timer-exits-3.mjs", "--format", "json"], dir);
    expect(json.code).toBe(1);
    expect(() => JSON.parse(json.stdout)).not.toThrow();
    expect(json.stderr).toContain("tools module timer-exits-3.mjs called process.exit(3)");
  });

  it("a tool's timer that exits once the run ended: exit 1, not the tool's 0", async () => {
    const args = ["run", plan, "--tools", "tool-timer-exits.mjs", ...input, "--store", "memory"];
    const run = await obelisk(args, dir);
    expect(run.code).toBe(1);
    // during the run, run-cancellation reports it; once the run ended, the bin does, naming the module
    expect(run.stderr).toMatch(/error \[TOOL_ERROR\] .*process\.exit\(0\)/);
  });
});
