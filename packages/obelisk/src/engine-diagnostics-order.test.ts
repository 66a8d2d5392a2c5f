import { describe, expect, it } from "vitest";
import { createEngine, type JsonObject } from "./index.js";

const tools = [{ name: "echo", input: { type: "object", properties: { v: {} } }, run: () => 1 }];
const pointers = async (plan: unknown, input?: JsonObject) => {
  const engine = createEngine({ tools });
  const result = await engine.validate(plan, input === undefined ? {} : { input });
  await engine.close();
  return result.diagnostics.map((d) => [d.code, d.pointer]);
};

// The compiler's order: document-level first (by the document's key order), then by call index.
describe("input-schema diagnostics are document-level: they come before every call's", () => {
  it("an unusable inputSchema (PLAN_SHAPE) before a call's TOOL_UNKNOWN", async () => {
    const plan = {
      type: "plan",
      inputSchema: { type: "object", properties: { a: { type: "strin" } } },
      plan: [{ _tool: "nope" }],
    };
    expect(await pointers(plan)).toEqual([
      ["PLAN_SHAPE", "/inputSchema/properties/a/type"],
      ["TOOL_UNKNOWN", "/plan/0/_tool"],
    ]);
  });

  it("an input breaking it (PARAM_INVALID) too, and among document-level ones in key order", async () => {
    const plan = {
      inputSchema: { type: "object", properties: { a: { type: "string", maxLength: 1 } } },
      type: "plan",
      plan: [{ _tool: "nope" }],
    };
    expect(await pointers(plan, { a: "long" })).toEqual([
      ["PARAM_INVALID", "/inputSchema/properties/a/maxLength"],
      ["TOOL_UNKNOWN", "/plan/0/_tool"],
    ]);
    const text = '{"plan":[{"_tool":"nope"}],"inputSchema":{"type":"strin"},"id":5}';
    expect(await pointers(text)).toEqual([
      ["PLAN_SHAPE", "/inputSchema/type"],
      ["PLAN_SHAPE", "/id"],
      ["TOOL_UNKNOWN", "/plan/0/_tool"],
    ]);
  });
});
