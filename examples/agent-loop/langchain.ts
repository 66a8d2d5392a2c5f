import { DynamicStructuredTool } from "@langchain/core/tools";
import { agentTools, type Engine } from "obelisk";

/**
 * Obelisk's four agent tools as LangChain.js tools (`createReactAgent({ tools })`, `model.bindTools`), on
 * one thread. Their schemas are the loose ones: LangChain checks arguments against the schema before the
 * tool runs, so a strict schema would answer a wrong plan with LangChain's error instead of Obelisk's
 * diagnostics, which are what the model can fix its plan from. Answers are JSON text.
 */
export function langChainTools(engine: Engine, threadId: string): DynamicStructuredTool[] {
  return agentTools(engine, threadId, { parameters: "loose" }).map(
    (t) =>
      new DynamicStructuredTool({
        name: t.name,
        description: t.description,
        schema: t.parameters,
        func: async (args: Record<string, unknown>, _runManager, config) =>
          JSON.stringify(await t.execute(args, { signal: config?.signal })),
      }),
  );
}
