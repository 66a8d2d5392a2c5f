import { describe, expect, it } from "vitest";
import { byName, modelTurn, strictCall, strictPlan } from "./__fixtures__/openai-strict-turn.js";
import { type AgentToolsOptions, agentTools, createEngine, type Diagnostic, defineTool } from "./index.js";

// Decision 0102 (review s40 r2 #5): validate_plan without input judged the input unknown and answered a
// plan reading †input.userId valid; run_plan without input runs with {} and refused it. A model following
// validate → run was told "valid", then refused.

const fetchUser = defineTool({
  name: "fetchUser",
  input: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  run: (args: unknown) => ({ id: (args as { id: string }).id }),
});

const call = { _tool: "fetchUser", _id: "u", id: "†input.userId", _outputPath: "†state.user" };
const inputSchema = { type: "object", properties: { userId: { type: "string" } }, required: ["userId"] };

/** The plans: no inputSchema, a schema requiring the path, an open schema, and the whole input read. */
const plans = {
  bare: { type: "plan", plan: [call] },
  required: { type: "plan", inputSchema, plan: [call] },
  open: { type: "plan", inputSchema: { type: "object" }, plan: [call] },
  whole: { type: "plan", plan: [{ ...call, id: "†input" }] },
} as const;

type Answer = {
  ok?: boolean;
  diagnostics?: readonly Diagnostic[];
  status?: string;
  error?: { code: string; data?: { diagnostics?: readonly Diagnostic[] } };
};

const codes = (diagnostics: readonly Diagnostic[] | undefined) =>
  (diagnostics ?? []).map((d) => [d.code, d.pointer]);

/** What validate_plan and run_plan answer for `plan` with `args` (the input, or none), in one form. */
async function bothTools(
  form: AgentToolsOptions["parameters"],
  plan: unknown,
  args: Record<string, unknown>,
) {
  const engine = createEngine({ tools: [fetchUser] });
  const [validatePlan, runPlan] = agentTools(engine, "t", form === undefined ? {} : { parameters: form });
  const validation = (await validatePlan.execute({ plan, ...args })) as Answer;
  const run = (await runPlan.execute({ plan, ...args })) as Answer;
  const user = await engine.get("t", "†state.user");
  await engine.close();
  return { validation, run, ran: user.found };
}

describe("validate_plan without input says what run_plan without input does (decision 0102)", () => {
  for (const form of ["strict", "loose"] as const)
    for (const [name, plan] of Object.entries(plans))
      it(`${form}, ${name}: both refuse, with the same codes and pointers`, async () => {
        const { validation, run, ran } = await bothTools(form, plan, {});
        expect(validation.ok).toBe(false);
        expect(run.error?.code).toBe("PLAN_INVALID");
        expect(codes(validation.diagnostics)).toEqual(codes(run.error?.data?.diagnostics));
        expect(codes(validation.diagnostics)).toContainEqual([
          name === "whole" ? "REF_TYPE_MISMATCH" : "REF_UNRESOLVED",
          "/plan/0/id",
        ]);
        expect(ran).toBe(false);
      });

  it("with the schema's required path missing, both name the input schema's violation first", async () => {
    const { validation } = await bothTools("strict", plans.required, {});
    expect(codes(validation.diagnostics)).toEqual([
      ["PARAM_INVALID", "/inputSchema/required"],
      ["REF_UNRESOLVED", "/plan/0/id"],
    ]);
  });

  it("given the input, both accept and the plan runs (as before)", async () => {
    for (const plan of [plans.bare, plans.required]) {
      const { validation, run, ran } = await bothTools("strict", plan, { input: { userId: "u1" } });
      expect(validation).toMatchObject({ ok: true, diagnostics: [] });
      expect(run).toMatchObject({ status: "succeeded" });
      expect(ran).toBe(true);
    }
  });

  it("openai-strict: input_json null is no input in both tools", async () => {
    const engine = createEngine({ tools: [fetchUser] });
    const list = agentTools(engine, "t", { parameters: "openai-strict" });
    const plan = strictPlan(
      strictCall("fetchUser", { _id: "u", id: "†input.userId", _outputPath: "†state.user" }),
    );
    const validation = (await modelTurn(byName(list, "validate_plan"), { plan, input_json: null })) as Answer;
    const run = (await modelTurn(byName(list, "run_plan"), { plan, input_json: null })) as Answer;
    expect(codes(validation.diagnostics)).toEqual([["REF_UNRESOLVED", "/plan/0/id"]]);
    expect(codes(run.error?.data?.diagnostics)).toEqual(codes(validation.diagnostics));
    const given = JSON.stringify({ userId: "u1" });
    expect(await modelTurn(byName(list, "validate_plan"), { plan, input_json: given })).toMatchObject({
      ok: true,
    });
    await engine.close();
  });

  it("the descriptions say it: the input is checked as run_plan will get it, none as none", () => {
    const engine = createEngine({ tools: [fetchUser] });
    for (const parameters of ["strict", "loose", "openai-strict"] as const) {
      const [validatePlan] = agentTools(engine, "t", { parameters });
      expect(validatePlan.description).toContain("as in run_plan, every †input reference is unresolved");
      expect(validatePlan.description).not.toContain("not checked");
    }
  });

  it("engine.validate keeps its reading: without an input, the input is unknown (decision 0018)", async () => {
    const engine = createEngine({ tools: [fetchUser] });
    expect(await engine.validate(plans.bare)).toMatchObject({ ok: true, diagnostics: [] });
    expect(await engine.validate(plans.required)).toMatchObject({ ok: true, diagnostics: [] });
    await engine.close();
  });
});
