import { describe, expect, it } from "vitest";
import { cliInProcess, tempDir } from "./cli-harness.js";

const cli = cliInProcess;

describe("obelisk state summary (text) when no entry is shown", () => {
  const store = ["--store", "sqlite:state.db", "--thread", "t"];

  it("says the variables were left out for the budget, or which references are not stored", async () => {
    const cwd = tempDir();
    for (const [ref, value] of [
      ["†state.a", '"x"'],
      ["†state.b", "[1,2,3]"],
      ["†state.c", '{"k":1}'],
    ] as const)
      expect((await cli(["state", "set", ...store, "--ref", ref, "--value", value], cwd)).code).toBe(0);

    const budget = await cli(["state", "summary", ...store, "--budget", "20"], cwd);
    expect(budget.code).toBe(0);
    expect(budget.stdout).not.toContain("holds no variables");
    expect(budget.stdout).toContain("--budget");

    const missing = await cli(["state", "summary", ...store, "--ref", "†state.nope"], cwd);
    expect(missing.code).toBe(0);
    expect(missing.stdout).not.toContain("holds no variables");
    expect(missing.stdout).toContain("†state.nope");

    const empty = await cli(["state", "summary", "--store", "sqlite:state.db", "--thread", "other"], cwd);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toContain("holds no variables");
  });
});
