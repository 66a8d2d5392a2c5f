import { agentTools, type Engine, planLanguagePrompt } from "obelisk";
import type { ChatModel, Message } from "./chat.js";

/** What {@link runAgent} needs: the engine, the conversation's thread, the model and the user's question. */
export interface AgentOptions {
  readonly engine: Engine;
  readonly threadId: string;
  readonly model: ChatModel;
  readonly question: string;
  /** Model turns at most (default 8): a model that never answers ends the loop, not the process. */
  readonly maxSteps?: number;
}

/** The loop's outcome: the model's answer (undefined if it never gave one) and the whole conversation. */
export interface AgentResult {
  readonly answer: string | undefined;
  readonly messages: readonly Message[];
}

/**
 * The agent loop: the primer as the system prompt, the four agent tools offered to the model, each tool
 * call run through the tool's `execute` and its JSON answer sent back, until the model answers in text.
 */
export async function runAgent({
  engine,
  threadId,
  model,
  question,
  maxSteps = 8,
}: AgentOptions): Promise<AgentResult> {
  const tools = agentTools(engine, threadId);
  const specs = tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
  const messages: Message[] = [
    { role: "system", content: planLanguagePrompt(engine) },
    { role: "user", content: question },
  ];
  for (let step = 0; step < maxSteps; step++) {
    const reply = await model.respond({ messages, tools: specs });
    messages.push(reply);
    if (reply.toolCalls.length === 0) return { answer: reply.content, messages };
    for (const call of reply.toolCalls) {
      const tool = tools.find((each) => each.name === call.name);
      const answer =
        tool === undefined
          ? { ok: false, error: { code: "USAGE", message: `no tool named ${call.name}` } }
          : await tool.execute(call.arguments);
      messages.push({ role: "tool", toolCallId: call.id, name: call.name, content: JSON.stringify(answer) });
    }
  }
  return { answer: undefined, messages };
}
