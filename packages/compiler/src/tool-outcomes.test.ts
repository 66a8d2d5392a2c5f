import { describe, expect, it } from "vitest";
import { createToolRegistry } from "./tool-registry.js";

const tool = (outcomes: unknown) => ({ name: "verify", outcomes, run: () => null });

describe("a tool's outcomes", () => {
  it("are names an alternative is chosen by: one named twice is USAGE at registration", () => {
    expect(() => createToolRegistry([tool(["found", "none", "found"])])).toThrow(
      expect.objectContaining({
        code: "USAGE",
        message: expect.stringContaining('outcomes names "found" twice'),
        hint: "give each alternative its own name",
      }),
    );
    expect(createToolRegistry([tool(["found", "none"])]).get("verify")?.outcomes).toEqual(["found", "none"]);
  });
});
