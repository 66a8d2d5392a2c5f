import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compile } from "./compile.js";
import { defineTool } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

const tools = createToolRegistry([
  defineTool({ name: "lookup", input: z.object({ email: z.string() }), run: () => 1 }),
]);
const codes = (inputSchema: unknown) =>
  compile({ plan: [{ _tool: "lookup", email: "†input.email" }], inputSchema }, tools).diagnostics.map(
    (d) => `${d.code} ${d.pointer}`,
  );

describe("a plan inputSchema type name JSON Schema does not have feeds no type check", () => {
  it('"strin" is no type: no REF_TYPE_MISMATCH "value is strin" (the engine refuses the schema as PLAN_SHAPE)', () => {
    expect(codes({ type: "object", properties: { email: { type: "strin" } } })).toEqual([]);
    expect(codes({ type: "object", properties: { email: { type: ["strin", "null"] } } })).toEqual([]);
  });

  it("a real type still does", () => {
    expect(codes({ type: "object", properties: { email: { type: "number" } } })).toEqual([
      "REF_TYPE_MISMATCH /plan/0/email",
    ]);
  });
});
