import { jsonSchema, type ToolSet, tool } from "ai";
import { agentTools, type Engine } from "obelisk";

/**
 * Obelisk's four agent tools as a Vercel AI SDK tool set (`generateText({ tools })`), on one thread. The
 * SDK hands each call's parsed arguments and its `abortSignal` to `execute`; cancelling the generation
 * cancels a `run_plan` in flight.
 */
export function vercelAiTools(engine: Engine, threadId: string): ToolSet {
  return Object.fromEntries(
    agentTools(engine, threadId).map((t) => [
      t.name,
      tool({
        description: t.description,
        inputSchema: jsonSchema<Record<string, unknown>>(t.parameters),
        execute: async (args, options) => t.execute(args, options),
      }),
    ]),
  );
}
