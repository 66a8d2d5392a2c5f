import { describe, expect, it } from "vitest";
import { agentTools, createEngine, defineTool, ObeliskError, type ValidatePlanAnswer } from "./index.js";

const give = defineTool({
  name: "give",
  input: { type: "object", properties: { value: {} }, required: ["value"] },
  run: (args: unknown) => (args as { value: unknown }).value,
});
/** A plan whose input needs a string under the key `a/b` (escaped `a~1b` in a pointer). */
const plan = {
  inputSchema: {
    type: "object",
    properties: { "a/b": { type: "string" } },
    required: ["a/b"],
  },
  plan: [{ _tool: "give", _id: "c", value: 1 }],
};

describe("a diagnostic about the run's input says where in the input: inputPointer", () => {
  it("the plan's inputSchema broken: pointer at the keyword in the plan, inputPointer into the input", async () => {
    const engine = createEngine({ tools: [give] });
    const broken = await engine.validate(plan, { input: { "a/b": 1 } });
    expect(broken.diagnostics).toContainEqual(
      expect.objectContaining({
        code: "PARAM_INVALID",
        pointer: "/inputSchema/properties/a~1b/type",
        inputPointer: "/a~1b",
      }),
    );
    const missing = await engine.validate(plan, { input: {} });
    expect(missing.diagnostics).toContainEqual(
      expect.objectContaining({ code: "PARAM_INVALID", pointer: "/inputSchema/required", inputPointer: "" }),
    );
    // the plan's own diagnostics have none
    for (const diagnostic of [...broken.diagnostics, ...missing.diagnostics])
      if (diagnostic.code !== "PARAM_INVALID") expect(diagnostic).not.toHaveProperty("inputPointer");
  });

  it("an Input message's schema broken: pointer \"\", inputPointer into the message's input", async () => {
    const engine = createEngine({ tools: [give] });
    const message = {
      type: "input",
      input: { "a/b": "fine", n: "x" },
      schema: { properties: { n: { type: "integer" } } },
    };
    const { diagnostics } = await engine.validate(plan, { input: message });
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: "PARAM_INVALID", pointer: "", inputPointer: "/n" }),
    ]);
  });

  it("run's PLAN_INVALID data and validate_plan's answer carry it too", async () => {
    const engine = createEngine({ tools: [give] });
    const refused = await engine.run(plan, { input: { "a/b": 1 } }).catch((error: unknown) => error);
    if (!ObeliskError.is(refused, "PLAN_INVALID")) throw new Error("the run was not refused");
    expect(refused.data.diagnostics).toContainEqual(expect.objectContaining({ inputPointer: "/a~1b" }));
    const [validatePlan] = agentTools(engine, "t");
    const answer = (await validatePlan.execute({ plan, input: { "a/b": 1 } })) as ValidatePlanAnswer;
    expect(answer.diagnostics.map((diagnostic) => diagnostic.inputPointer)).toEqual(["/a~1b"]);
  });
});
