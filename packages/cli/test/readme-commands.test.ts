import { exec } from "node:child_process";
import { existsSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { inProcess, ROOT, tempDir } from "./cli-harness.js";

/** One command of a README's `sh` block. */
interface ReadmeCommand {
  /** The line as written. */
  readonly line: string;
  /**
   * What the shell runs: for `pnpm [-s] obelisk …`, a `printf` of the arguments as the shell reads them
   * (its quotes, the README's variables), which are then given to the CLI in-process (`argv`); for
   * `pnpm showcase`, the showcase script itself (a real process: the root script as typed).
   */
  readonly shell: string;
  /** True when the shell prints the CLI's arguments (NUL-separated) instead of running it. */
  readonly argv: boolean;
  /** Words a line of its stdout shows, in this order (from a `# → …` comment after it or on the next line). */
  readonly expects: string[][];
}

const SHOWCASE = (
  JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: { showcase: string } }
).scripts.showcase;
const OBELISK = /^pnpm (?:-s )?obelisk /;
const EXPECT = /(?:^|\s)#\s*→\s*(.+)$/;

/** The words of a `# → …` comment (`…` stands for anything). */
function expectedWords(comment: string): string[] {
  return comment.split(/\s+/).filter((word) => word !== "" && word !== "…");
}

/** True when one line of `stdout` shows `words` in order. */
function showsInOrder(stdout: string, words: readonly string[]): boolean {
  return stdout.split("\n").some((line) => {
    let at = 0;
    for (const word of words) {
      const found = line.indexOf(word, at);
      if (found < 0) return false;
      at = found + word.length;
    }
    return true;
  });
}

/** The `sh` blocks of a README, as commands (installs and the whole test suite are left out). */
function readmeCommands(file: string): ReadmeCommand[] {
  const blocks = [...readFileSync(file, "utf8").matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? "");
  const commands: ReadmeCommand[] = [];
  const variables: string[] = [];
  for (const raw of blocks.flatMap((block) => block.split("\n"))) {
    const expected = EXPECT.exec(raw)?.[1];
    const line = raw.replace(/(?:^|\s+)#\s.*$/, "").trim();
    const last = commands.at(-1);
    if (line === "" && expected !== undefined && last !== undefined)
      last.expects.push(expectedWords(expected));
    if (line === "" || /pnpm install|pnpm test$/.test(line)) continue;
    const expects = expected === undefined ? [] : [expectedWords(expected)];
    if (/^[A-Z_]+=\S+$/.test(line)) variables.push(line);
    else if (line === "pnpm showcase") commands.push({ line, shell: SHOWCASE, argv: false, expects });
    else if (OBELISK.test(line)) {
      const shell = [...variables, line.replace(OBELISK, "printf '%s\\0' ")].join("; ");
      commands.push({ line, shell, argv: true, expects });
    } else throw new Error(`${relative(ROOT, file)}: a README command the test does not know: ${line}`);
  }
  return commands;
}

/** A working directory that looks like the checkout (examples and the built CLI) with no store yet. */
function checkoutLike(): string {
  const dir = tempDir();
  symlinkSync(join(ROOT, "examples"), join(dir, "examples"));
  symlinkSync(join(ROOT, "packages"), join(dir, "packages"));
  // the tools modules the commands load in-process are transformed by vitest, which reads
  // examples/tsconfig.json and the root one it extends, by the path the module is imported from
  symlinkSync(join(ROOT, "tsconfig.json"), join(dir, "tsconfig.json"));
  return dir;
}

function sh(command: string, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    exec(
      command,
      { cwd, timeout: 120_000, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: "1" } },
      (error, stdout, stderr) =>
        done({ code: error === null ? 0 : Number(error.code ?? -1), stdout, stderr }),
    );
  });
}

/** Runs the CLI in-process with the arguments `shell` prints (NUL-separated), as a spawn of it would get them. */
async function cliWithArgumentsOf(
  shell: string,
  cwd: string,
): Promise<{ code: number | string; stdout: string; stderr: string }> {
  const printed = await sh(shell, cwd);
  expect(printed, shell).toMatchObject({ code: 0, stderr: "" });
  return inProcess(printed.stdout.split("\0").slice(0, -1), cwd, { NO_COLOR: "1" });
}

/**
 * Examples whose commands are `bash`, checked by a test of their own instead: a server
 * (test/http-service-example.test.ts sends its requests), the tracing adapter
 * (test/opentelemetry-example.test.ts reads its spans) and the agent loop
 * (test/agent-loop-example.test.ts checks its conversation).
 */
