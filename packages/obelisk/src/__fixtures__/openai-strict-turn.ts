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
