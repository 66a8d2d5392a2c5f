import type { AssistantMessage, ChatModel, Message, ToolCall, ToolSpec } from "./chat.js";

type Json = Record<string, unknown>;

/**
 * The plan the scripted model writes first, with two slips a real model makes: a tool name in another
 * case style (`fetch_user`) and a parameter spelt `City`. validate_plan answers both with a hint.
 */
const DRAFT = {
  type: "plan",
  plan: [
    { _tool: "fetch_user", _id: "user", userId: "†input.userId", _outputPath: "†state.user" },
    { _tool: "getWeather", _id: "weather", City: "†state.user.city", _outputPath: "†state.weather" },
  ],
};

const text = (content: string): AssistantMessage => ({ role: "assistant", content, toolCalls: [] });
const call = (id: string, name: string, args: Json): AssistantMessage => ({
  role: "assistant",
  content: "",
  toolCalls: [{ id, name, arguments: args }],
});

/**
 * A deterministic stand-in for a chat model, for the example and its test: like a model, it sees only the
 * messages and the tools. It checks the plan with validate_plan, fixes what the diagnostics' hints name
 * (`did you mean "…"?`), runs the plan, reads the variable run_plan says it wrote and answers.
 */
export function scriptedModel(): ChatModel {
  return { respond: async ({ messages, tools }) => respond(messages, tools) };
}

function respond(messages: readonly Message[], tools: readonly ToolSpec[]): AssistantMessage {
  const system = messages.find((message) => message.role === "system")?.content ?? "";
  const offered = new Set(tools.map((tool) => tool.name));
  if (
    !["validate_plan", "run_plan", "get_variable"].every((name) => offered.has(name)) ||
    !system.includes("_outputPath")
  )
    return text("I can plan only with Obelisk's agent tools and the plan-language primer.");
  const question = [...messages].reverse().find((message) => message.role === "user")?.content ?? "";
  const input = { userId: /\buser (\w+)/.exec(question)?.[1] ?? "u1" };
  const last = messages.at(-1);
  if (last?.role !== "tool") return call("c1", "validate_plan", { plan: DRAFT, input });
  const answer = JSON.parse(last.content) as Json;
  const sent = sentCall(messages, last.toolCallId);
  const next = `c${messages.filter((message) => message.role === "tool").length + 1}`;
  if (last.name === "validate_plan" || (last.name === "run_plan" && "error" in answer)) {
    // validate_plan answers them at the top, run_plan's PLAN_INVALID in error.data
    const error = answer.error as { data?: { diagnostics?: Json[] } } | undefined;
    const diagnostics = (answer.diagnostics as Json[] | undefined) ?? error?.data?.diagnostics ?? [];
    if (answer.ok === true) return call(next, "run_plan", { plan: sent?.arguments.plan, input });
    const fixed = applyHints(sent?.arguments.plan, diagnostics);
    if (fixed === undefined)
      return text(`I could not fix the plan: ${diagnostics.map((d) => d.code).join(", ")}`);
    return call(next, "run_plan", { plan: fixed, input });
  }
  if (last.name === "run_plan") {
    const wrote = ((answer.calls as Record<string, Json> | undefined)?.weather?.wrote ?? []) as string[];
    if (answer.status !== "succeeded" || wrote[0] === undefined)
      return text(`The plan did not succeed: ${last.content}`);
    return call(next, "get_variable", { reference: wrote[0] });
  }
  const weather = answer.value as { city: string; tempC: number; sky: string } | undefined;
  if (answer.found !== true || weather === undefined) return text("I could not read the weather.");
  return text(
    `It is ${weather.tempC} °C and ${weather.sky} in ${weather.city}, where user ${input.userId} lives.`,
  );
}

/** The tool call the model made with this id. */
function sentCall(messages: readonly Message[], id: string): ToolCall | undefined {
  for (const message of messages)
    if (message.role === "assistant") for (const each of message.toolCalls) if (each.id === id) return each;
  return undefined;
}

/**
 * The plan with every `did you mean "…"?` hint applied at its diagnostic's pointer: a misspelt tool name
 * or value replaced, a misspelt parameter renamed. Undefined when no hint could be applied.
 */
function applyHints(plan: unknown, diagnostics: readonly Json[]): unknown {
  const copy = structuredClone(plan) as Json;
  let applied = 0;
  for (const diagnostic of diagnostics) {
    const meant = /did you mean "([^"]+)"\?/.exec(String(diagnostic.hint ?? ""))?.[1];
    const path = String(diagnostic.pointer ?? "")
      .split("/")
      .slice(1)
      .map((key) => key.replaceAll("~1", "/").replaceAll("~0", "~"));
    const key = path.pop();
    const parent = path.reduce<unknown>((node, step) => (node as Json | undefined)?.[step], copy) as
      | Json
      | undefined;
    if (meant === undefined || key === undefined || parent === undefined || !(key in parent)) continue;
    if (diagnostic.code === "PARAM_UNKNOWN") {
      parent[meant] = parent[key];
      delete parent[key];
    } else parent[key] = meant;
    applied += 1;
  }
  return applied === 0 ? undefined : copy;
}
