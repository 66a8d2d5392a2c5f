import { execFile } from "node:child_process";
import { describe, expect, it } from "vitest";
import { type CliResult, example, inProcess, ROOT, tempDir } from "./cli-harness.js";

const plan = example("greeting", "plan.json");
const tools = example("greeting", "tools.ts");
const args = [plan, "--tools", tools, "--input", '{"userName":"Ada"}', "--thread", "t"];

/** What pnpm and npm set for a package script named obelisk (`pnpm obelisk …`, `npm run obelisk -- …`). */
const THROUGH = {
  pnpm: {
    npm_lifecycle_event: "obelisk",
    npm_config_user_agent: "pnpm/10.34.9 npm/? node/v20.20.2 linux x64",
  },
  npm: { npm_lifecycle_event: "obelisk", npm_config_user_agent: "npm/11.19.1 node/v20.20.2 linux x64" },
  otherScript: { npm_lifecycle_event: "test", npm_config_user_agent: "pnpm/10.34.9 npm/? node/v20.20.2" },
};

/** The root package.json's script that runs the CLI, as pnpm is given it (quiet: no banner). */
const ROOT_SCRIPT = ["--silent", "obelisk"];

/** Spawns `pnpm obelisk …` in the repository: the root script, as the README says to type it. */
function pnpmObelisk(words: readonly string[]): Promise<CliResult> {
  return new Promise((done) => {
    execFile(
      "pnpm",
      [...ROOT_SCRIPT, ...words],
      { cwd: ROOT, timeout: 60_000, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "" } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        done({ code, stdout, stderr });
      },
    );
  });
}

describe("after a run on a store that ends with the command", () => {
  it("sqlite::memory: says so and names a file, instead of suggesting to inspect what was stored", async () => {
    const run = await inProcess(["run", ...args, "--store", "sqlite::memory:"], tempDir());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("sqlite::memory: is a SQLite database in memory: it ends with this command");
    expect(run.stdout).not.toContain("inspect what was stored");
    const memory = await inProcess(["run", ...args, "--store", "memory"], tempDir());
    expect(memory.stdout).toContain("the memory store ends with this command");
  });
});

describe("suggested commands start as the CLI was started", () => {
  it("with pnpm obelisk when the root script obelisk started it", async () => {
    const started = await pnpmObelisk(["validate", plan, "--tools", tools, "--store", "memory"]);
    expect(started.code).toBe(0);
    expect(started.stdout).toContain(`approve and run it with: pnpm obelisk run ${plan} --tools ${tools}`);
    const missing = await pnpmObelisk(["state"]);
    expect(missing.stderr).toContain("missing command: see pnpm obelisk state --help");
  });

  it("after a run, in validate's command and in an error's hint: pnpm obelisk, npm run obelisk --", async () => {
    const cwd = tempDir();
    for (const [through, command] of [
      [THROUGH.pnpm, "pnpm obelisk"],
      [THROUGH.npm, "npm run obelisk --"],
    ] as const) {
      const valid = await inProcess(["validate", ...args], cwd, through);
      expect(valid.stdout).toContain(`approve and run it with: ${command} run ${plan} --tools ${tools}`);
      const run = await inProcess(["run", ...args], cwd, through);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`inspect what was stored: ${command} state summary --thread t`);
      const unknown = await inProcess(["runs", "show", "no-such-run"], cwd, through);
      expect(unknown.stderr).toContain(`(${command} runs list lists the recorded runs`);
    }
  });

  it("with obelisk when no script named obelisk started it", async () => {
    const run = await inProcess(["run", ...args], tempDir(), THROUGH.otherScript);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("inspect what was stored: obelisk state summary --thread t");
    expect(run.stdout).not.toContain("pnpm obelisk");
  });
});
