import { execFile, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { expect } from "vitest";
import type { CliIo } from "../src/cli-io.js";

const here = dirname(fileURLToPath(import.meta.url));
/** The repository root. */
export const ROOT = resolve(here, "../../..");
/** The built binary the tests spawn. */
export const BIN = join(ROOT, "packages/cli/dist/bin.js");

/** Absolute path of a file of an example. */
export const example = (name: string, file: string): string => join(ROOT, "examples", name, file);
/** Absolute path of a test fixture. */
export const fixture = (file: string): string => join(here, "__fixtures__", file);

/** What one spawn of the binary produced. */
export interface CliResult {
  readonly code: number | string;
  readonly stdout: string;
  readonly stderr: string;
}

/** A fresh temporary directory: the working directory of spawns (so the default store lands there). */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "obelisk-cli-"));
}

/** The environment of the CLI in a test: the test's own, without colours, then `env`. */
const cliEnv = (env: Record<string, string>): Record<string, string | undefined> => ({
  ...process.env,
  NO_COLOR: "1",
  FORCE_COLOR: "",
  ...env,
});

/** Spawns `node packages/cli/dist/bin.js …args` in `cwd` (as another user when `user` is given: root only). */
export function obelisk(
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
  user: { readonly uid: number; readonly gid: number } | undefined = undefined,
): Promise<CliResult> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      {
        ...user,
        cwd,
        timeout: 60_000,
        maxBuffer: 256 * 1024 * 1024,
        env: cliEnv(env),
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        done({ code, stdout, stderr });
      },
    );
  });
}

/**
 * Runs the CLI in this process (`main`, from source) as {@link obelisk} spawns it: the same arguments,
 * working directory and environment, stdout and stderr captured (neither a terminal). For a test of what a
 * command prints and its exit code; what only a real process shows (the bin's start-up, signals, standard
 * input, what a tools module prints or throws outside its calls, `process.exit`, a stalled event loop) is
 * spawned. A tools module imported here stays loaded for the test files after it (vitest's `isolate: false`).
 */
export async function inProcess(
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<CliResult> {
  const { main } = await import("../src/main.js");
  const text = { stdout: "", stderr: "" };
  const io: CliIo = {
    stdout: { write: (chunk: string) => (text.stdout += chunk) },
    stderr: { write: (chunk: string) => (text.stderr += chunk) },
    env: cliEnv(env),
    cwd,
  };
  const code = await main(args, io);
  return { code, ...text };
}

/** Every command of the CLI that runs (no subcommands), with the names that lead to it (`["state", "get"]`). */
export async function runnableCommands(): Promise<{ path: string[]; command: Command }[]> {
  const { createProgram } = await import("../src/main.js");
  const silent = { write: () => true };
  const io: CliIo = { stdout: silent, stderr: silent, env: {}, cwd: tempDir() };
  const leaves = (command: Command, path: readonly string[]): { path: string[]; command: Command }[] =>
    command.commands.flatMap((sub) => {
      const here = [...path, sub.name()];
      return sub.commands.length === 0 ? [{ path: here, command: sub }] : leaves(sub, here);
    });
  return leaves(createProgram({ io, exit: () => {} }), []);
}

/** {@link inProcess} with `--format json`, stdout parsed as exactly one JSON document. */
export async function inProcessJson(
  args: readonly string[],
  cwd: string,
): Promise<CliResult & { readonly json: Record<string, unknown> }> {
  return withJson(await inProcess([...args, "--format", "json"], cwd));
}

/** Spawns with `--format json` and parses stdout as exactly one JSON document. */
export async function obeliskJson(
  args: readonly string[],
  cwd: string,
): Promise<CliResult & { readonly json: Record<string, unknown> }> {
  return withJson(await obelisk([...args, "--format", "json"], cwd));
}

/** The result with its stdout parsed as exactly one JSON document (throws, showing both streams, if not). */
function withJson(result: CliResult): CliResult & { readonly json: Record<string, unknown> } {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(result.stdout) as Record<string, unknown>;
  } catch {
    throw new Error(
      `stdout is not one JSON document (exit ${result.code}):\n${result.stdout}\n${result.stderr}`,
    );
  }
  return { ...result, json };
}

/** Asserts a usage-style failure: the exit code, one line on stderr, no stack trace. */
export function expectOneLineError(result: CliResult, code: number): void {
  expect(result.code).toBe(code);
  expect(result.stderr.trim().split("\n")).toHaveLength(1);
  expect(result.stderr).not.toContain("    at ");
}

/**
 * Spawns the binary and, once its stdout shows `when` (the test waits on output, not time), runs
 * `meanwhile` and then sends the process SIGINT.
 */
export function obeliskInterrupted(
  args: readonly string[],
  cwd: string,
  when: string,
  meanwhile: () => Promise<void> = async () => {},
): Promise<CliResult> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: cliEnv({}),
    });
    let stdout = "";
    let stderr = "";
    let sent = false;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (!sent && stdout.includes(when)) {
        sent = true;
        void meanwhile().finally(() => child.kill("SIGINT"));
      }
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("close", (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

/** Runs the CLI in-process (from source) in `cwd`, without colours; returns the exit code and stdout. */
export async function cliInProcess(args: string[], cwd: string): Promise<{ code: number; stdout: string }> {
  const { main } = await import("../src/main.js");
  let stdout = "";
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: () => true },
    env: { NO_COLOR: "1" },
    cwd,
  };
  const code = await main(args, io);
  return { code, stdout };
}

/** How {@link obeliskSpawned} treats the child's streams. */
export interface SpawnOptions {
  /** Streams whose reading end is closed at once: a reader that went away (`obelisk run … | head`). */
  readonly close?: readonly ("stdout" | "stderr")[];
  /** A file descriptor the child's stdout is written to instead of a pipe (e.g. one open on /dev/full). */
  readonly stdoutFd?: number;
  /** Once stdout or stderr shows `when` (the test waits on output, not time), the process is sent `signal`. */
  readonly when?: string;
  /** The signal sent once `when` shows. */
  readonly signal?: NodeJS.Signals;
  /** Text written to the child's stdin (then closed); without it stdin is closed at once. */
  readonly stdin?: string;
}

/** Spawns the binary with the streams and the signal of `options`; resolves when the process has exited. */
export function obeliskSpawned(
  args: readonly string[],
  cwd: string,
  options: SpawnOptions = {},
): Promise<CliResult> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: cliEnv({}),
      stdio: [options.stdin === undefined ? "ignore" : "pipe", options.stdoutFd ?? "pipe", "pipe"],
    });
    child.stdin?.end(options.stdin);
    const text = { stdout: "", stderr: "" };
    let sent = false;
    for (const name of ["stdout", "stderr"] as const) {
      const stream = child[name];
      if (stream === null) continue;
      if (options.close?.includes(name)) {
        stream.destroy();
        continue;
      }
      stream.setEncoding("utf8").on("data", (chunk: string) => {
        text[name] += chunk;
        if (sent || options.when === undefined || !`${text.stdout}${text.stderr}`.includes(options.when))
          return;
        sent = true;
        child.kill(options.signal ?? "SIGINT");
      });
    }
    child.on("close", (code, signal) => done({ code: code ?? `killed by ${signal}`, ...text }));
  });
}
