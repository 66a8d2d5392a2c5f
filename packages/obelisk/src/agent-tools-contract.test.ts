import { createToolRegistry } from "@obelisk/compiler";
import { describe, expect, it } from "vitest";
import { Controller } from "./__fixtures__/controlled-tools.js";
import { until } from "./__fixtures__/deferred.js";
import {
  type AgentTool,
  agentTools,
  createEngine,
  defineTool,
  type PlanJsonSchemaOptions,
  planJsonSchema,
} from "./index.js";

const give = defineTool({
  name: "give",
  input: { type: "object", properties: { value: {} }, required: ["value"] },
  run: (args: unknown) => (args as { value: unknown }).value,
});

/** A validator of `schema`, compiled by the same JSON Schema validator the engine uses for tool inputs. */
function validator(schema: Record<string, unknown>): (value: unknown) => boolean {
  const tool = createToolRegistry([{ name: "probe", input: schema as never, run: () => null }]).get("probe");
  if (tool === undefined) throw new Error("schema not registered");
  return (value) => tool.validateInput(value as never).length === 0;
}

/** The tools by name, with arguments passed as a framework would: parsed from the model's JSON. */
function byName(tools: AgentTool[]) {
  const map = new Map(tools.map((tool) => [tool.name, tool]));
  return (name: string, args: unknown) => {
    const tool = map.get(name);
    if (tool === undefined) throw new Error(`no agent tool ${name}`);
    return tool.execute(JSON.parse(JSON.stringify(args)) as Record<string, unknown>);
  };
}

