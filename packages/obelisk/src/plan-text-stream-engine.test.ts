import { afterEach, describe, expect, it } from "vitest";
import { type Counts, scenarioTools } from "./__fixtures__/scenario-tools.js";
import {
  callsFromText,
  createEngine,
  createMemoryStore,
  createPlanTextStream,
  type Engine,
  type JsonObject,
  type RunResult,
  type StreamingRun,
} from "./index.js";

const inputSchema = {
  type: "object",
  properties: { name: { type: "string" } },
  required: ["name"],
};
const calls = [
  { _tool: "greetUser", name: "†input.name", _outputPath: "†state.greeting" },
  { _tool: "generateSummary", text: "†state.greeting", _outputPath: "†state.summary" },
  { _tool: "detectLanguage", text: 'Bonjour "à" † \ud83d\ude00 \\', _outputPath: "†state.language" },
  { _tool: "use", _id: "final", value: "†state.summary" },
];
const planJson = JSON.stringify({ type: "plan", inputSchema, plan: calls }, null, 2);
/** The plan as an LLM streams it: prose, a fenced block, a closing remark. */
const llmText = `Here is the plan:\n\`\`\`json\n${planJson}\n\`\`\`\nIt greets the user.`;
const input = { name: "Ada" };

function chunksOf(text: string, size: number): string[] {
  const chunks: string[] = [];
  for (let at = 0; at < text.length; at += size) chunks.push(text.slice(at, at + size));
  return chunks;
}

/** What must not differ between two runs of one plan on two threads. */
function comparable(result: RunResult) {
  const outcomes = Object.entries(result.calls).map(([id, outcome]) => [id, outcome.status, outcome.wrote]);
  return {
    status: result.status,
    planHash: result.planHash,
    state: result.state,
    outcomes,
    errors: result.errors,
  };
}

describe("a plan streamed as text into engine.open()", () => {
  let engine: Engine;
  const counts: Counts = {};
  const setup = (): Engine => {
    engine = createEngine({ tools: scenarioTools(counts), store: createMemoryStore() });
    return engine;
  };
  afterEach(async () => {
    await engine.close();
  });

  it("runs as the whole plan runs: same outcomes, state and plan hash (the run opened at the first call, with the document's inputSchema)", async () => {
    setup();
    const whole = await engine.run(planJson, { threadId: "whole", input });
    const stream = createPlanTextStream();
    let run: StreamingRun | undefined;
    for (const chunk of chunksOf(llmText, 7)) {
      for (const call of stream.push(chunk)) {
        run ??= await engine.open({
          threadId: "streamed",
          input,
          inputSchema: stream.members.inputSchema as JsonObject,
        });
        expect(run.add(call)).toMatchObject({ ok: true });
      }
    }
    expect(stream.end()).toEqual({ form: "plan", calls: 4, members: { type: "plan", inputSchema } });
    const streamed = await (run as StreamingRun).close();
    expect(comparable(streamed)).toEqual(comparable(whole));
    expect(streamed.state).toMatchObject({ greeting: "Hello Ada", language: "fr" });
  });

  it("callsFromText feeds add as the text arrives; a malformed tail leaves the calls before it to run, then close ends the run", async () => {
    setup();
    async function* tokens(): AsyncGenerator<string> {
      const text = JSON.stringify(calls.slice(0, 2));
      yield* chunksOf(`${text.slice(0, -1)}, {"_tool": "use", "value": oops}]`, 5);
    }
    const run = await engine.open({ threadId: "t", input });
    const added: string[] = [];
    try {
      for await (const call of callsFromText(tokens())) {
        const result = run.add(call);
        if (result.ok) added.push(result.callId);
      }
      expect.unreachable("the text is malformed");
    } catch (error) {
      expect(error).toMatchObject({ code: "JSON_SYNTAX", data: { line: 1, calls: 2 } });
    } finally {
      const result = await run.close();
      expect(result.status).toBe("succeeded");
      expect(result.state).toEqual({ greeting: "Hello Ada", summary: "summary of Hello Ada" });
    }
    expect(added).toHaveLength(2);
  });
});
