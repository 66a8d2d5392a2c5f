import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliInProcess as cli, tempDir } from "./cli-harness.js";

const digest = (file: string): string => createHash("sha256").update(readFileSync(file)).digest("hex");
const on = (thread: string) => ["--store", "sqlite:s.db", "--thread", thread];

/** What thread `t` holds, as `state get` and `state summary` show it (json). */
async function held(cwd: string): Promise<string> {
  const state = await cli(["state", "get", ...on("t"), "--ref", "†state", "--format", "json"], cwd);
  const summary = await cli(["state", "summary", ...on("t"), "--format", "json"], cwd);
  return state.stdout + summary.stdout;
}

/** A store whose thread `t` holds two approvals, a count and a settings object written whole. */
async function prepared(): Promise<string> {
  const cwd = tempDir();
  const values: [string, string][] = [
    ["†state.approvals.refund", '{"orderId":"o1","by":"ops"}'],
    ["†state.approvals.deploy", "true"],
    ["†state.settings", '{"mode":"fast"}'],
  ];
  for (const [ref, value] of values) {
    const set = await cli(["state", "set", ...on("t"), "--ref", ref, "--value", value], cwd);
    expect(set.code).toBe(0);
  }
  return cwd;
}

describe("obelisk state unset", () => {
  it("removes one value (an approval taken back) and says what it removed, in text and json", async () => {
    const cwd = await prepared();
    const text = await cli(["state", "unset", ...on("t"), "--ref", "†state.approvals.refund"], cwd);
    expect(text).toEqual({ code: 0, stdout: "✓ removed †state.approvals.refund from thread t\n" });
    const get = await cli(
      ["state", "get", ...on("t"), "--ref", "†state.approvals.refund", "--format", "json"],
      cwd,
    );
    expect(get.code).toBe(1);
    expect(JSON.parse(get.stdout)).toMatchObject({ error: { code: "REF_EVICTED" } });
    const json = await cli(
      ["state", "unset", ...on("t"), "--ref", "†state.approvals", "--format", "json"],
      cwd,
    );
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      ok: true,
      threadId: "t",
      ref: "†state.approvals",
      removed: true,
      variables: ["†state.approvals.deploy"],
    });
    const summary = await cli(["state", "summary", ...on("t"), "--format", "json"], cwd);
    expect(JSON.parse(summary.stdout).entries.map((e: { reference: string }) => e.reference)).toEqual([
      "†state.settings",
    ]);
  });

  it("a container only writes below it created: every variable below it goes, and the text lists them", async () => {
    const cwd = await prepared();
    const text = await cli(["state", "unset", ...on("t"), "--ref", "†state.approvals"], cwd);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /^✓ removed †state\.approvals from thread t: 2 variables \((†state\.approvals\.(refund|deploy), ){1}†state\.approvals\.(refund|deploy)\)\n$/,
    );
  });

  it("a path, or a thread, that holds nothing: nothing to remove (exit 0), the store file unchanged", async () => {
    const cwd = await prepared();
    await cli(["state", "unset", ...on("t"), "--ref", "†state.approvals.refund"], cwd);
    const before = await held(cwd);
    const again = await cli(["state", "unset", ...on("t"), "--ref", "†state.approvals.refund"], cwd);
    expect(again).toEqual({
      code: 0,
      stdout: "†state.approvals.refund holds nothing on thread t: nothing to remove\n",
    });
    expect(await held(cwd)).toBe(before);
    const file = digest(join(cwd, "s.db"));
    const json = await cli(
      ["state", "unset", ...on("nope"), "--ref", "†state.approvals.refund", "--format", "json"],
      cwd,
    );
    expect(JSON.parse(json.stdout)).toEqual({
      ok: true,
      threadId: "nope",
      ref: "†state.approvals.refund",
      removed: false,
      variables: [],
    });
    const text = await cli(["state", "unset", ...on("nope"), "--ref", "†state.approvals.refund"], cwd);
    expect(text).toEqual({ code: 0, stdout: "thread nope does not exist: nothing to remove\n" });
    expect(digest(join(cwd, "s.db"))).toBe(file);
  });

  it("refuses a path inside a value (exit 2, with the variable that holds it) and bad refs, changing nothing", async () => {
    const cwd = await prepared();
    const before = await held(cwd);
    const inside = await cli(
      ["state", "unset", ...on("t"), "--ref", "†state.settings.mode", "--format", "json"],
      cwd,
    );
    expect(inside.code).toBe(2);
    expect(JSON.parse(inside.stdout)).toMatchObject({
      error: { code: "USAGE", message: expect.stringContaining("part of the value of †state.settings") },
    });
    for (const ref of ["†input.x", "†state", "stat.x", "state", "†calls.c1"]) {
      const refused = await cli(["state", "unset", ...on("t"), "--ref", ref, "--format", "json"], cwd);
      expect({ ref, code: refused.code }).toEqual({ ref, code: 2 });
    }
    expect((await cli(["state", "unset", ...on("t")], cwd)).code).toBe(2);
    expect(await held(cwd)).toBe(before);
  });

  it("a store file that does not exist is refused, and not created", async () => {
    const cwd = tempDir();
    const result = await cli(
      ["state", "unset", "--store", "sqlite:typo.db", "--ref", "†state.approvals.x", "--format", "json"],
      cwd,
    );
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: "USAGE" } });
  });
});
