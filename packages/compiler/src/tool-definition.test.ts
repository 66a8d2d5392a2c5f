import { describe, expect, it } from "vitest";
import { branch, defineTool, isBranchResult } from "./tool-definition.js";

describe("branch()", () => {
  it("marks a value as a choice of alternative", () => {
    const choice = branch("failed", { reason: "x" });
    expect(isBranchResult(choice)).toBe(true);
    expect(choice.alternative).toBe("failed");
    expect(choice.value).toEqual({ reason: "x" });
  });

  it("does not mistake a plain object with the same keys for a branch", () => {
    expect(isBranchResult({ alternative: 1, value: 2 })).toBe(false);
    expect(isBranchResult(null)).toBe(false);
  });
});

describe("defineTool()", () => {
  it("returns the definition unchanged", () => {
    const tool = { name: "noop", run: () => 1 };
    expect(defineTool(tool)).toBe(tool);
  });
});
