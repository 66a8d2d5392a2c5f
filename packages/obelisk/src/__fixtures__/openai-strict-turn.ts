import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsPlugin from "ajv-formats";
import { expect } from "vitest";
import type { AgentTool } from "../index.js";

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => Ajv2020;

/** One of `agentTools`' tools by name (throws when there is none). */
export const byName = (list: readonly AgentTool[], name: string): AgentTool => {
  const tool = list.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no agent tool ${name}`);
  return tool;
};

/**
 * A model turn under OpenAI's strict function calling: the arguments are generated within `parameters`
 * (checked here with ajv in strict mode, as the provider's constrained decoding would hold them) and handed
 * to `execute` as they are.
 */
export async function modelTurn(tool: AgentTool, args: Record<string, unknown>): Promise<unknown> {
  const validate = addFormats(new Ajv2020({ strict: true })).compile(tool.parameters);
  expect(validate(args), JSON.stringify(validate.errors)).toBe(true);
  return tool.execute(JSON.parse(JSON.stringify(args)) as Record<string, unknown>);
}

/** A call as strict mode has the model write it: every meta-property, `null` where it is left out. */
export const strictCall = (tool: string, fields: Record<string, unknown>) => ({
  _tool: tool,
  _id: null,
  _outputPath: null,
  _outputMethod: null,
  _description: null,
  _rerun: null,
  _timeoutMs: null,
  _retry: null,
  ...fields,
});

/** A plan document as strict mode has the model write it (`id` and `description` null). */
export const strictPlan = (...calls: unknown[]) => ({
  type: "plan",
  id: null,
  description: null,
  plan: calls,
});

/**
 * `schema` with every lone `$ref` into `defs` replaced by what it points at (the strict plan schema's
 * meta-properties are shared in the agent tools' parameters, decision 0096): two schemas that resolve alike
 * give the same verdicts. `depth` guards a recursive definition.
 */
export function resolveRefs(schema: unknown, defs: Record<string, unknown>, depth = 0): unknown {
  if (Array.isArray(schema)) return schema.map((item) => resolveRefs(item, defs, depth));
  if (typeof schema !== "object" || schema === null) return schema;
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === "string" && Object.keys(schema).length === 1 && ref.startsWith("#/$defs/") && depth < 8)
    return resolveRefs(defs[ref.slice(8)], defs, depth + 1);
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, resolveRefs(value, defs, depth)]),
  );
}
