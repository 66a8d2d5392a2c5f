import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type AgentTool, agentTools, createEngine, defineTool } from "./index.js";

const fetchUser = defineTool({
  name: "fetchUser",
  description: "Loads a user",
  input: z.object({ userId: z.string() }),
  run: ({ userId }) => ({ id: userId }),
});

/** A tool whose input schema refers to itself: the plan JSON Schema keeps it under `$defs`. */
const chain = defineTool({
  name: "chain",
  input: {
    type: "object",
    properties: { n: { type: "integer" }, next: { $ref: "#" } },
    additionalProperties: false,
  },
  run: () => 1,
});

const occurrences = (text: string, part: string): number => text.split(part).length - 1;
const parametersText = (tools: readonly AgentTool[]): string =>
  JSON.stringify(tools.map((tool) => tool.parameters));
const byName = (tools: readonly AgentTool[], name: string): AgentTool => {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no agent tool ${name}`);
  return tool;
};

describe("agentTools: the plan JSON Schema once per request, in run_plan (decision 0096)", () => {
  it.each(["strict", "loose"] as const)(
    "%s: one copy of the plan JSON Schema across the four tools' parameters",
    (form) => {
      const tools = agentTools(createEngine({ tools: [fetchUser] }), "t", { parameters: form });
      const text = parametersText(tools);
      // a meta-property's description is in the plan JSON Schema once, and the schema is given once
      expect(occurrences(text, "Names the call, so that another call")).toBe(1);
      expect(parametersText([byName(tools, "run_plan")])).toContain("Names the call, so that another call");
    },
  );

  it("strict: run_plan's parameters hold the schema's $defs where its references point", () => {
    const tools = agentTools(createEngine({ tools: [chain] }), "t");
    const parameters = byName(tools, "run_plan").parameters;
    // ajv resolves #/$defs/… from the document's root: a $defs left inside `plan` was not found
    const validate = new Ajv2020({ strict: false }).compile(parameters);
    const call = (next: unknown) => ({ plan: { type: "plan", plan: [{ _tool: "chain", n: 1, next }] } });
    expect(validate(call({ n: 2, next: { n: 3 } }))).toBe(true);
    expect(validate(call({ n: 2, next: { n: "three" } }))).toBe(false);
    expect(validate(call("†state.next"))).toBe(true);
    // the dialect is said at a document's root only
    expect(Object.keys((parameters.properties as Record<string, object>).plan ?? {})).not.toContain(
      "$schema",
    );
  });

  it("strict: validate_plan's plan is the canonical document of the engine's tools, each call's other keys open", () => {
    const engine = createEngine({ tools: [fetchUser, chain] });
    const parameters = byName(agentTools(engine, "t"), "validate_plan").parameters;
    const validate = new Ajv2020({ strict: true }).compile(parameters);
    const plan = (...calls: unknown[]) => ({ plan: { type: "plan", plan: calls } });
    expect(validate(plan({ _tool: "fetchUser", userId: "u1", _outputpath: "†state.u" }))).toBe(true);
    expect(validate(plan({ _tool: "chain", next: 5 }))).toBe(true);
    expect(validate(plan({ _tool: "fetch_user", userId: "u1" }))).toBe(false);
    expect(validate(plan({ userId: "u1" }))).toBe(false);
    expect(validate({ plan: { type: "plan" } })).toBe(false);
    const plansOf = (schema: Record<string, unknown>): unknown => {
      const plan = (schema.properties as Record<string, { properties?: Record<string, unknown> }>).plan;
      return plan?.properties?.plan;
    };
    expect(plansOf(parameters)).toMatchObject({ items: { additionalProperties: true } });
    // a registry without tools takes no call, as the plan JSON Schema
    const empty = byName(agentTools(createEngine({ tools: [] }), "t"), "validate_plan").parameters;
    expect(plansOf(empty)).toMatchObject({ items: false });
  });

  it("strict: validate_plan costs the tools' names, not their schemas", () => {
    const many = Array.from({ length: 20 }, (_, i) => ({ ...fetchUser, name: `fetchUser${i}` }));
    const tools = agentTools(createEngine({ tools: many }), "t");
    const size = (name: string) => JSON.stringify(byName(tools, name).parameters).length;
    expect(size("validate_plan")).toBeLessThan(size("run_plan") / 10);
  });
});
