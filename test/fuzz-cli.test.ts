import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "@obelisk/cli";
import fc from "fast-check";
import { createSqliteStore } from "obelisk/sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { diagnosticProblems } from "./support/check-diagnostics.js";
import { withSeed } from "./support/fuzz-seed.js";
import { FUZZ_INPUT, validPlan } from "./support/plan-generators.js";
import { mutatePlan, mutationSeed } from "./support/plan-mutations.js";
import { storeSnapshot } from "./support/store-snapshot.js";

const TOOLS = fileURLToPath(new URL("./fixtures/cli-tools.mjs", import.meta.url));
const workDir = mkdtempSync(join(tmpdir(), "obelisk-cli-fuzz-"));
const DB = join(workDir, "state.db");
const STACK_LINE = /^\s+at .+[(:]/m;
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

/** Runs the CLI in-process with captured streams. */
async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { NO_COLOR: "1" },
    cwd: workDir,
  });
  return { code, stdout, stderr };
}

/** Figures for docs/reliability.md. */
export const cliCases = { documents: 0, runs: 0 };
afterAll(() => {
  console.log(`fuzz-cli figures: ${JSON.stringify(cliCases)}`);
});

describe("front door through the CLI (validate and run, --format json, SQLite store)", () => {
  it("exit code 0/1, one JSON document on stdout, no stack trace, a refused plan leaves the store as it was", async () => {
    const seeded = await cli([
      "state",
      "set",
      "--store",
      `sqlite:${DB}`,
      "--thread",
      "t",
      "--ref",
      "†state.seeded",
      "--value",
      "[1,2,3]",
    ]);
    expect(seeded.code).toBe(0);
    let index = 0;
    await withSeed("cli fuzz", (seed) =>
      fc.assert(
        fc.asyncProperty(validPlan, mutationSeed, async (plan, mutation) => {
          cliCases.documents += 1;
          const file = join(workDir, `plan-${index++ % 4}.json`);
          const text = JSON.stringify(mutatePlan(plan, mutation));
          writeFileSync(file, text);
          const input = JSON.stringify(FUZZ_INPUT);
          const common = [
            "--tools",
            TOOLS,
            "--format",
            "json",
            "--input",
            input,
            "--store",
            `sqlite:${DB}`,
            "--thread",
            "t",
          ];
          const validated = await cli(["validate", file, ...common]);
          expect([0, 1]).toContain(validated.code);
          expect(validated.stderr).not.toMatch(STACK_LINE);
          const report = JSON.parse(validated.stdout) as { ok: boolean; diagnostics: never[] };
          expect(diagnosticProblems(text, report.ok, report.diagnostics)).toEqual([]);
          expect(validated.code).toBe(report.ok ? 0 : 1);

          const store = createSqliteStore(DB);
          const before = await storeSnapshot(store, "t");
          await store.close();
          cliCases.runs += 1;
          const ran = await cli(["run", file, ...common]);
          expect([0, 1]).toContain(ran.code);
          expect(ran.stderr).not.toMatch(STACK_LINE);
          expect(() => JSON.parse(ran.stdout)).not.toThrow();
          if (!report.ok) {
            const after = createSqliteStore(DB);
            expect(await storeSnapshot(after, "t")).toBe(before);
            await after.close();
          }
        }),
        { seed, numRuns: 60 },
      ),
    );
  });

  it.each([
    ["a missing plan file", ["validate", "missing.json", "--tools", TOOLS]],
    ["a missing tools module", ["validate", TOOLS, "--tools", "missing.mjs"]],
    ["an unknown flag", ["run", TOOLS, "--tools", TOOLS, "--no-such-flag"]],
    ["an unknown store scheme", ["run", TOOLS, "--tools", TOOLS, "--store", "postgres://x"]],
    ["a bad --input", ["validate", TOOLS, "--tools", TOOLS, "--input", "{not json"]],
  ])("%s is a usage error: exit 2, one line on stderr, no stack trace", async (_label, args) => {
    const result = await cli(args);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n").length).toBeGreaterThanOrEqual(1);
    expect(result.stderr).not.toMatch(STACK_LINE);
  });
});
