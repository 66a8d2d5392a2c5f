import { describe, expect, it } from "vitest";
import { inProcess, inProcessJson, tempDir } from "./cli-harness.js";

const on = ["--store", "sqlite:s.db", "--thread", "t"];

describe("--ref typed without its dagger", () => {
  it("state set, get, summary and unset take state.x as †state.x", async () => {
    const cwd = tempDir();
    const set = await inProcessJson(
      ["state", "set", ...on, "--ref", "state.approvals.x", "--value", "true"],
      cwd,
    );
    expect(set.code).toBe(0);
    expect(set.json).toEqual({ ok: true, threadId: "t", ref: "†state.approvals.x", value: true });
    await inProcess(["state", "set", ...on, "--ref", "state.report[0]", "--value", '"a"'], cwd);
    const get = await inProcessJson(["state", "get", ...on, "--ref", "state.approvals.x"], cwd);
    expect({ code: get.code, json: get.json }).toEqual({ code: 0, json: { found: true, value: true } });
    const item = await inProcessJson(["state", "get", ...on, "--ref", "state.report[0]"], cwd);
    expect(item.json).toEqual({ found: true, value: "a" });
    const summary = await inProcessJson(["state", "summary", ...on, "--ref", "state.approvals.x"], cwd);
    expect(summary.code).toBe(0);
    expect(JSON.stringify(summary.json)).toContain("†state.approvals.x");
    const unset = await inProcessJson(["state", "unset", ...on, "--ref", "state.approvals.x"], cwd);
    expect(unset.json).toMatchObject({ ok: true, ref: "†state.approvals.x", removed: true });
  });

  it("calls.x and input.x read as †calls.x and †input.x (input is still not writable)", async () => {
    const cwd = tempDir();
    await inProcess(["state", "set", ...on, "--ref", "†state.a", "--value", "1"], cwd);
    const calls = await inProcessJson(["state", "get", ...on, "--ref", "calls.fetch"], cwd);
    expect(calls.json).toMatchObject({ error: { message: expect.stringContaining("†calls.fetch") } });
    const input = await inProcessJson(["state", "set", ...on, "--ref", "input.x", "--value", "1"], cwd);
    expect(input.code).toBe(2);
    expect(input.json).toMatchObject({
      error: { code: "USAGE", message: expect.stringContaining("OUTPUT_PATH_READONLY") },
    });
  });

  it("anything else without a dagger is refused as before (unknown kind, a bare kind, a file name)", async () => {
    const cwd = tempDir();
    for (const ref of ["stat.x", "state", "report", "state x", "$state.x"]) {
      const result = await inProcessJson(["state", "get", "--store", "memory", "--ref", ref], cwd);
      expect({ ref, code: result.code, error: (result.json.error as { code: string }).code }).toEqual({
        ref,
        code: 2,
        error: "USAGE",
      });
    }
  });
});
