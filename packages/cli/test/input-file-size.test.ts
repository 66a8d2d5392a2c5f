import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectOneLineError, fixture, inProcessJson, tempDir } from "./cli-harness.js";

type Json = Record<string, unknown>;

// Decision 0103 (review s41 r2 #1, #14): an --input file was read whole before any limit (3 GB: 164 s,
// 6.3 GB, then called malformed); `--input -` was "neither inline JSON nor an existing file".

const tools = fixture("tools.js");
const plan = fixture("shout-plan.json");
const cwd = tempDir();
/** 100 NUL bytes: not JSON, so a file that was read is refused as malformed, not by its size. */
writeFileSync(join(cwd, "nul.json"), Buffer.alloc(100));

describe.concurrent("--input file size and --input -", { timeout: 120_000 }, () => {
  it("validate and run refuse an --input file larger than maxValueBytes by its size, unread", async () => {
    for (const command of ["validate", "run"]) {
      const refused = await inProcessJson(
        [command, plan, "--tools", tools, "--input", "nul.json", "--limits", "maxValueBytes=10"],
        cwd,
      );
      expectOneLineError(refused, 2);
      expect(refused.json.error).toEqual({
        code: "USAGE",
        message: expect.stringContaining(
          "--input file nul.json is 100 bytes, larger than the limit of 10 bytes (limits.maxValueBytes)",
        ),
        hint: "pass large data by reference instead: store it with obelisk state set (or a tool) and read it with †state; or raise the limit: --limits maxValueBytes=<n> (now 10)",
      });
    }
  });

  it("a file within the limit is read as before (its JSON judged)", async () => {
    const read = await inProcessJson(
      ["validate", plan, "--tools", tools, "--input", "nul.json", "--limits", "maxValueBytes=100"],
      cwd,
    );
    expectOneLineError(read, 2);
    expect((read.json.error as Json).message).toContain("--input file nul.json");
    expect((read.json.error as Json).message).not.toContain("larger than");
  });

  it("--input - says standard input is the plan's and how to give the input", async () => {
    const refused = await inProcessJson(["run", plan, "--tools", tools, "--input", "-"], cwd);
    expectOneLineError(refused, 2);
    expect(refused.json.error).toEqual({
      code: "USAGE",
      message: expect.stringContaining("--input - is not read from standard input"),
      hint: `give the input as a file or inline JSON: --input in.json, or --input '{"name": …}'`,
    });
  });
});
