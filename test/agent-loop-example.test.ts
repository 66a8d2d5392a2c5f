import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createEngine, planLanguagePrompt } from "obelisk";
import { describe, expect, it } from "vitest";
import { runAgent } from "../examples/agent-loop/agent-loop.js";
import type { AssistantMessage, ChatModel, Message } from "../examples/agent-loop/chat.js";
import { scriptedModel } from "../examples/agent-loop/scripted-model.js";
import tools from "../examples/agent-loop/tools.js";

type Json = Record<string, unknown>;

const toolAnswers = (messages: readonly Message[]) =>
  messages.flatMap((message) =>
    message.role === "tool" ? [{ name: message.name, answer: JSON.parse(message.content) as Json }] : [],
  );

describe("examples/agent-loop: a scripted model drives Obelisk through the agent tools", () => {
  it("gets diagnostics back, fixes the plan by their hints, runs it, reads the variable and answers", async () => {
    const engine = createEngine({ tools });
    const { answer, messages } = await runAgent({
      engine,
      threadId: "chat-1",
      model: scriptedModel(),
      question: "What is the weather where user u2 lives?",
    });
    expect(messages[0]).toEqual({ role: "system", content: planLanguagePrompt(engine) });
    const answers = toolAnswers(messages);
    expect(answers.map((each) => each.name)).toEqual(["validate_plan", "run_plan", "get_variable"]);
    const diagnostics = (answers[0]?.answer.diagnostics ?? []) as Json[];
    expect(diagnostics.map((d) => [d.code, d.hint])).toEqual([
      ["TOOL_UNKNOWN", 'did you mean "fetchUser"?'],
      ["PARAM_MISSING", undefined],
      ["PARAM_UNKNOWN", 'did you mean "city"?'],
    ]);
    // the plan the model runs is its draft with the hints applied: plan.json
    const runCall = messages
      .flatMap((m) => (m.role === "assistant" ? m.toolCalls : []))
      .find((c) => c.name === "run_plan");
    expect(runCall?.arguments.plan).toEqual(
      JSON.parse(readFileSync(new URL("../examples/agent-loop/plan.json", import.meta.url), "utf8")),
    );
    expect(answers[1]?.answer).toMatchObject({
      status: "succeeded",
      calls: { user: { status: "succeeded" }, weather: { wrote: ["†state.weather"] } },
    });
    expect(answers[2]?.answer).toEqual({ found: true, value: { city: "Oslo", tempC: 4, sky: "snowing" } });
    expect(answer).toBe("It is 4 °C and snowing in Oslo, where user u2 lives.");
    expect(await engine.get("chat-1", "†state.user")).toEqual({
      found: true,
      value: { name: "Grace", city: "Oslo" },
    });
    await engine.close();
  });

  it("the scripted model plans only when it is given the primer and the agent tools", async () => {
    const reply = await scriptedModel().respond({
      messages: [{ role: "user", content: "What is the weather where user u1 lives?" }],
      tools: [],
    });
    expect(reply).toEqual({
      role: "assistant",
      content: "I can plan only with Obelisk's agent tools and the plan-language primer.",
      toolCalls: [],
    });
  });

  it("a model that never answers in text ends the loop after maxSteps, with no answer", async () => {
    const engine = createEngine({ tools });
    let turns = 0;
    const looping: ChatModel = {
      respond: async (): Promise<AssistantMessage> => ({
        role: "assistant",
        content: "",
        toolCalls: [{ id: `c${++turns}`, name: "list_variables", arguments: {} }],
      }),
    };
    const result = await runAgent({ engine, threadId: "t", model: looping, question: "?", maxSteps: 3 });
    expect(result.answer).toBeUndefined();
    expect(turns).toBe(3);
    await engine.close();
  });

  it("a tool name the loop does not offer comes back to the model as an error, not a throw", async () => {
    const engine = createEngine({ tools });
    const replies: AssistantMessage[] = [
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "run_sql", arguments: {} }] },
      { role: "assistant", content: "done", toolCalls: [] },
    ];
    const model: ChatModel = { respond: async () => replies.shift() as AssistantMessage };
    const result = await runAgent({ engine, threadId: "t", model, question: "?" });
    expect(toolAnswers(result.messages)).toEqual([
      { name: "run_sql", answer: { ok: false, error: { code: "USAGE", message: "no tool named run_sql" } } },
    ]);
    expect(result.answer).toBe("done");
    await engine.close();
  });
});

describe("planLanguagePrompt's worked example validates against every example's tools", () => {
  const examples = fileURLToPath(new URL("../examples/", import.meta.url));
  const withTools = readdirSync(examples, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && readdirSync(`${examples}${entry.name}`).includes("tools.ts"))
    .map((entry) => entry.name);

  it("finds the examples' tools modules", () => {
    expect(withTools).toEqual(
      expect.arrayContaining(["agent-loop", "greeting", "payments", "data-analysis"]),
    );
  });

  it.each(withTools)("%s", async (name) => {
    const module = (await import(`../examples/${name}/tools.ts`)) as { default: unknown[] };
    const engine = createEngine({ tools: module.default as Parameters<typeof createEngine>[0]["tools"] });
    const prompt = planLanguagePrompt(engine);
    const start = prompt.indexOf('{"type":"plan","plan":[\n');
    expect(start).toBeGreaterThan(0);
    const example = JSON.parse(prompt.slice(start, prompt.indexOf("\n]}", start) + 3)) as unknown;
    const validation = await engine.validate(example);
    expect(validation.diagnostics).toEqual([]);
    expect(validation.ok).toBe(true);
    await engine.close();
  });
});
