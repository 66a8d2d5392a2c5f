import { afterEach, describe, expect, it, vi } from "vitest";
import { createEngine } from "./index.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a plan's inputSchema with a format ajv does not know (adversarial review, stop 39)", () => {
  it("is not checked for that format and prints nothing to the host's console", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const engine = createEngine({ tools: [{ name: "t", run: () => 1 }] });
    const inputSchema = { type: "object", properties: { a: { type: "string", format: "whatever" } } };
    const validation = await engine.validate(
      { type: "plan", inputSchema, plan: [{ _tool: "t", _outputPath: "†state.x" }] },
      { input: { a: "x" } },
    );
    expect(validation.ok).toBe(true);
    expect(warn).not.toHaveBeenCalled();
    await engine.close();
  });
});
