import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliInProcess, tempDir } from "./cli-harness.js";

const cli = cliInProcess;

const digest = (file: string): string => createHash("sha256").update(readFileSync(file)).digest("hex");

/** A store whose thread `t` holds two variables. */
async function twoVariables(): Promise<string> {
  const cwd = tempDir();
  for (const ref of ["†state.a", "†state.b"]) {
    const set = await cli(
      ["state", "set", "--store", "sqlite:s.db", "--thread", "t", "--ref", ref, "--value", "1"],
      cwd,
    );
    expect(set.code).toBe(0);
  }
  return cwd;
}

describe("obelisk state keep and reset report what they did", () => {
  const on = (thread: string) => ["--store", "sqlite:s.db", "--thread", thread];

  it("keep --last N reports how many variables were kept, not N", async () => {
    const cwd = await twoVariables();
    const more = await cli(["state", "keep", ...on("t"), "--last", "5", "--format", "json"], cwd);
    expect(more.code).toBe(0);
    expect(JSON.parse(more.stdout)).toEqual({ ok: true, threadId: "t", kept: 2 });
    const text = await cli(["state", "keep", ...on("t"), "--last", "5"], cwd);
    expect(text.stdout).toBe("✓ thread t: kept all 2 variables, nothing to evict (--last 5)\n");
    const fewer = await cli(["state", "keep", ...on("t"), "--last", "1"], cwd);
    expect(fewer.stdout).toBe("✓ thread t: kept the most recently updated variable, evicted 1\n");
    const json = await cli(["state", "keep", ...on("t"), "--last", "1", "--format", "json"], cwd);
    expect(JSON.parse(json.stdout)).toEqual({ ok: true, threadId: "t", kept: 1 });
    const none = await cli(["state", "keep", ...on("t"), "--last", "0"], cwd);
    expect(none.stdout).toBe("✓ thread t: evicted all 1 variable (--last 0)\n");
    const empty = await cli(["state", "keep", ...on("t"), "--last", "0", "--format", "json"], cwd);
    expect(JSON.parse(empty.stdout)).toEqual({ ok: true, threadId: "t", kept: 0 });
  });

  it("keep and reset of a thread that does not exist say so, keep nothing and leave the store as it was", async () => {
    const cwd = await twoVariables();
    const before = digest(join(cwd, "s.db"));
    const keep = await cli(["state", "keep", ...on("nope"), "--last", "7", "--format", "json"], cwd);
    expect(keep.code).toBe(0);
    expect(JSON.parse(keep.stdout)).toEqual({ ok: true, threadId: "nope", kept: 0 });
    const keepText = await cli(["state", "keep", ...on("nope"), "--last", "7"], cwd);
    expect(keepText.stdout).toBe("thread nope does not exist: nothing to keep\n");
    const reset = await cli(["state", "reset", ...on("nope"), "--format", "json"], cwd);
    expect(reset.code).toBe(0);
    expect(JSON.parse(reset.stdout)).toEqual({ ok: true, threadId: "nope" });
    const resetText = await cli(["state", "reset", ...on("nope")], cwd);
    expect(resetText.stdout).toBe("thread nope does not exist: nothing to reset\n");
    expect(digest(join(cwd, "s.db"))).toBe(before);
  });
});
