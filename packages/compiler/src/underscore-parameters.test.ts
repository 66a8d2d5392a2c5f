import type { ObeliskError } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { thrownUsage } from "./__fixtures__/thrown-usage.js";
import { defineTool } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

const usageError = (tools: Parameters<typeof createToolRegistry>[0]): ObeliskError =>
  thrownUsage(() => createToolRegistry(tools), "the tools were registered");

describe("a tool whose input declares a parameter starting with _ (SPEC §4) is refused (USAGE)", () => {
  it("a JSON Schema input: names the parameter, hint the name without _", () => {
    const error = usageError([
      {
        name: "t",
        input: { type: "object", properties: { _secret: { type: "string" } }, required: ["_secret"] },
        run: () => 1,
      },
    ]);
    expect(error.code).toBe("USAGE");
    expect(error.message).toContain('tool "t"');
    expect(error.message).toContain('"_secret"');
    expect(error.hint).toBe('rename the parameter (e.g. "secret"): parameters cannot start with _');
  });

  it("a zod input, and a required name the properties do not list", () => {
    const zod = usageError([
      defineTool({ name: "z", input: z.object({ _mode: z.string(), q: z.string() }), run: () => 1 }),
    ]);
    expect(zod.message).toContain('"_mode"');
    const required = usageError([{ name: "r", input: { type: "object", required: ["_x"] }, run: () => 1 }]);
    expect(required.message).toContain('"_x"');
  });

  it("a nested key starting with _ is fine, and so is the spec's tool form (its _ keys are meta-properties)", () => {
    const tools = createToolRegistry([
      defineTool({
        name: "nested",
        input: z.object({ options: z.object({ _raw: z.boolean() }) }),
        run: () => 1,
      }),
      {
        type: "object",
        properties: { _tool: { const: "spec" }, _outputPath: { type: "string" }, q: { type: "string" } },
        run: () => 1,
      } as never,
    ]);
    expect(tools.names).toEqual(["nested", "spec"]);
  });
});
