import { strictSubsetProblems } from "@obelisk/compiler";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { byName, resolveRefs, strictCall, strictPlan } from "./__fixtures__/openai-strict-turn.js";
import { agentTools, createEngine, defineTool, type Engine, strictPlanJsonSchema } from "./index.js";

const run = () => 1;
const tools = [
  defineTool({
    name: "search",
    input: z.object({ query: z.string(), limit: z.number().int().optional() }),
    run,
  }),
  defineTool({ name: "fetch", input: z.object({ id: z.string() }), run }),
  defineTool({ name: "charge", input: z.object({ cents: z.number().int() }), idempotent: false, run }),
  defineTool({ name: "refund", input: z.object({ cents: z.number().int() }), idempotent: false, run }),
  // a rule of its own: its _outputPath is its own schema, required, not shared
  defineTool({
    name: "setNote",
    input: z.object({ text: z.string() }),
    outputPath: { const: "†state.note" },
    run,
  }),
];

type Schema = Record<string, unknown>;
const runPlanParameters = (engine: Engine): Schema =>
  byName(agentTools(engine, "t", { parameters: "openai-strict" }), "run_plan").parameters as Schema;

/** run_plan's parameters as they were before the sharing: the strict plan schema as it comes. */
function unshared(engine: Engine): Schema {
  const {
    $defs,
    title: _title,
    ...plan
  } = strictPlanJsonSchema(engine.registry, { limits: engine.limits }).schema;
  const shared = runPlanParameters(engine);
  const properties = shared.properties as Schema;
  const description = (properties.plan as Schema).description;
  return { ...shared, properties: { ...properties, plan: { ...plan, description } }, $defs };
}

/** The calls' schemas of run_plan's plan, by tool name. */
function callsOf(parameters: Schema): Map<string, Schema> {
  const plan = (parameters.properties as Schema).plan as Schema;
  const items = (plan.properties as Schema).plan as Schema;
  const calls = ((items.items as Schema).anyOf ?? [items.items]) as Schema[];
  return new Map(
    calls.map((call) => [((call.properties as Schema)._tool as { enum: string[] }).enum[0] ?? "", call]),
  );
}

const META = ["_id", "_outputPath", "_outputMethod", "_description", "_rerun", "_timeoutMs", "_retry"];

describe("openai-strict: the meta-properties every call writes are given once, in $defs (decision 0096)", () => {
  it("each call's meta-properties are lone $refs; _outputPath's description is written once; no $ref to a $ref", () => {
    const engine = createEngine({ tools });
    const parameters = runPlanParameters(engine);
    const defs = parameters.$defs as Schema;
    const text = JSON.stringify(parameters);
    // once shared, once in setNote's own (its rule): not once per call
    expect(text.split("Where the result is written").length - 1).toBe(2);
    for (const [tool, call] of callsOf(parameters)) {
      const properties = call.properties as Schema;
      for (const name of META) {
        if (tool === "setNote" && name === "_outputPath") continue;
        const schema = properties[name] as Schema;
        expect(Object.keys(schema), `${tool} ${name}`).toEqual(["$ref"]);
        // the definition is the schema itself (with its null), not one more reference
        const target = defs[String(schema.$ref).slice("#/$defs/".length)] as Schema;
        expect(target.anyOf, `${tool} ${name}`).toContainEqual({ type: "null" });
        expect(JSON.stringify(target.anyOf)).not.toContain("$ref");
      }
      expect(call.required).toEqual(Object.keys(properties));
    }
    // the tools that are not idempotent share their own _rerun and _retry; the rule stays the tool's own
    const calls = callsOf(parameters);
    const propertiesOf = (tool: string) => (calls.get(tool)?.properties ?? {}) as Schema;
    const rerun = (tool: string) => (propertiesOf(tool)._rerun as Schema).$ref;
    expect(rerun("charge")).toBe(rerun("refund"));
    expect(rerun("charge")).not.toBe(rerun("search"));
    expect(propertiesOf("setNote")._outputPath).toEqual(expect.objectContaining({ enum: ["†state.note"] }));
    // within strict mode's subset, and the same schema once each reference is resolved
    expect(strictSubsetProblems(parameters)).toEqual([]);
    const before = unshared(engine);
    expect(resolveRefs(parameters.properties, defs)).toEqual(
      resolveRefs(before.properties, before.$defs as Schema),
    );
    // smaller by about the wrapper and the description per call
    expect(text.length).toBeLessThan(JSON.stringify(before).length - 4 * 300);
    // one tool: nothing is written twice, the parameters are the strict plan schema as it comes
    const one = createEngine({ tools: [tools[1] as (typeof tools)[number]] });
    expect(runPlanParameters(one)).toEqual(unshared(one));
  });

  it("gives every argument the verdict the unshared schema gives", () => {
    const engine = createEngine({ tools });
    const [mine, theirs] = [runPlanParameters(engine), unshared(engine)];
    expect(JSON.stringify(mine).length).toBeLessThan(JSON.stringify(theirs).length);
    const shared = new Ajv2020({ strict: true }).compile(mine);
    const whole = new Ajv2020({ strict: true }).compile(theirs);
    const args = (...calls: unknown[]) => ({ plan: strictPlan(...calls), input_json: null });
    const { _id: _leftOut, ...withoutId } = strictCall("fetch", { id: "a" });
    const cases = [
      args(strictCall("search", { query: "q", limit: null }), strictCall("fetch", { id: "†state.x" })),
      args(strictCall("fetch", { id: "a", _outputPath: "†state.a", _retry: null })),
      args(strictCall("fetch", { id: "a", _outputPath: "state.a" })),
      args(strictCall("charge", { cents: 1, _rerun: true })),
      args(strictCall("charge", { cents: 1, _rerun: false })),
      args(strictCall("search", { query: "q", limit: 2, _rerun: true })),
      args(strictCall("setNote", { text: "t", _outputPath: "†state.note" })),
      args(strictCall("setNote", { text: "t", _outputPath: null })),
      args(strictCall("fetch", { id: "a", _id: "bad id" })),
      args(strictCall("fetch", { id: "a", _outputMethod: "merge", _timeoutMs: 0 })),
      args(withoutId),
    ];
    const verdicts = cases.map((value) => [shared(value), whole(value)]);
    for (const [i, [given, expected]] of verdicts.entries()) expect(given, `case ${i}`).toBe(expected);
    expect(verdicts.map(([given]) => given)).toEqual([
      true,
      true,
      false,
      false,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });
});
