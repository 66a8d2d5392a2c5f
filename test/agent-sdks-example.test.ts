import { generateText, stepCountIs } from "ai";
import { createEngine, planLanguagePrompt } from "obelisk";
import { describe, expect, it } from "vitest";
import type { Message } from "../examples/agent-loop/chat.js";
import { langChainTools } from "../examples/agent-loop/langchain.js";
import { scriptedModel } from "../examples/agent-loop/scripted-model.js";
import tools from "../examples/agent-loop/tools.js";
import { vercelAiTools } from "../examples/agent-loop/vercel-ai.js";
import { vercelScriptedModel } from "../examples/agent-loop/vercel-scripted-model.js";

type Json = Record<string, unknown>;
const QUESTION = "What is the weather where user u2 lives?";
const ANSWER = "It is 4 °C and snowing in Oslo, where user u2 lives.";

describe("examples/agent-loop: the agent tools in the Vercel AI SDK (README: A real model)", () => {
  it("generateText runs the loop: validate_plan's hints fix the plan, run_plan runs it, get_variable reads it", async () => {
    const engine = createEngine({ tools });
    const result = await generateText({
      model: vercelScriptedModel(scriptedModel()),
      system: planLanguagePrompt(engine),
      tools: vercelAiTools(engine, "chat-1"),
      stopWhen: stepCountIs(8),
      prompt: QUESTION,
    });
    expect(result.text).toBe(ANSWER);
    const calls = result.steps.flatMap((step) => step.toolResults.map((r) => [r.toolName, r.output]));
    expect(calls.map(([name]) => name)).toEqual(["validate_plan", "run_plan", "get_variable"]);
    const [validated = {}, ran] = calls.map(([, output]) => output as Json);
    expect((validated.diagnostics as Json[]).map((d) => d.code)).toEqual([
      "TOOL_UNKNOWN",
      "PARAM_MISSING",
      "PARAM_UNKNOWN",
    ]);
    expect(ran).toMatchObject({ status: "succeeded", calls: { weather: { wrote: ["†state.weather"] } } });
    expect(await engine.get("chat-1", "†state.user")).toEqual({
      found: true,
      value: { name: "Grace", city: "Oslo" },
    });
    await engine.close();
  });

  it("offers the four agent tools with Obelisk's JSON Schemas", async () => {
    const engine = createEngine({ tools });
    const set = vercelAiTools(engine, "chat-1");
    expect(Object.keys(set).sort()).toEqual(["get_variable", "list_variables", "run_plan", "validate_plan"]);
    const runPlan = set.run_plan as { inputSchema: { jsonSchema: unknown } };
    const schema = await runPlan.inputSchema.jsonSchema;
    expect(schema).toMatchObject({ type: "object", required: expect.arrayContaining(["plan"]) });
    await engine.close();
  });
});

describe("examples/agent-loop: the agent tools as LangChain.js tools (README: A real model)", () => {
  it("a loop over the LangChain tools answers like the example's own loop", async () => {
    const engine = createEngine({ tools });
    const byName = new Map(langChainTools(engine, "chat-1").map((t) => [t.name, t]));
    const model = scriptedModel();
    const messages: Message[] = [
      { role: "system", content: planLanguagePrompt(engine) },
      { role: "user", content: QUESTION },
    ];
    const specs = [...byName.values()].map((t) => ({
      name: t.name,
      description: t.description,
      parameters: {},
    }));
    let answer: string | undefined;
    for (let step = 0; step < 8 && answer === undefined; step++) {
      const reply = await model.respond({ messages, tools: specs });
      messages.push(reply);
      if (reply.toolCalls.length === 0) answer = reply.content;
      for (const call of reply.toolCalls) {
        const content = (await byName.get(call.name)?.invoke(call.arguments)) as string;
        messages.push({ role: "tool", toolCallId: call.id, name: call.name, content });
      }
    }
    expect(answer).toBe(ANSWER);
    expect(messages.flatMap((m) => (m.role === "tool" ? [m.name] : []))).toEqual([
      "validate_plan",
      "run_plan",
      "get_variable",
    ]);
    await engine.close();
  });

  it("a plan LangChain's schema check lets through reaches Obelisk, whose diagnostics come back as JSON text", async () => {
    const engine = createEngine({ tools });
    const validate = langChainTools(engine, "chat-1").find((t) => t.name === "validate_plan");
    const text = (await validate?.invoke({
      plan: { type: "plan", plan: [{ _tool: "fetchUsr", userId: "u1" }] },
    })) as string;
    const answer = JSON.parse(text) as { ok: boolean; diagnostics: Json[] };
    expect(answer.ok).toBe(false);
    expect(answer.diagnostics[0]).toMatchObject({ code: "TOOL_UNKNOWN", pointer: "/plan/0/_tool" });
    await engine.close();
  });
});