const SERVER_EXAMPLES = new Set(["http-service", "opentelemetry", "agent-loop"]);

const READMES = [
  join(ROOT, "README.md"),
  join(ROOT, "packages", "cli", "README.md"),
  ...readdirSync(join(ROOT, "examples"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(ROOT, "examples", entry.name, "README.md")))
    .filter((entry) => !SERVER_EXAMPLES.has(entry.name))
    .map((entry) => join(ROOT, "examples", entry.name, "README.md")),
];

describe.concurrent("the commands shown in the READMEs work as shown", { timeout: 300_000 }, () => {
  it("covers the repository README and every example README", () => {
    expect(READMES.map((file) => relative(ROOT, file)).sort()).toEqual(
      [
        "README.md",
        "packages/cli/README.md",
        ...[
          "broken-plan",
          "data-analysis",
          "fan-out",
          "greeting",
          "payments",
          "schema-guided",
          "verify-user",
        ].map((name) => `examples/${name}/README.md`),
      ].sort(),
    );
    for (const file of READMES) expect(readmeCommands(file).length, file).toBeGreaterThan(0);
    const expectations = READMES.flatMap((file) =>
      readmeCommands(file).flatMap((command) => command.expects),
    );
    expect(expectations.length).toBeGreaterThan(20);
    expect(showsInOrder("  refund  issueRefund  ⏸ waiting", ["refund", "⏸", "waiting"])).toBe(true);
    expect(showsInOrder("  ⏸ waiting refund", ["refund", "⏸", "waiting"])).toBe(false);
  });

  /** The plans the READMEs validate to show what is refused. */
  const INVALID_PLANS = ["broken-plan/plan.json", "refund-self-approved.json"];

  it.each(READMES.map((file) => [relative(ROOT, file), file]))("%s", async (_name, file) => {
    const cwd = checkoutLike();
    if (file === join(ROOT, "README.md")) expect((await sh(SHOWCASE, cwd)).code).toBe(0);
    for (const { line, shell, argv, expects } of readmeCommands(file)) {
      const result = argv ? await cliWithArgumentsOf(shell, cwd) : await sh(shell, cwd);
      for (const words of expects)
        expect(
          showsInOrder(result.stdout, words),
          `${line}\n→ ${words.join(" ")}\n${result.stdout}\n${result.stderr}`,
        ).toBe(true);
      // Only the plans shown as invalid are meant to fail (exit 1: invalid plan); nothing is a usage error.
      const expected = INVALID_PLANS.some((plan) => line.includes(plan)) ? 1 : 0;
      expect({ line, code: result.code, stderr: result.stderr }).toEqual({
        line,
        code: expected,
        stderr: "",
      });
      expect(result.stdout.trim(), line).not.toBe("");
      if (line.includes("--format json")) expect(() => JSON.parse(result.stdout), line).not.toThrow();
    }
  });

  it("pnpm showcase runs data-analysis end to end on the default SQLite store and explains what it did", async () => {
    const cwd = checkoutLike();
    const result = await sh(SHOWCASE, cwd);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(existsSync(join(cwd, ".obelisk", "state.db"))).toBe(true);
    const out = result.stdout;
    expect(out).toMatch(/^Running 5 calls on thread showcase/m);
    expect(out).toMatch(/^Run succeeded in \S+ m?s — 5 succeeded$/m);
    for (const ref of ["sales.all", "sales.large", "stats.all", "stats.large", "report"]) {
      expect(out).toContain(`### †state.${ref}`);
    }
    expect(out).toMatch(
      /^Thread showcase: 5 variables, newest first\. \d+ characters describe 1\.\d MB of data\.$/m,
    );
    expect(out).toContain("type: array, 10000 items");
    expect(out).toMatch(/^# Sales of at least 250$/m);
    expect(out).toMatch(/^10000 sales worth [\d.]+ in total/m);
    // A second showcase starts afresh: `state reset` clears the thread (its call records no longer make a
    // call satisfied), so every call runs again.
    const again = await sh(SHOWCASE, cwd);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^Run succeeded in \S+ m?s — 5 succeeded$/m);
    expect(again.stdout).toMatch(/^# Sales of at least 250$/m);
  });

  it("pnpm obelisk works from the checkout root", async () => {
    const result = await sh("pnpm -s obelisk --version", ROOT);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
