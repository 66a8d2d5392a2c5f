/** A tool call the model asks for: which tool, with which arguments (already parsed from JSON). */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/** One message of the conversation, in the shape most chat APIs share. */
export type Message =
  | { readonly role: "system" | "user"; readonly content: string }
  | { readonly role: "assistant"; readonly content: string; readonly toolCalls: readonly ToolCall[] }
  | { readonly role: "tool"; readonly toolCallId: string; readonly name: string; readonly content: string };

/** What the model is told about a tool: the agent tools' own name, description and JSON Schema. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: object;
}

/** The model's turn: text, tool calls, or both. */
export type AssistantMessage = Extract<Message, { role: "assistant" }>;

/** A chat model with tool calling: the one thing a real provider replaces (README: "A real model"). */
export interface ChatModel {
  respond(request: {
    readonly messages: readonly Message[];
    readonly tools: readonly ToolSpec[];
  }): Promise<AssistantMessage>;
}
