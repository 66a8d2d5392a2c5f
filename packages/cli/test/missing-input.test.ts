import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixture, inProcess, tempDir } from "./cli-harness.js";

// Decision 0103 (review s41 r2 #2): `validate` without --input said "✓ plan is valid" and suggested
// `obelisk run plan.json --tools … --approved …`, which, pasted, ran with an empty input and was refused
// with "✗ plan is invalid: 1 error" — the plan blamed for the input nobody gave.

const tools = fixture("tools.js");
const cwd = tempDir();
const write = (name: string, text: string): string => {
  writeFileSync(join(cwd, name), text);
  return name;
};
const reads = write("reads.json", readFileSync(fixture("shout-plan.json"), "utf8"));
const requires = write(
  "requires.json",
  '{ "inputSchema": { "type": "object", "required": ["id"] }, "plan": [{ "_tool": "shout", "_id": "s", "text": "hi" }] }',
);
const noInput = write("no-input.json", '[{ "_tool": "shout", "_id": "s", "text": "hi" }]');
// the same plan as reads.json with †input spelt in JSON escapes (review s41 rev1 #3: same hash, no advice)
const escaped = write(
  "escaped.json",
  '{ "type": "plan", "plan": [{ "_tool": "shout", "_id": "loud", "text": "\\u2020\\u0069nput.word", "_outputPath": "†state.loud" }] }',
);

/** The `obelisk …` command a valid plan's validate output ends with (the words after `obelisk`). */
function suggested(stdout: string): string {
  const line = stdout.split("\n").find((l) => l.startsWith("approve and run it with: obelisk "));
  if (line === undefined) throw new Error(`no suggested command in:\n${stdout}`);
  return line.slice("approve and run it with: obelisk ".length);
}

describe.concurrent("a plan that needs an input, checked and run without one", { timeout: 120_000 }, () => {
  it("validate stays valid; its suggested run gives --input in the form to fill in, and says why", async () => {
    const validated = await inProcess(["validate", reads, "--tools", tools], cwd);
    expect(validated.code).toBe(0);
    expect(validated.stdout).toContain("✓ plan is valid");
    expect(suggested(validated.stdout)).toMatch(
      /^run reads\.json --tools \S+ --input '\{"word": …\}' --approved sha256:[0-9a-f]{64}$/,
    );
    expect(validated.stdout).toContain(
      "(the run needs an input: put it in place of … — without --input the run is refused)",
    );
  });

  it("filled in, the suggested command runs; without --input, the verdict blames the missing input", async () => {
    const words = suggested((await inProcess(["validate", reads, "--tools", tools], cwd)).stdout)
      .replace(`'{"word": …}'`, "INPUT")
      .split(" ")
      .map((word) => (word === "INPUT" ? '{"word": "hi"}' : word));
    const filled = await inProcess([...words, "--store", "memory"], cwd);
    expect(filled.code).toBe(0);
    const bare = await inProcess(
      words
        .filter((_, i) => words[i - 1] !== "--input" && words[i] !== "--input")
        .concat("--store", "memory"),
      cwd,
    );
    expect(bare.code).toBe(1);
    expect(bare.stdout).toContain("✗ input is missing: 1 error, 0 warnings");
    expect(bare.stdout).not.toContain("plan is invalid");
  });

  it("an input schema's refusal of the empty input is the missing input's too", async () => {
    const validated = await inProcess(["validate", requires, "--tools", tools], cwd);
    expect(suggested(validated.stdout)).toContain("--input '{…}' --approved");
    const run = await inProcess(["run", requires, "--tools", tools, "--store", "memory"], cwd);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("hint: no --input was given, so the run's input is empty");
    expect(run.stdout).toContain("✗ input is missing: 1 error, 0 warnings");
  });

  it("a plan whose †input is spelt in JSON escapes gets the same advice", async () => {
    const validated = await inProcess(["validate", escaped, "--tools", tools], cwd);
    expect(suggested(validated.stdout)).toContain(`--input '{"word": …}' --approved`);
  });

  it("a plan that needs no input is suggested without --input (one compile: its text names no input)", async () => {
    const validated = await inProcess(["validate", noInput, "--tools", tools], cwd);
    expect(suggested(validated.stdout)).not.toContain("--input");
    expect(validated.stdout).not.toContain("needs an input");
  });
});
