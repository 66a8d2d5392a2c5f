import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type AgentTool,
  type AgentToolFailure,
  agentTools,
  createEngine,
  defineTool,
  type GetVariableAnswer,
  type JsonValue,
  type ListVariablesAnswer,
  type ObeliskCode,
  type RunPlanAnswer,
  type ValidatePlanAnswer,
} from "./index.js";

const give = defineTool({
  name: "give",
  input: { type: "object", properties: { value: {} }, required: ["value"] },
  run: (args: unknown) => (args as { value: unknown }).value,
});

// The checks that matter are the types: this file must compile (the package's typecheck includes tests).
describe("agentTools' answers are typed per tool (hosts read them without casts)", () => {
  it("each tool has its name and answer type; an answer with error is the failure", async () => {
    const engine = createEngine({ tools: [give] });
    const tools = agentTools(engine, "t");
    const [validatePlan, runPlan, listVariables, getVariable] = tools;
    expectTypeOf(validatePlan.name).toEqualTypeOf<"validate_plan">();
    expectTypeOf(getVariable.name).toEqualTypeOf<"get_variable">();
    expect(tools.map((tool) => tool.name)).toEqual([
      "validate_plan",
      "run_plan",
      "list_variables",
      "get_variable",
    ]);

    const validation = await validatePlan.execute({ plan: [{ _tool: "giv", value: 1 }] });
    expectTypeOf(validation).toEqualTypeOf<ValidatePlanAnswer | AgentToolFailure>();
    if ("error" in validation) throw new Error("validate_plan failed");
    expect(validation.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["TOOL_UNKNOWN"]);

    const run = await runPlan.execute({
      plan: [{ _tool: "give", _id: "g", value: 2, _outputPath: "†state.g" }],
    });
    expectTypeOf(run).toEqualTypeOf<RunPlanAnswer | AgentToolFailure>();
    if ("error" in run) throw new Error("run_plan failed");
    const outcome = run.calls.g;
    // a union on status, as RunResult's: a failed call always has its error
    if (outcome?.status === "failed") expectTypeOf(outcome.error.code).toBeString();
    expect([run.status, outcome?.status]).toEqual(["succeeded", "succeeded"]);

    const refused = await runPlan.execute({ plan: [{ _tool: "giv" }] });
    if (!("error" in refused)) throw new Error("expected a failure");
    expectTypeOf(refused.error.code).toEqualTypeOf<ObeliskCode>();
    expect(refused.error.code).toBe("PLAN_INVALID");

    const list = await listVariables.execute({});
    expectTypeOf(list).toEqualTypeOf<ListVariablesAnswer | AgentToolFailure>();
    const got = await getVariable.execute({ reference: "†state.g" });
    expectTypeOf(got).toEqualTypeOf<GetVariableAnswer | AgentToolFailure>();
    if ("error" in got || !got.found) throw new Error("expected the value");
    expect("value" in got ? got.value : undefined).toBe(2);
  });

  it("the typed tools are still AgentTools answering JSON values", () => {
    const tools: AgentTool[] = agentTools(createEngine({ tools: [give] }), "t");
    expectTypeOf<ValidatePlanAnswer | RunPlanAnswer | AgentToolFailure>().toExtend<JsonValue>();
    expectTypeOf<ListVariablesAnswer | GetVariableAnswer>().toExtend<JsonValue>();
    expect(tools).toHaveLength(4);
  });
});
