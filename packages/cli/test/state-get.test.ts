import { describe, expect, it } from "vitest";
import { cliInProcess as cli, tempDir } from "./cli-harness.js";

const on = ["--store", "sqlite:s.db", "--thread", "t"];

describe("obelisk state get of a reference that holds nothing", () => {
  it("names the nearest stored references, as the get_variable agent tool does", async () => {
    const cwd = tempDir();
    const set = await cli(["state", "set", ...on, "--ref", "†state.result", "--value", '{"total":3}'], cwd);
    expect(set.code).toBe(0);
    const near = await cli(["state", "get", ...on, "--ref", "†state.results.total", "--format", "json"], cwd);
    expect(near.code).toBe(1);
    expect(JSON.parse(near.stdout)).toMatchObject({
      error: {
        code: "REF_UNRESOLVED",
        message: expect.stringContaining("†state.results.total is not stored on thread t"),
        // pasted, the suggested command reads this thread of this store (review s41 r2 #5, decision 0103)
        hint: "did you mean †state.result.total? obelisk state summary --thread t --store sqlite:s.db lists what the thread holds",
      },
    });
    const far = await cli(["state", "get", ...on, "--ref", "†state.zzzzzzzz", "--format", "json"], cwd);
    expect(JSON.parse(far.stdout)).toMatchObject({
      error: {
        code: "REF_UNRESOLVED",
        hint: "obelisk state summary --thread t --store sqlite:s.db lists what the thread holds",
      },
    });
  });

  it("pages an object by keys: --offset and --limit count keys", async () => {
    const cwd = tempDir();
    await cli(["state", "set", ...on, "--ref", "†state.obj", "--value", '{"a":1,"b":2,"c":3}'], cwd);
    const text = await cli(
      ["state", "get", ...on, "--ref", "†state.obj", "--offset", "1", "--limit", "1"],
      cwd,
    );
    expect(text).toEqual({ code: 0, stdout: '{\n  "b": 2\n}\n†state.obj: keys 1–1 of 3\n' });
    const json = await cli(
      ["state", "get", ...on, "--ref", "†state.obj", "--offset", "1", "--format", "json"],
      cwd,
    );
    expect(JSON.parse(json.stdout)).toEqual({
      found: true,
      entries: { b: 2, c: 3 },
      offset: 1,
      limit: 2,
      total: 3,
    });
  });
});
