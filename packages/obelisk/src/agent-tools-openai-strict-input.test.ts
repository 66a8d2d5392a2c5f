import { strictSubsetProblems } from "@obelisk/compiler";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { byName, modelTurn, strictCall, strictPlan } from "./__fixtures__/openai-strict-turn.js";
import { agentTools, createEngine, defineTool, type PlanApprovalRequest } from "./index.js";

/** What `greet` was called with, per call. */
const received: unknown[] = [];
const greet = defineTool({
  name: "greet",
  input: z.object({ name: z.string() }),
  run: (args) => {
    received.push(args);
    return `hello ${args.name}`;
  },
});

/** A plan reading the run's input: `greet` the name at †input.user.name. */
const greetPlan = strictPlan(
  strictCall("greet", { _id: "g", _outputPath: "†state.greeting", name: "†input.user.name" }),
);

/** The openai-strict tools of a fresh engine (and the approval requests, when `approve` is asked). */
function strictTools() {
  const seen: PlanApprovalRequest[] = [];
  const engine = createEngine({ tools: [greet] });
  const list = agentTools(engine, "t", {
    parameters: "openai-strict",
    approve: (request) => {
      seen.push(request);
      return true;
    },
  });
  return { engine, list, seen };
}

describe("openai-strict tools: the run's input as input_json (decision 0032, amended)", () => {
  it("input_json is within the strict subset, and its object reaches †input.user.name", async () => {
    received.length = 0;
    const { engine, list, seen } = strictTools();
    for (const tool of list) expect(strictSubsetProblems(tool.parameters), tool.name).toEqual([]);
    const input_json = JSON.stringify({ user: { name: "Ada" } });
    expect(await modelTurn(byName(list, "validate_plan"), { plan: greetPlan, input_json })).toMatchObject({
      ok: true,
      diagnostics: [],
    });
    expect(await modelTurn(byName(list, "run_plan"), { plan: greetPlan, input_json })).toMatchObject({
      status: "succeeded",
      calls: { g: { status: "succeeded" } },
    });
    expect(received).toEqual([{ name: "Ada" }]);
    // the host approves the input the plan runs with: the object, not its text
    expect(seen.map((request) => request.input)).toEqual([{ user: { name: "Ada" } }]);
    expect(await engine.get("t", "†state.greeting")).toEqual({ found: true, value: "hello Ada" });
  });

  it("the input is checked as the engine checks one: a missing path, an Input message's schema", async () => {
    const { list } = strictTools();
    const missing = await modelTurn(byName(list, "validate_plan"), {
      plan: greetPlan,
      input_json: '{"user": {}}',
    });
    expect(missing).toMatchObject({
      ok: false,
      diagnostics: [{ code: "REF_UNRESOLVED", pointer: "/plan/0/name" }],
    });
    // an Input message in the text: its schema is applied, as for `input` in the other forms
    const message = { type: "input", input: { user: { name: 7 } }, schema: { type: "object" } };
    const typed = {
      ...message,
      schema: { properties: { user: { properties: { name: { type: "string" } } } } },
    };
    const refused = await modelTurn(byName(list, "validate_plan"), {
      plan: greetPlan,
      input_json: JSON.stringify(typed),
    });
    expect(refused).toMatchObject({
      ok: false,
      diagnostics: expect.arrayContaining([
        expect.objectContaining({ code: "PARAM_INVALID", inputPointer: "/user/name" }),
      ]),
    });
  });

  it("text that is not JSON is an error with its code and a hint, and nothing runs", async () => {
    received.length = 0;
    const { list, seen } = strictTools();
    for (const [text, code] of [
      ['{"user": {"name": "Ada"}', "JSON_SYNTAX"],
      ["{user: 'Ada'}", "JSON_SYNTAX"],
      // JSON.parse would keep the last one: read as strictly as plan text
      ['{"user": 1, "user": 2}', "JSON_SYNTAX"],
    ] as const) {
      for (const tool of ["validate_plan", "run_plan"]) {
        const answer = await modelTurn(byName(list, tool), { plan: greetPlan, input_json: text });
        expect(answer, `${tool} ${text}`).toEqual({
          ok: false,
          error: expect.objectContaining({
            code,
            message: expect.stringContaining("input_json"),
            hint: expect.stringContaining("JSON text of an object"),
          }),
        });
      }
    }
    expect([received, seen]).toEqual([[], []]);
  });

  it("JSON that is not an object, or an input_json that is not a string, is USAGE with a hint", async () => {
    const { list } = strictTools();
    const run = byName(list, "run_plan");
    for (const text of ["[1, 2]", '"Ada"', "42", "null", ""]) {
      const answer = await modelTurn(run, { plan: greetPlan, input_json: text });
      expect(answer, text).toMatchObject({
        ok: false,
        error: { code: text === "" ? "JSON_SYNTAX" : "USAGE", hint: expect.stringContaining("null") },
      });
    }
    // a host calling execute itself: not a string, or the input given twice
    expect(await run.execute({ plan: greetPlan, input_json: { user: {} } })).toMatchObject({
      ok: false,
      error: { code: "USAGE", message: expect.stringContaining("must be a string") },
    });
    expect(await run.execute({ plan: greetPlan, input_json: "{}", input: {} })).toMatchObject({
      ok: false,
      error: { code: "USAGE", message: expect.stringContaining("not both") },
    });
    // input itself still works for a host's own call, as in the other forms
    expect(
      await run.execute({ plan: greetPlan, input_json: null, input: { user: { name: "Bo" } } }),
    ).toMatchObject({
      status: "succeeded",
    });
  });

  it("the text is held to the engine's limits (PLAN_LIMIT), as plan text is", async () => {
    const engine = createEngine({ tools: [greet], limits: { maxDocumentBytes: 64 } });
    const run = byName(agentTools(engine, "t", { parameters: "openai-strict" }), "run_plan");
    const input_json = JSON.stringify({ user: { name: "A".repeat(100) } });
    expect(await run.execute({ plan: greetPlan, input_json })).toMatchObject({
      ok: false,
      error: { code: "PLAN_LIMIT", message: expect.stringContaining("input_json") },
    });
  });
});
