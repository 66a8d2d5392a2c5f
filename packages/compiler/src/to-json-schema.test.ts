import { ObeliskError } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { z as z3 } from "zod/v3";
import { createToolRegistry } from "./tool-registry.js";

/** The USAGE error registering `tool` throws (fails the test when it registers or throws another error). */
function usageError(tool: Record<string, unknown>): ObeliskError {
  try {
    createToolRegistry([tool]);
  } catch (error) {
    if (ObeliskError.is(error, "USAGE")) return error;
    throw error;
  }
  throw new Error("the tool was registered");
}

describe("a zod 3 schema (it has _def and safeParse, no _zod)", () => {
  it.each(["input", "output"])("as the %s schema is refused as zod 3, not as a bad JSON Schema", (field) => {
    const error = usageError({ name: "greet", [field]: z3.object({ name: z3.string() }), run: () => "hi" });
    expect(error.message).toContain(`tool "greet" ${field}`);
    expect(error.message).toContain("zod 3 schemas are not supported");
    expect(error.message).not.toContain("not a valid JSON Schema");
    expect(error.hint).toContain("zod ≥ 4");
    expect(error.hint).toContain("JSON Schema");
  });

  it("a JSON Schema that happens to have a _def property is still a JSON Schema", () => {
    const input = { type: "object", _def: {}, properties: { name: { type: "string" } } };
    expect(() => createToolRegistry([{ name: "greet", input, run: () => "hi" }])).not.toThrow();
  });
});
