import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

/** The registered tool's `run` (zod's parse of the input first), called as the scheduler calls it. */
function runOf(tool: ReturnType<typeof defineTool>) {
  const registered = createToolRegistry([tool]).get(tool.name);
  return (args: Record<string, unknown>) => registered?.run?.(args as never, {} as never);
}

describe("a zod input schema whose parse throws", () => {
  it("refuses the input with PARAM_INVALID naming the schema, and the tool does not run", () => {
    let runs = 0;
    const asyncRefine = defineTool({
      name: "asyncRefine",
      input: z.object({ id: z.string() }).refine(async () => true),
      run: () => ++runs,
    });
    const throwingTransform = defineTool({
      name: "throwingTransform",
      input: z.object({ id: z.string().transform(() => JSON.parse("{")) }),
      run: () => ++runs,
    });
    for (const tool of [asyncRefine, throwingTransform]) {
      expect(() => runOf(tool)({ id: "a" })).toThrow(
        expect.objectContaining({
          code: "PARAM_INVALID",
          message: expect.stringContaining("the zod input schema threw:"),
        }),
      );
    }
    expect(runs).toBe(0);
  });
});