describe("agentTools: the framework-neutral contract", () => {
  it("each tool has a snake_case name, a description and a JSON Schema the engine's validator compiles", () => {
    const tools = agentTools(createEngine({ tools: [give] }), "t");
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(tool.description.length).toBeGreaterThan(10);
      expect(JSON.parse(JSON.stringify(tool.parameters))).toEqual(tool.parameters);
      expect(tool.parameters.type).toBe("object");
      expect(() => validator(tool.parameters)).not.toThrow();
    }
  });

  it("run_plan's plan parameter is the plan JSON Schema of the engine's tools", () => {
    const tools = agentTools(createEngine({ tools: [give] }), "t");
    const runPlan = tools.find((tool) => tool.name === "run_plan");
    const check = validator(runPlan?.parameters ?? {});
    const good = { plan: { type: "plan", plan: [{ _tool: "give", value: 1, _outputPath: "†state.x" }] } };
    expect(check(good)).toBe(true);
    expect(check({ plan: { type: "plan", plan: [{ _tool: "unknownTool" }] } })).toBe(false);
    expect(check({})).toBe(false);
  });

  it("planJsonSchema is exported by obelisk: run_plan's strict plan parameter, without its description, its $defs at the parameters' root", () => {
    const engine = createEngine({ tools: [give], limits: { maxRetryAttempts: 20 } });
    const runPlan = agentTools(engine, "t").find((tool) => tool.name === "run_plan");
    if (runPlan === undefined) throw new Error("no run_plan");
    const { description, ...inParameters } = (runPlan.parameters.properties as Record<string, object>)
      .plan as Record<string, unknown>;
    // the $defs where the schema's #/$defs/… references point, the dialect only at the document's root
    const plan = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      ...inParameters,
      $defs: runPlan.parameters.$defs,
    };
    const options: PlanJsonSchemaOptions = { limits: engine.limits };
    expect(planJsonSchema(engine.registry, options)).toEqual(plan);
    expect(description).toBe("The plan: { type: 'plan', plan: [calls] }");
    // without the engine's limits, the defaults': a stricter _retry than this engine allows
    expect(planJsonSchema(engine.registry)).not.toEqual(plan);
    const check = validator(planJsonSchema(engine.registry, options));
    expect(check({ type: "plan", plan: [{ _tool: "give", value: 1, _retry: { attempts: 20 } }] })).toBe(true);
    expect(check({ type: "plan", plan: [{ _tool: "gift", value: 1 }] })).toBe(false);
  });

  it("the plan schema holds _retry to the engine's limits, as the engine's validate does", async () => {
    const retried = (attempts: number) => ({
      plan: { type: "plan", plan: [{ _tool: "give", value: 1, _retry: { attempts } }] },
    });
    for (const [limits, allowed] of [
      [undefined, 10],
      [{ maxRetryAttempts: 20 }, 20],
    ] as const) {
      const engine = createEngine({ tools: [give], ...(limits === undefined ? {} : { limits }) });
      expect(engine.limits.maxRetryAttempts).toBe(allowed);
      const runPlan = agentTools(engine, "t").find((tool) => tool.name === "run_plan");
      const check = validator(runPlan?.parameters ?? {});
      expect(check(retried(allowed))).toBe(true);
      expect(check(retried(allowed + 1))).toBe(false);
      expect((await engine.validate(retried(allowed).plan)).ok).toBe(true);
      expect((await engine.validate(retried(allowed + 1).plan)).ok).toBe(false);
    }
  });

  it("needs a thread id: missing, empty or not a string is USAGE", () => {
    const engine = createEngine({ tools: [give] });
    for (const threadId of [undefined, "", 5])
      expect(() => agentTools(engine, threadId as never)).toThrow(expect.objectContaining({ code: "USAGE" }));
  });

  it("run_plan's answer stays small however much the thread holds (a summary, not the state)", async () => {
    const engine = createEngine({ tools: [give] });
    const big = Array.from({ length: 50_000 }, (_, i) => ({ id: i, name: `record ${i}` }));
    await engine.set("agent", "†state.records", big);
    const call = byName(agentTools(engine, "agent"));
    const run = await call("run_plan", {
      plan: [{ _tool: "give", _id: "g", value: 1, _outputPath: "†state.n" }],
    });
    expect(run).toMatchObject({ status: "succeeded" });
    expect(JSON.stringify(run).length).toBeLessThan(5_000);
  });

  it("execute answers with JSON values; Obelisk errors come back as data, never thrown", async () => {
    const control = new Controller();
    const engine = createEngine({ tools: [give, control.tool("wait")] });
    const call = byName(agentTools(engine, "agent"));
    const plan = {
      type: "plan",
      plan: [{ _tool: "give", _id: "g", value: "†input.n", _outputPath: "†state.n" }],
    };
    const validation = (await call("validate_plan", { plan, input: { n: 2 } })) as Record<string, unknown>;
    expect(validation).toMatchObject({ ok: true, diagnostics: [] });
    expect(validation.planHash).toMatch(/^sha256:/);
    const run = (await call("run_plan", { plan, input: { n: 2 } })) as Record<string, unknown>;
    expect(run).toMatchObject({
      status: "succeeded",
      threadId: "agent",
      calls: { g: { wrote: ["†state.n"] } },
    });
    // the state is not returned (it may hold anything the thread ever stored): a summary of what was written
    expect(run).not.toHaveProperty("state");
    expect(run.summary).toContain("†state.n");
    expect(JSON.parse(JSON.stringify(run))).toEqual(run);
    expect(await call("list_variables", { refs: ["†state.n", "†state.none"] })).toMatchObject({
      notFound: ["†state.none"],
    });
    expect(await call("get_variable", { reference: "†state.n" })).toEqual({ found: true, value: 2 });
    expect(await call("get_variable", { reference: "†state.none" })).toEqual({
      found: false,
      hint: "nothing is stored there; list_variables lists what the thread holds",
    });
    await engine.keepLastN("agent", 0);
    expect(await call("get_variable", { reference: "†state.n" })).toMatchObject({
      ok: false,
      error: { code: "REF_EVICTED" },
    });
    const busy = engine.run([{ _tool: "wait", key: "k", _outputPath: "†state.k" }], { threadId: "agent" });
    await until(() => control.started.length === 1);
    expect(await call("run_plan", { plan })).toMatchObject({ ok: false, error: { code: "THREAD_BUSY" } });
    control.finish("k");
    expect((await busy).status).toBe("succeeded");
  });

  it.each([["validate_plan"], ["run_plan"], ["list_variables"], ["get_variable"]])(
    "%s answers arguments that are not an object (null, a number, an array, the JSON text of one) with a USAGE result",
    async (name) => {
      const call = byName(agentTools(createEngine({ tools: [give] }), "t"));
      for (const args of [null, 5, [], "[1]"])
        expect(await call(name, args)).toMatchObject({ ok: false, error: { code: "USAGE" } });
      // a string is the arguments' JSON text (as providers hand them): text that is not JSON is JSON_SYNTAX
      expect(await call(name, "plan")).toMatchObject({ ok: false, error: { code: "JSON_SYNTAX" } });
    },
  );

  it("get_variable's reference schema has a pattern: it accepts stored references and refuses the rest, which the handler refuses too (with a hint)", async () => {
    const engine = createEngine({ tools: [give] });
    await engine.set("t", "†state.user", { name: "Ada", tags: ["a"] });
    const tools = agentTools(engine, "t");
    const parameters = tools.find((tool) => tool.name === "get_variable")?.parameters ?? {};
    expect(parameters.properties).toMatchObject({
      reference: { type: "string", pattern: expect.stringMatching(/^\^†/) },
    });
    const check = validator(parameters);
    const call = byName(tools);
    for (const good of [
      "†state",
      "†state.user",
      "†state.user.tags[0]",
      '†state["user"]',
      "†calls.c1",
      '†calls["c 1"]',
    ]) {
      expect([good, check({ reference: good })]).toEqual([good, true]);
      expect([good, await call("get_variable", { reference: good })]).not.toMatchObject([
        good,
        { ok: false },
      ]);
    }
    const bad = [
      ["state.user", "REF_SYNTAX"],
      ["", "REF_SYNTAX"],
      ["†", "REF_SYNTAX"],
      ["†input.x", "USAGE"],
      ["†calls", "USAGE"],
      ["†calls[0]", "USAGE"],
      ["†stat.x", "REF_KIND_UNKNOWN"],
      ["$tool_output.c1", "REF_SYNTAX"],
      ["hello {†state.user}", "REF_SYNTAX"],
      ["†statex", "REF_KIND_UNKNOWN"],
    ] as const;
    for (const [text, code] of bad) {
      expect([text, check({ reference: text })]).toEqual([text, false]);
      expect([text, await call("get_variable", { reference: text })]).toMatchObject([
        text,
        { ok: false, error: { code, message: expect.any(String) } },
      ]);
    }
    expect(await call("get_variable", { reference: "state.user" })).toMatchObject({
      error: { hint: expect.stringContaining('"†state.user"') },
    });
    expect(await call("get_variable", { reference: "$tool_output.c1" })).toMatchObject({
      error: { hint: expect.stringContaining('"†calls.c1"') },
    });
    // the pattern checks the kind; what it lets through is still parsed and refused with its code
    for (const text of ["†state.a..b", "†state.user || †state.x"]) {
      expect(check({ reference: text })).toBe(true);
      expect(await call("get_variable", { reference: text })).toMatchObject({
        ok: false,
        error: { code: "REF_SYNTAX" },
      });
    }
    const listVariables = tools.find((tool) => tool.name === "list_variables");
    expect(validator(listVariables?.parameters ?? {})({ refs: ["state.user"] })).toBe(false);
  });

  it('list_variables refuses lastN 0 with a hint instead of answering "No variables." on a thread that has some', async () => {
    const engine = createEngine({ tools: [give] });
    await engine.set("t", "†state.a", 1);
    await engine.set("t", "†state.b", 2);
    const call = byName(agentTools(engine, "t"));
    expect(await call("list_variables", { lastN: 0 })).toEqual({
      ok: false,
      error: {
        code: "USAGE",
        message: expect.stringContaining("lastN"),
        data: null,
        hint: expect.stringContaining("leave lastN out"),
      },
    });
    const one = (await call("list_variables", { lastN: 1 })) as { text: string };
    expect(one.text).toContain("†state.b");
    expect(one.text).not.toContain("†state.a");
  });

  it("list_variables: every lastN / budgetChars its schema accepts, the engine accepts; refs must be an array; get_variable's reference a string", async () => {
    const engine = createEngine({ tools: [give] });
    const tools = agentTools(engine, "t");
    const listVariables = tools.find((tool) => tool.name === "list_variables");
    const check = validator(listVariables?.parameters ?? {});
    const call = byName(tools);
    for (const key of ["lastN", "budgetChars"]) {
      for (const value of [-1, 0, 1, 2.5, 100]) {
        const answer = (await call("list_variables", { [key]: value })) as Record<string, unknown>;
        expect([key, value, check({ [key]: value })]).toEqual([key, value, answer.ok !== false]);
      }
    }
    for (const args of [{}, { reference: 5 }, { reference: null }])
      expect(await call("get_variable", args)).toMatchObject({ ok: false, error: { code: "USAGE" } });
    expect(await call("list_variables", { refs: "†state.a" })).toMatchObject({
      ok: false,
      error: { code: "USAGE" },
    });
  });
});
