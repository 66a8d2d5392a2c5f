import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, tempDir } from "./cli-harness.js";

/** The files `node bin.js …args` loads as ES modules (recorded by a module hook). */
function loadedFiles(args: readonly string[]): Promise<string[]> {
  const cwd = tempDir();
  const log = join(cwd, "loaded.txt");
  const hooks = `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  if (url.startsWith("file:")) appendFileSync(${JSON.stringify(log)}, url + "\\n");
  return next(url, context);
}`;
  const register = `import { register } from "node:module";
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
  const preload = `data:text/javascript,${encodeURIComponent(register)}`;
  return new Promise((done, fail) => {
    execFile(process.execPath, ["--import", preload, BIN, ...args], { cwd }, (error) => {
      if (error !== null) fail(error);
      else done(readFileSync(log, "utf8").trim().split("\n"));
    });
  });
}

/** The engine's packages: what a command that compiles, runs or reads a store loads. */
const ENGINE =
  /\/packages\/(obelisk|compiler|scheduler|state)\/|\/node_modules\/(\.pnpm\/)?(ajv|better-sqlite3)/;

describe("start-up loads what the command needs", { timeout: 60_000 }, () => {
  it.each(["--version", "--help", "runs list --help"])(
    "%s loads the CLI, commander and core, not the engine",
    async (line) => {
      const files = await loadedFiles(line.split(" "));
      expect(files.some((file) => file.endsWith("/packages/cli/dist/bin.js"))).toBe(true);
      expect(files.filter((file) => ENGINE.test(file))).toEqual([]);
    },
  );
});
