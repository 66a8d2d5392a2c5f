import { describe, expect, it } from "vitest";
import { codeOf } from "./__fixtures__/error-codes.js";
import { createEngine, defineTool } from "./index.js";

const greet = defineTool({
  name: "greet",
  input: { type: "object", properties: { name: { type: "string" }, times: { type: "number" } } },
  run: (args: unknown) => args,
});

const inputSchema = {
  type: "object",
  properties: { userName: { type: "string" } },
  required: ["userName"],
};

const codes = (result: { diagnostics: readonly { code: string; pointer: string }[] }) =>
  result.diagnostics.map((d) => [d.code, d.pointer]);

describe("validate before the input exists (no input given: the input is unknown)", () => {
  it("references into †input are not checked against a value when the plan has no inputSchema", async () => {
    const engine = createEngine({ tools: [greet] });
    const plan = [{ _tool: "greet", name: "†input.userName", _outputPath: "†state.g" }];
    const result = await engine.validate(plan);
    expect(result).toMatchObject({ ok: true, diagnostics: [] });
    // the same plan with an input that lacks the path, and a run (whose input is {} when none is given)
    expect(codes(await engine.validate(plan, { input: {} }))).toEqual([["REF_UNRESOLVED", "/0/name"]]);
    expect(await codeOf(() => engine.run(plan))).toBe("PLAN_INVALID");
  });

  it("the plan's inputSchema judges them: declared paths resolve, excluded ones and wrong types do not", async () => {
    const engine = createEngine({ tools: [greet] });
    const valid = { type: "plan", inputSchema, plan: [{ _tool: "greet", name: "†input.userName" }] };
    expect(await engine.validate(valid)).toMatchObject({ ok: true, diagnostics: [] });

    const wrongCalls = [{ _tool: "greet", name: "†input.nickname", times: "†input.userName" }];
    const closed = { ...inputSchema, additionalProperties: false };
    expect(codes(await engine.validate({ type: "plan", inputSchema: closed, plan: wrongCalls }))).toEqual([
      ["REF_UNRESOLVED", "/plan/0/name"],
      ["REF_TYPE_MISMATCH", "/plan/0/times"],
    ]);
    // an open schema may hold †input.nickname (decision 0018): only the type is known to be wrong
    expect(codes(await engine.validate({ type: "plan", inputSchema, plan: wrongCalls }))).toEqual([
      ["REF_TYPE_MISMATCH", "/plan/0/times"],
    ]);
  });

  it("an inputSchema that is not a usable JSON Schema is PLAN_SHAPE with or without an input", async () => {
    const engine = createEngine({ tools: [greet] });
    const plan = { type: "plan", inputSchema: { type: 5 }, plan: [{ _tool: "greet", name: "x" }] };
    expect(codes(await engine.validate(plan))).toEqual([["PLAN_SHAPE", "/inputSchema/type"]]);
    expect(codes(await engine.validate(plan, { input: {} }))).toEqual([["PLAN_SHAPE", "/inputSchema/type"]]);
  });

  it("an async inputSchema ($async: true) is PLAN_SHAPE: ajv's check would answer a promise, taken as valid", async () => {
    const engine = createEngine({ tools: [greet] });
    const asyncSchema = { ...inputSchema, $async: true };
    const plan = {
      type: "plan",
      inputSchema: asyncSchema,
      plan: [{ _tool: "greet", name: "†input.userName" }],
    };
    // an input that breaks the schema: checked by an async validator it passed, and its rejection went unhandled
    expect(codes(await engine.validate(plan))).toEqual([["PLAN_SHAPE", "/inputSchema/$async"]]);
    expect(codes(await engine.validate(plan, { input: { userName: 5 } }))).toContainEqual([
      "PLAN_SHAPE",
      "/inputSchema/$async",
    ]);
    await expect(engine.run(plan, { threadId: "t", input: { userName: 5 } })).rejects.toMatchObject({
      code: "PLAN_INVALID",
    });
  });

  it("given an input, validate checks it against the inputSchema as run does", async () => {
    const engine = createEngine({ tools: [greet] });
    const plan = { type: "plan", inputSchema, plan: [{ _tool: "greet", name: "†input.userName" }] };
    const result = await engine.validate(plan, { input: {} });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => d.code)).toContain("PARAM_INVALID");
    expect((await engine.validate(plan, { input: { userName: "Ada" } })).ok).toBe(true);
  });
});
