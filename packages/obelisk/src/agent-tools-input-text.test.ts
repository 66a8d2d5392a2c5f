import { describe, expect, it } from "vitest";
import { agentTools, createEngine, defineTool } from "./index.js";

const greet = defineTool({
  name: "greet",
  input: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  run: (args) => `hello ${String(args.name)}`,
});

const plan = [{ _tool: "greet", _id: "g", name: "†input.name", _outputPath: "†state.greeting" }];

/** `validate_plan` and `run_plan` of a fresh engine's tools, in the given parameters form. */
function planTools(parameters: "strict" | "loose" | "openai-strict") {
  const engine = createEngine({ tools: [greet] });
  const [validate, run] = agentTools(engine, "t", { parameters });
  if (validate === undefined || run === undefined) throw new Error("no plan tools");
  return { engine, validate, run };
}

describe("validate_plan and run_plan read an input given as JSON text, as they read the plan (review s32 L8)", () => {
  it.each(["strict", "loose", "openai-strict"] as const)(
    "%s: input as the JSON text of an object validates and runs as the object",
    async (parameters) => {
      const { engine, validate, run } = planTools(parameters);
      const input = JSON.stringify({ name: "c" });
      expect(await validate.execute({ plan, input })).toMatchObject({ ok: true, diagnostics: [] });
      expect(await run.execute({ plan: JSON.stringify(plan), input })).toMatchObject({
        status: "succeeded",
        calls: { g: { status: "succeeded" } },
      });
      expect(await engine.get("t", "†state.greeting")).toEqual({ found: true, value: "hello c" });
    },
  );

  it("text that is not JSON, or JSON that is not an object, is refused with the input's own hint; nothing runs", async () => {
    const { engine, validate, run } = planTools("strict");
    for (const [text, code] of [
      ['{"name": "c",}', "JSON_SYNTAX"],
      ["", "JSON_SYNTAX"],
      ['["c"]', "USAGE"],
      ['"c"', "USAGE"],
    ] as const) {
      for (const tool of [validate, run])
        expect(await tool.execute({ plan, input: text }), `${tool.name} ${text}`).toMatchObject({
          ok: false,
          error: {
            code,
            message: expect.stringMatching(
              /^input (is not usable JSON text|must be the JSON text of an object)/,
            ),
            hint: expect.stringContaining("or as the JSON text of one"),
          },
        });
    }
    expect(await engine.runs.list({ threadId: "t" })).toEqual([]);
  });

  it("the loose parameters take the input as an object or as text", () => {
    const { run } = planTools("loose");
    const properties = run.parameters.properties as Record<string, { type: unknown }>;
    expect(properties.input?.type).toEqual(["object", "string"]);
  });
});

describe("every agent tool takes its arguments as JSON text too, as providers hand them (item.arguments)", () => {
  it("the text of the arguments object runs as the object; cut-off text is JSON_SYNTAX with a hint; nothing runs", async () => {
    const { engine, run } = planTools("openai-strict");
    const [, , list, get] = agentTools(engine, "t", { parameters: "openai-strict" });
    const text = JSON.stringify({ plan: JSON.stringify(plan), input_json: JSON.stringify({ name: "a" }) });
    expect(await run.execute(text.slice(0, -9))).toMatchObject({
      ok: false,
      error: { code: "JSON_SYNTAX", hint: expect.stringContaining("complete JSON object of its arguments") },
    });
    expect(await engine.get("t", "†state.greeting")).toEqual({ found: false });
    expect(await run.execute("[1]")).toMatchObject({ ok: false, error: { code: "USAGE" } });
    expect(await run.execute(text)).toMatchObject({ status: "succeeded" });
    expect(
      await get?.execute(JSON.stringify({ reference: "†state.greeting", offset: null, limit: null })),
    ).toMatchObject({
      value: "hello a",
    });
    expect(await list?.execute("{")).toMatchObject({ ok: false, error: { code: "JSON_SYNTAX" } });
  });
});
