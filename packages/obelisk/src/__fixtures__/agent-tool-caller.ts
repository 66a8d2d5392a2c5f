import type { AgentTool } from "../index.js";

/** Calls the agent tools by name with JSON arguments, as a framework would; the answer as a record. */
export function agentToolCaller(tools: readonly AgentTool[]) {
  const map = new Map(tools.map((tool) => [tool.name, tool]));
  return async (name: string, args: unknown): Promise<Record<string, unknown>> => {
    const tool = map.get(name);
    if (tool === undefined) throw new Error(`no agent tool ${name}`);
    return (await tool.execute(JSON.parse(JSON.stringify(args)) as Record<string, unknown>)) as Record<
      string,
      unknown
    >;
  };
}

/** Characters of a value's JSON. */
export const jsonSize = (value: unknown): number => JSON.stringify(value).length;
