import { MockLanguageModelV4 } from "ai/test";
import type { ChatModel, Message, ToolCall, ToolSpec } from "./chat.js";

type GenerateOptions = Parameters<MockLanguageModelV4["doGenerate"]>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV4["doGenerate"]>>;
type PromptMessage = GenerateOptions["prompt"][number];

/**
 * A {@link ChatModel} (the example's scripted one) behind the Vercel AI SDK's model interface, so that
 * `generateText` runs its own loop over it: the SDK's prompt becomes the example's messages, the model's
 * reply becomes the SDK's content (text and tool calls). For the example's test; a real provider
 * (`openai("gpt-4o")`) takes its place in an application.
 */
export function vercelScriptedModel(model: ChatModel): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async ({ prompt, tools }) => {
      const specs: ToolSpec[] = (tools ?? []).flatMap((t) =>
        t.type === "function"
          ? [{ name: t.name, description: t.description ?? "", parameters: t.inputSchema }]
          : [],
      );
      const reply = await model.respond({ messages: prompt.flatMap(toMessages), tools: specs });
      return generated(reply.content, reply.toolCalls);
    },
  });
}

/** The SDK's prompt message as the example's messages (a tool message holds one result each). */
function toMessages(message: PromptMessage): Message[] {
  switch (message.role) {
    case "system":
      return [{ role: "system", content: message.content }];
    case "user":
      return [
        {
          role: "user",
          content: message.content.map((part) => (part.type === "text" ? part.text : "")).join(""),
        },
      ];
    case "assistant": {
      let content = "";
      const toolCalls: ToolCall[] = [];
      for (const part of message.content) {
        if (part.type === "text") content += part.text;
        if (part.type === "tool-call")
          toolCalls.push({
            id: part.toolCallId,
            name: part.toolName,
            arguments: part.input as Record<string, unknown>,
          });
      }
      return [{ role: "assistant", content, toolCalls }];
    }
    case "tool":
      return message.content.flatMap((part) =>
        part.type === "tool-result"
          ? [
              {
                role: "tool",
                toolCallId: part.toolCallId,
                name: part.toolName,
                content: resultText(part.output),
              },
            ]
          : [],
      );
  }
}

/** A tool result's output as the JSON text the example's model reads. */
function resultText(output: { type: string; value?: unknown }): string {
  return output.type === "text" || output.type === "error-text"
    ? String(output.value)
    : JSON.stringify(output.value);
}

/** The model's reply in the SDK's result shape. */
function generated(text: string, toolCalls: readonly ToolCall[]): GenerateResult {
  return {
    content: [
      ...(text === "" ? [] : [{ type: "text" as const, text }]),
      ...toolCalls.map((call) => ({
        type: "tool-call" as const,
        toolCallId: call.id,
        toolName: call.name,
        input: JSON.stringify(call.arguments),
      })),
    ],
    finishReason: { unified: toolCalls.length > 0 ? "tool-calls" : "stop", raw: undefined },
    usage: {
      inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 0, text: 0, reasoning: 0 },
    },
    warnings: [],
  };
}
