import { describe, expect, it } from "vitest";
import { WARNINGS_CHARS } from "./agent-tools-diagnostics.js";
import { agentTools, createEngine, defineTool, type RunPlanAnswer } from "./index.js";

const give = defineTool({
  name: "give",
  input: { type: "object", properties: { value: {} }, required: ["value"] },
  run: (args: unknown) => (args as { value: unknown }).value,
});

describe("run_plan answers the plan's warnings, as validate_plan would have shown them", () => {
  it("a plan run directly says what is suspicious in it (REF_SUSPICIOUS: code, pointer, message, hint)", async () => {
    const engine = createEngine({ tools: [give] });
    const [validatePlan, runPlan] = agentTools(engine, "t");
    await engine.set("t", "†state.user", { id: "u1" });
    const plan = {
      type: "plan",
      plan: [
        { _tool: "give", _id: "ok", value: "†state.user.id", _outputPath: "†state.a" },
        { _tool: "give", _id: "near", value: "$state.user.id", _outputPath: "†state.b" },
      ],
    };
    const validation = await validatePlan.execute({ plan });
    if ("error" in validation) throw new Error("validate_plan failed");
    const warning = validation.diagnostics.find((diagnostic) => diagnostic.severity === "warning");
    expect(warning).toMatchObject({ code: "REF_SUSPICIOUS", pointer: "/plan/1/value", callId: "near" });
    const answer = await runPlan.execute({ plan });
    expect(answer).toMatchObject({ status: "succeeded" });
    const { severity: _severity, ...expected } = warning ?? { severity: "warning" };
    expect((answer as RunPlanAnswer).warnings).toEqual([expected]);
    expect(Object.keys(answer)).not.toContain("warningsOmitted");
  });

  it("a plan without warnings has no warnings entry", async () => {
    const engine = createEngine({ tools: [give] });
    const [, runPlan] = agentTools(engine, "t");
    const answer = await runPlan.execute({ plan: [{ _tool: "give", value: 1, _outputPath: "†state.a" }] });
    expect(answer).toMatchObject({ status: "succeeded" });
    expect(Object.keys(answer)).not.toContain("warnings");
  });

  it("many warnings are bounded: the first ones within the budget, the rest counted by code", async () => {
    const engine = createEngine({ tools: [give] });
    const [, runPlan] = agentTools(engine, "t");
    const plan = Array.from({ length: 200 }, (_, index) => ({
      _tool: "give",
      _id: `c${index}`,
      value: `$input.value${"x".repeat(200)}`,
      _outputPath: `†state.v${index}`,
    }));
    const answer = (await runPlan.execute({ plan })) as RunPlanAnswer;
    expect(answer.status).toBe("succeeded");
    const shown = answer.warnings ?? [];
    expect(shown.length).toBeGreaterThan(0);
    expect(JSON.stringify(shown).length).toBeLessThanOrEqual(WARNINGS_CHARS);
    expect(shown.map((warning) => warning.callId)).toEqual(shown.map((_, index) => `c${index}`));
    expect(answer.warningsOmitted).toEqual({ REF_SUSPICIOUS: 200 - shown.length });
    expect(JSON.stringify(answer).length).toBeLessThanOrEqual(16_000);
  });
});
