import type { JsonObject, JsonValue } from "@obelisk/core";

/**
 * A framework-neutral tool definition an LLM agent can call. `Name` and `Answer` type one tool (what
 * `agentTools` returns is typed per tool); the defaults fit any of them.
 */
export interface AgentTool<Name extends string = string, Answer extends JsonValue = JsonValue> {
  /** Tool name (snake_case). */
  readonly name: Name;
  /** What the tool does, for the model. */
  readonly description: string;
  /** JSON Schema of the arguments (`agentTools`' `parameters` option: strict, loose or openai-strict). */
  readonly parameters: JsonObject;
  /**
   * Runs the tool; never throws for bad plans or arguments: diagnostics and Obelisk errors are answered as
   * data (an answer with `error` is an {@link AgentToolFailure}). `options`: what the framework passes with
   * the call — its cancel signal cancels a `run_plan` (waiting: it never runs; running: the run is cancelled).
   * `args`: the arguments object, or its JSON text as a provider hands it (`item.arguments`): text that is not
   * JSON, cut off or malformed, is answered as a `JSON_SYNTAX` error the model can act on.
   */
  execute(args: Record<string, unknown> | string, options?: AgentToolCallOptions): Promise<Answer>;
}

/**
 * What a framework passes with a tool call, as far as the agent tools read it: the call's cancel signal
 * (the Vercel AI SDK's `abortSignal`, LangChain's `signal`; either is read).
 */
export interface AgentToolCallOptions {
  readonly abortSignal?: AbortSignal | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** The cancel signal among a framework's call options, when it is one (anything else is ignored). */
export function callSignal(options: AgentToolCallOptions | undefined): AbortSignal | undefined {
  if (typeof options !== "object" || options === null) return undefined;
  const signal: unknown = options.abortSignal ?? options.signal;
  return signal instanceof AbortSignal ? signal : undefined;
}
