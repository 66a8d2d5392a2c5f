import { strictSubsetProblems } from "@obelisk/compiler";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { byName, modelTurn, resolveRefs, strictCall, strictPlan } from "./__fixtures__/openai-strict-turn.js";
import {
  agentTools,
  createEngine,
  defineTool,
  type Engine,
  type PlanApprovalRequest,
  type StrictSchemaDeviation,
  strictPlanJsonSchema,
} from "./index.js";

/** What `searchOrders` was called with, per call. */
const received: unknown[] = [];
const searchOrders = defineTool({
  name: "searchOrders",
  input: z.object({
    customerId: z.string(),
    status: z.enum(["open", "shipped"]).optional(),
    limit: z.number().int().optional(),
    since: z.coerce.date().optional(),
    // a null the tool takes as a value: strict mode keeps it (decision 0028)
    cursor: z.string().nullable().optional(),
  }),
  run: (args) => {
    received.push(args);
    return [{ id: "o1", total: 12 }];
  },
});
// an open object (any keys): strict mode cannot say it, a deviation
const tag = defineTool({
  name: "tag",
  input: z.object({ labels: z.record(z.string(), z.string()) }),
  run: ({ labels }) => Object.keys(labels).length,
});
const ask = defineTool({ name: "ask", output: z.object({ answer: z.string() }) });

const tools = [searchOrders, tag, ask];
const openAi = (engine: Engine) => agentTools(engine, "t", { parameters: "openai-strict" });
/** The loop review's plan: the optional parameters left out, written null; the nullable cursor's null a value. */
const ordersPlan = strictPlan(
  strictCall("searchOrders", {
    _id: "find",
    _outputPath: "†state.orders",
    customerId: "c1",
    status: null,
    limit: null,
    since: null,
    cursor: null,
  }),
);

describe('agentTools(…, { parameters: "openai-strict" }): within OpenAI\'s strict subset', () => {
  it("every tool's parameters: objects closed and fully required, no keyword strict mode refuses", () => {
    for (const registryTools of [tools, [], [defineTool({ name: "now", run: () => 1 })]]) {
      const list = openAi(createEngine({ tools: registryTools }));
      for (const tool of list) {
        expect(strictSubsetProblems(tool.parameters), tool.name).toEqual([]);
        expect(() => new Ajv2020({ strict: true }).compile(tool.parameters)).not.toThrow();
      }
    }
    // the default form is the full plan schema, which is not (the review's `not`, optional properties)
    const full = agentTools(createEngine({ tools }), "t");
    expect(full.flatMap((tool) => strictSubsetProblems(tool.parameters)).length).toBeGreaterThan(0);
  });

  it("plan is the strict plan schema with the engine's limits; deviations are on the tools, not in JSON", () => {
    const engine = createEngine({ tools, limits: { maxRetryAttempts: 40 } });
    const list = openAi(engine);
    const { schema, deviations } = strictPlanJsonSchema(engine.registry, { limits: engine.limits });
    const { $defs, title: _title, ...plan } = schema;
    const parameters = byName(list, "run_plan").parameters as Record<string, Record<string, unknown>>;
    // the same schema, its meta-properties given once in $defs (agent-tools-strict-sharing.test.ts)
    expect(resolveRefs(parameters.properties?.plan, parameters.$defs ?? {})).toEqual({
      ...(resolveRefs(plan, $defs as Record<string, unknown>) as object),
      description: expect.any(String),
    });
    expect(JSON.stringify(parameters)).toContain('"maximum":40');
    expect(byName(list, "validate_plan").parameters).toEqual(parameters);
    expect(list.deviations).toEqual(deviations);
    expectTypeOf(list.deviations).toEqualTypeOf<readonly StrictSchemaDeviation[]>();
    const [validatePlan] = list;
    expectTypeOf(validatePlan.name).toEqualTypeOf<"validate_plan">();
    expect(list.deviations).toContainEqual(
      expect.objectContaining({ tool: "tag", reason: "open-object", pointer: "/properties/labels" }),
    );
    expect(JSON.stringify(list)).not.toContain("deviations");
    expect(list.map((tool) => tool.name)).toHaveLength(4);
    expect(agentTools(engine, "t").deviations).toEqual([]);
    expect(agentTools(engine, "t", { parameters: "loose" }).deviations).toEqual([]);
  });

  it("the run's input is input_json, the JSON text of an object or null; validate_plan's description says so", () => {
    const engine = createEngine({ tools });
    const strict = byName(openAi(engine), "validate_plan");
    const { properties } = strict.parameters as { properties: Record<string, unknown> };
    expect(Object.keys(properties)).toEqual(["plan", "input_json"]);
    expect(properties.input_json).toEqual({
      anyOf: [{ type: "string", description: expect.stringContaining("JSON text") }, { type: "null" }],
    });
    expect(byName(openAi(engine), "run_plan").parameters).toEqual(strict.parameters);
    expect(strict.description).not.toMatch(/without input/i);
    expect(strict.description).toContain("input_json");
    expect(byName(agentTools(engine, "t"), "validate_plan").description).toContain("Without input");
  });

  it("a misspelt form is refused with the nearest one", () => {
    const engine = createEngine({ tools });
    expect(() => agentTools(engine, "t", { parameters: "openai_strict" as never })).toThrow(
      expect.objectContaining({ code: "USAGE", hint: 'did you mean "openai-strict"?' }),
    );
  });
});

