import { describe, expect, it } from "vitest";
import { createEngine, type JsonObject } from "./index.js";

const tools = [{ name: "echo", input: { type: "object", properties: { v: {} } }, run: () => 1 }];
const pointers = async (plan: unknown, input?: JsonObject) => {
  const engine = createEngine({ tools });
  const result = await engine.validate(plan, input === undefined ? {} : { input });
  await engine.close();
  return result.diagnostics.map((d) => [d.code, d.pointer]);
};

// The compiler's order: document order (where each pointed value is in the text, or the key order of
// the parsed document); the input's diagnostics take the place of their top-level key.
describe("input-schema diagnostics take their place in document order", () => {
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

  it("an input breaking it (PARAM_INVALID) too; after the calls when the key comes after the plan", async () => {
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
      ["TOOL_UNKNOWN", "/plan/0/_tool"],
      ["PLAN_SHAPE", "/inputSchema/type"],
      ["PLAN_SHAPE", "/id"],
    ]);
    const inputSchema = { type: "object", properties: { a: { type: "string" } } };
    const object = { plan: [{ _tool: "nope" }], inputSchema, id: 5 };
    expect(await pointers(object, { a: 1 })).toEqual([
      ["TOOL_UNKNOWN", "/plan/0/_tool"],
      ["PARAM_INVALID", "/inputSchema/properties/a/type"],
      ["PLAN_SHAPE", "/id"],
    ]);
    const between = { id: 5, inputSchema: { type: "strin" }, plan: [{ _tool: "nope" }] };
    expect(await pointers(between)).toEqual([
      ["PLAN_SHAPE", "/id"],
      ["PLAN_SHAPE", "/inputSchema/type"],
      ["TOOL_UNKNOWN", "/plan/0/_tool"],
    ]);
  });
});
