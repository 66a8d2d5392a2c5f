import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectOneLineError, fixture, inProcess, inProcessJson, tempDir } from "./cli-harness.js";

// `--thread ""` was passed to the library, which answered in its own words (`threadId must be a non-empty
// string`), or read a thread "" that holds nothing (`runs list`: "no runs recorded"; `state reset`:
// "thread  does not exist"). Now a flag error naming --thread and what to do instead.

const plan = fixture("rerun-plan.json");
const tools = fixture("rerun-tools.mjs");
const MESSAGE =
  "option '--thread <id>' argument '' is invalid. a thread id cannot be empty: give one (--thread t); ";

describe("--thread with an empty id", () => {
  it.each([
    [["run", plan, "--tools", tools], 'leave --thread out for the thread "default"'],
    [["validate", plan, "--tools", tools], "leave --thread out to check against an empty thread"],
    [["graph", plan, "--tools", tools], "leave --thread out to check against an empty thread"],
    [["state", "summary"], 'leave --thread out for the thread "default"'],
    [["state", "set", "--ref", "†state.x", "--value", "1"], 'leave --thread out for the thread "default"'],
    [["state", "reset"], 'leave --thread out for the thread "default"'],
    [["state", "delete"], "threads list lists the threads"],
    [["runs", "list"], "leave --thread out for every thread's runs"],
    [["runs", "prune", "--keep", "1"], "leave --thread out to prune every thread's runs"],
  ])("%j: a usage error (exit 2) naming the flag, nothing created", async (args, instead) => {
    const cwd = tempDir();
    const refused = await inProcess([...args, "--thread", ""], cwd);
    expectOneLineError(refused, 2);
    expect(refused.stderr).toBe(`error [USAGE] ${MESSAGE}${instead}\n`);
    expect(existsSync(join(cwd, ".obelisk"))).toBe(false);
    const json = await inProcessJson([...args, "--thread="], cwd);
    expect(json.code).toBe(2);
    expect(json.json.error).toMatchObject({ code: "USAGE", message: `${MESSAGE}${instead}` });
  });
});