describe('agentTools(…, { parameters: "openai-strict" }): a strict-shaped turn validates and runs', () => {
  it("validate_plan and run_plan read the nulls as absent (fromStrictPlan) before anything else", async () => {
    received.length = 0;
    const engine = createEngine({ tools });
    const list = openAi(engine);
    expect(
      await modelTurn(byName(list, "validate_plan"), { plan: ordersPlan, input_json: null }),
    ).toMatchObject({
      ok: true,
      diagnostics: [],
    });
    expect(await modelTurn(byName(list, "run_plan"), { plan: ordersPlan, input_json: null })).toMatchObject({
      status: "succeeded",
      calls: { find: { status: "succeeded" } },
    });
    // left out means left out (no since: 1970-01-01), and the nullable cursor's null reached the tool
    expect(received).toEqual([{ customerId: "c1", cursor: null }]);
    // the same arguments through the full-schema tools: the nulls are values, the plan is refused
    const full = await byName(agentTools(engine, "t"), "validate_plan").execute({ plan: ordersPlan });
    expect(full).toMatchObject({ ok: false });
  });

  it("list_variables and get_variable take null for an argument left out", async () => {
    const engine = createEngine({ tools });
    const list = openAi(engine);
    await modelTurn(byName(list, "run_plan"), { plan: ordersPlan, input_json: null });
    const listed = await modelTurn(byName(list, "list_variables"), {
      lastN: null,
      budgetChars: null,
      refs: null,
    });
    expect(listed).toMatchObject({
      omitted: 0,
      notFound: [],
      text: expect.stringContaining("†state.orders"),
    });
    const got = await modelTurn(byName(list, "get_variable"), {
      reference: "†state.orders",
      offset: null,
      limit: null,
    });
    expect(got).toEqual({ found: true, value: [{ id: "o1", total: 12 }] });
    // a given value is still checked by the handler
    const bad = await byName(list, "list_variables").execute({ lastN: 0, budgetChars: null, refs: null });
    expect(bad).toMatchObject({ ok: false, error: { code: "USAGE" } });
  });

  it("approve is shown the plan as it runs (without the nulls), and a latent call's null _output defers", async () => {
    const engine = createEngine({ tools });
    const seen: PlanApprovalRequest[] = [];
    const list = agentTools(engine, "t", {
      parameters: "openai-strict",
      approve: (request) => {
        seen.push(request);
        return true;
      },
    });
    const asked = strictPlan(strictCall("ask", { _id: "q", _output: null }));
    expect(await modelTurn(byName(list, "run_plan"), { plan: asked, input_json: null })).toMatchObject({
      calls: { q: { status: "deferred" } },
    });
    expect(seen[0]?.plan).toEqual({ type: "plan", plan: [{ _tool: "ask", _id: "q" }] });
    expect(seen[0]?.input).toEqual({});
  });
});
