import { createToolRegistry } from "@obelisk/compiler";
import { describe, expect, it } from "vitest";
import { type AgentTool, agentTools, createEngine, defineTool, planJsonSchema } from "./index.js";

const fetchUser = defineTool({
  name: "fetchUser",
  input: {
    type: "object",
    properties: { userId: { type: "string" } },
    required: ["userId"],
    additionalProperties: false,
  },
  run: (args: unknown) => ({ id: (args as { userId: string }).userId, name: "Ada" }),
});

/** A validator of `schema`, compiled by the same JSON Schema validator the engine uses for tool inputs. */
function validator(schema: Record<string, unknown>): (value: unknown) => boolean {
  const tool = createToolRegistry([{ name: "probe", input: schema as never, run: () => null }]).get("probe");
  if (tool === undefined) throw new Error("schema not registered");
  return (value) => tool.validateInput(value as never).length === 0;
}

/**
 * A framework that validates tool input against `parameters` before calling the tool, as LangChain's
 * DynamicStructuredTool does: input that breaks the schema never reaches `execute`, and the model is told
 * only that it did not match.
 */
function frameworkCall(tools: readonly AgentTool[], name: string, args: unknown): Promise<unknown> {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no agent tool ${name}`);
  if (!validator(tool.parameters)(args))
    return Promise.resolve("Received tool input did not match expected schema");
  return tool.execute(JSON.parse(JSON.stringify(args)) as Record<string, unknown>);
}

/** Plans that break the plan JSON Schema, and the diagnostic Obelisk answers each with. */
const brokenPlans = [
  [
    { _tool: "fetch_user", userId: "u1", _outputPath: "†state.u" },
    { code: "TOOL_UNKNOWN", pointer: "/plan/0/_tool", hint: 'did you mean "fetchUser"?' },
  ],
  [
    { _tool: "fetchUser", userId: "u1", _outputpath: "†state.u" },
    { code: "META_UNKNOWN", pointer: "/plan/0/_outputpath", hint: 'did you mean "_outputPath"?' },
  ],
  [{ _tool: "fetchUser", userId: 5, _outputPath: "†state.u" }, { code: "PARAM_INVALID" }],
] as const;

describe("agentTools' parameters: loose for frameworks that validate tool input", () => {
  it.each(["validate_plan", "run_plan"])(
    "%s: a plan that breaks the plan schema reaches the tool and gets Obelisk's diagnostics",
    async (name) => {
      const engine = createEngine({ tools: [fetchUser] });
      const strict = agentTools(engine, "t");
      const loose = agentTools(engine, "t", { parameters: "loose" });
      for (const [call, diagnostic] of brokenPlans) {
        const args = { plan: { type: "plan", plan: [call] } };
        // strict: the framework swallows the diagnostics the model needs to fix its plan (validate_plan's
        // outline names the tools only, the plan JSON Schema is run_plan's: decision 0096)
        if (name === "run_plan" || call._tool === "fetch_user")
          expect(await frameworkCall(strict, name, args)).toBe(
            "Received tool input did not match expected schema",
          );
        const answer = await frameworkCall(loose, name, args);
        const diagnostics =
          name === "validate_plan"
            ? (answer as { diagnostics: unknown }).diagnostics
            : (answer as { error: { data: { diagnostics: unknown } } }).error.data.diagnostics;
        expect(answer).toMatchObject(
          name === "validate_plan" ? { ok: false } : { ok: false, error: { code: "PLAN_INVALID" } },
        );
        expect(diagnostics).toEqual([expect.objectContaining(diagnostic)]);
      }
      expect(await engine.runs.list({ threadId: "t" })).toEqual([]);
      // a valid plan runs through the loose tools as through the strict ones
      const good = {
        plan: { type: "plan", plan: [{ _tool: "fetchUser", userId: "u1", _outputPath: "†state.u" }] },
      };
      expect(await frameworkCall(loose, name, good)).toMatchObject(
        name === "validate_plan" ? { ok: true, diagnostics: [] } : { status: "succeeded" },
      );
    },
  );

  it.each(["validate_plan", "run_plan"])(
    "%s: a bare array of calls and a plan as JSON text reach the tool too, as the engine reads them (decision 0044)",
    async (name) => {
      const engine = createEngine({ tools: [fetchUser] });
      const loose = agentTools(engine, "t", { parameters: "loose" });
      const typo = [{ _tool: "fetch_user", userId: "u1", _outputPath: "†state.u" }];
      for (const [plan, pointer] of [
        [typo, "/0/_tool"],
        [JSON.stringify({ type: "plan", plan: typo }), "/plan/0/_tool"],
        [JSON.stringify(typo), "/0/_tool"],
      ] as const) {
        const answer = (await frameworkCall(loose, name, { plan })) as Record<string, unknown>;
        expect(answer).toMatchObject({ ok: false });
        const { diagnostics } = (
          name === "validate_plan" ? answer : (answer.error as { data: object }).data
        ) as {
          diagnostics: unknown;
        };
        expect(diagnostics).toEqual([
          expect.objectContaining({ code: "TOOL_UNKNOWN", pointer, hint: 'did you mean "fetchUser"?' }),
        ]);
      }
      expect(await engine.runs.list({ threadId: "t" })).toEqual([]);
      const good = [{ _tool: "fetchUser", userId: "u1", _outputPath: "†state.u" }];
      for (const plan of [good, JSON.stringify(good)])
        expect(await frameworkCall(loose, name, { plan })).toMatchObject(
          name === "validate_plan" ? { ok: true, diagnostics: [] } : { status: "succeeded" },
        );
      // what no plan form is: the framework may refuse it (the engine would answer USAGE / PLAN_SHAPE)
      expect(await frameworkCall(loose, name, { plan: 5 })).toBe(
        "Received tool input did not match expected schema",
      );
    },
  );

  it("the loose plan is any object, array or text described by the plan JSON Schema, as text; the other arguments keep their types only", () => {
    const engine = createEngine({ tools: [fetchUser] });
    const loose = agentTools(engine, "t", { parameters: "loose" });
    const schema = planJsonSchema(engine.registry, { limits: engine.limits });
    for (const tool of loose) {
      expect(JSON.parse(JSON.stringify(tool.parameters))).toEqual(tool.parameters);
      expect(() => validator(tool.parameters)).not.toThrow();
      // no keyword that would refuse what the handler answers with a hint
      expect(JSON.stringify(tool.parameters)).not.toMatch(/"(pattern|minimum|maximum|anyOf|const)"/);
    }
    const [validatePlan, runPlan] = loose;
    for (const tool of [validatePlan, runPlan]) {
      const plan = (tool.parameters.properties as Record<string, Record<string, unknown>>).plan;
      // every form execute takes; strict and openai-strict keep the canonical object (decision 0040)
      expect(plan?.type).toEqual(["object", "array", "string"]);
      expect(plan?.items).toEqual({ type: "object" });
      expect(plan?.description).toContain("{ type: 'plan', plan: [calls] }");
      expect(tool.parameters.required).toEqual(["plan"]);
    }
    // the plan JSON Schema once, in run_plan's description; validate_plan's says where it is (decision 0096)
    const description = (tool: AgentTool | undefined) =>
      (tool?.parameters.properties as Record<string, { description: string }> | undefined)?.plan?.description;
    expect(description(runPlan)).toContain(JSON.stringify(schema));
    expect(description(validatePlan)).not.toContain(JSON.stringify(schema));
    expect(description(validatePlan)).toContain("run_plan's plan parameter");
  });

  it("list_variables and get_variable: arguments the strict schema refuses reach the handler, which answers with a hint", async () => {
    const engine = createEngine({ tools: [fetchUser] });
    await engine.set("t", "†state.user", { name: "Ada" });
    const strict = agentTools(engine, "t");
    const loose = agentTools(engine, "t", { parameters: "loose" });
    for (const [name, args, error] of [
      [
        "get_variable",
        { reference: "state.user" },
        { code: "REF_SYNTAX", hint: expect.stringContaining('did you mean "†state.user"?') },
      ],
      ["list_variables", { budgetChars: 50_000 }, { code: "USAGE" }],
      ["list_variables", { lastN: 0 }, { code: "USAGE" }],
    ] as const) {
      expect(await frameworkCall(strict, name, args)).toBe(
        "Received tool input did not match expected schema",
      );
      expect(await frameworkCall(loose, name, args)).toMatchObject({ ok: false, error });
    }
  });

  it('the default is "strict"; another form is USAGE with the nearest one, and so is an unknown option', () => {
    const engine = createEngine({ tools: [fetchUser] });
    const parametersOf = (tools: readonly AgentTool[]) => tools.map((tool) => tool.parameters);
    expect(parametersOf(agentTools(engine, "t"))).toEqual(
      parametersOf(agentTools(engine, "t", { parameters: "strict" })),
    );
    expect(() => agentTools(engine, "t", { parameters: "lose" as never })).toThrow(
      expect.objectContaining({ code: "USAGE", hint: 'did you mean "loose"?' }),
    );
    expect(() => agentTools(engine, "t", { parameters: true as never })).toThrow(
      expect.objectContaining({ code: "USAGE" }),
    );
    // a misspelt approve ran every plan unapproved
    expect(() => agentTools(engine, "t", { aprove: () => true } as never)).toThrow(
      expect.objectContaining({ code: "USAGE", hint: 'did you mean "approve"?' }),
    );
  });
});
