import { afterEach, describe, expect, it } from "vitest";
import { type Counts, scenarioTools } from "./__fixtures__/scenario-tools.js";
import {
  callsFromText,
  createEngine,
  createMemoryStore,
  createPlanTextStream,
  type Diagnostic,
  type Engine,
  fromStrictPlan,
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
    expect(stream.end()).toMatchObject({
      form: "plan",
      calls: 4,
      members: { type: "plan", inputSchema },
      after: { line: llmText.split("\n").length, column: 1, excerpt: "It greets the user." }, // not read
      warnings: [],
    });
    const streamed = await (run as StreamingRun).close();
    expect(comparable(streamed)).toEqual(comparable(whole));
    expect(streamed.state).toMatchObject({ greeting: "Hello Ada", language: "fr" });
  });

  it("strict structured output streams: callsFromText({ strict }) takes the null id/description, fromStrictPlan cleans each call", async () => {
    setup();
    const absent = {
      _id: null,
      _outputMethod: null,
      _description: null,
      _rerun: null,
      _timeoutMs: null,
      _retry: null,
    };
    const strictCall = { _tool: "greetUser", ...absent, name: "†input.name", _outputPath: "†state.greeting" };
    const text = JSON.stringify({ type: "plan", id: null, description: null, plan: [strictCall] });
    const run = await engine.open({ threadId: "strict", input });
    const answers: boolean[] = [];
    try {
      for await (const call of callsFromText(chunksOf(text, 9), { strict: true, limits: engine.limits }))
        answers.push(run.add(fromStrictPlan(call, engine.registry)).ok);
    } finally {
      const result = await run.close();
      expect(answers).toEqual([true]);
      expect(result.status).toBe("succeeded");
      expect(result.state).toEqual({ greeting: "Hello Ada" });
    }
  });

  it("a second plan after the first in the model's text: only the first plan's calls run, and the loop's warnings hold STREAM_SECOND_PLAN for the model", async () => {
    setup();
    const greet = JSON.stringify([calls[0]], null, 2);
    const summarize = JSON.stringify([calls[1]], null, 2);
    const text = `Step one:\n\`\`\`json\n${greet}\n\`\`\`\n\nAnd then:\n\`\`\`json\n${summarize}\n\`\`\`\n`;
    const warnings: Diagnostic[] = []; // add's warnings and the text's, as the README's loop keeps them
    const summaries = counts.generateSummary ?? 0;
    const run = await engine.open({ threadId: "two-plans", input });
    try {
      const onWarning = (warning: Diagnostic) => warnings.push(warning);
      for await (const call of callsFromText(chunksOf(text, 6), { limits: engine.limits, onWarning })) {
        const added = run.add(call);
        warnings.push(...added.diagnostics);
      }
    } finally {
      const result = await run.close();
      expect(Object.keys(result.calls)).toHaveLength(1);
      expect(result.state).toEqual({ greeting: "Hello Ada" });
    }
    expect(counts.generateSummary ?? 0).toBe(summaries);
    expect(warnings).toEqual([
      {
        code: "STREAM_SECOND_PLAN",
        severity: "warning",
        message: expect.stringContaining(
          'second plan after the first, at line 14, column 1: `[ { "_tool": "generateSummary", "text"',
        ),
        pointer: "",
        hint: "send one plan, or merge the calls into one list",
      },
    ]);
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

/** What one way of reading a plan's text made of it: run (or streamed and closed), or refused with a code at a pointer. */
type Verdict =
  | { readonly accepted: true; readonly status: string; readonly state: unknown }
  | { readonly accepted: false; readonly code: string; readonly pointer: string | undefined };

/** `engine.run(text)`: the whole text read at once. */
async function batchVerdict(engine: Engine, text: string, threadId: string): Promise<Verdict> {
  try {
    const result = await engine.run(text, { threadId });
    return { accepted: true, status: result.status, state: result.state };
  } catch (error) {
    const data = (error as { data?: { diagnostics?: { code: string; pointer: string }[] } }).data;
    const first = data?.diagnostics?.[0];
    if (first === undefined) throw error;
    return { accepted: false, code: first.code, pointer: first.pointer };
  }
}

/** The same text streamed in chunks of `size` into `engine.open().add`, with the engine's limits. */
async function streamedVerdict(
  engine: Engine,
  text: string,
  threadId: string,
  size: number,
): Promise<Verdict> {
  const stream = createPlanTextStream({ limits: engine.limits });
  const run = await engine.open({ threadId });
  let refused: Verdict | undefined;
  try {
    for (const chunk of chunksOf(text, size))
      for (const call of stream.push(chunk)) {
        const added = run.add(call);
        const first = added.diagnostics[0];
        if (!added.ok) throw Object.assign(new Error("refused by add"), { code: first?.code, data: first });
      }
    stream.end();
  } catch (error) {
    const { code, data } = error as { code: string; data?: { pointer?: string } };
    refused = { accepted: false, code, pointer: data?.pointer };
  }
  // the calls added before a problem run (and are not compared)
  const result = await run.close();
  return refused ?? { accepted: true, status: result.status, state: result.state };
}

/** `[[…[1]…]]`: an array `levels` deep. */
const nested = (levels: number): string => `${"[".repeat(levels)}1${"]".repeat(levels)}`;
const useCall = (value: string, to = "v"): string =>
  `{"_tool": "use", "value": ${value}, "_outputPath": "†state.${to}"}`;
const pad = (text: string, bytes: number): string => text + " ".repeat(bytes - Buffer.byteLength(text));

describe("the same plan text read whole by run and streamed into open().add: accepted by both, or refused by both with one code at one pointer", () => {
  const cases: [string, Record<string, number>, string, string | undefined][] = [
    // maxDepth counts from the document: the value of /plan/0/value is 3 levels down
    [
      "a plan document's call at the depth limit",
      { maxDepth: 8 },
      `{"type": "plan", "plan": [${useCall(nested(5))}]}`,
      undefined,
    ],
    [
      "a plan document's call one level past it",
      { maxDepth: 8 },
      `{"type": "plan", "plan": [${useCall(nested(6))}]}`,
      "/plan/0/value/0/0/0/0/0",
    ],
    [
      "a calls document's call one level past it",
      { maxDepth: 8 },
      `{"calls": [${useCall(nested(6))}]}`,
      "/calls/0/value/0/0/0/0/0",
    ],
    ["an array's call at the depth limit", { maxDepth: 8 }, `[${useCall(nested(6))}]`, undefined],
    ["an array's call one level past it", { maxDepth: 8 }, `[${useCall(nested(7))}]`, "/0/value/0/0/0/0/0/0"],
    [
      "a member of a plan document past it",
      { maxDepth: 3 },
      `{"type": "plan", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}, "plan": []}`,
      "/inputSchema/properties/a",
    ],
    ["one call at the depth limit", { maxDepth: 8 }, useCall(nested(7)), undefined],
    ["as many calls as maxCalls", { maxCalls: 2 }, `[${useCall("1", "a")}, ${useCall("2", "b")}]`, undefined],
    [
      "one call more than maxCalls",
      { maxCalls: 2 },
      `[${useCall("1", "a")}, ${useCall("2", "b")}, ${useCall("3", "c")}]`,
      "",
    ],
    [
      "one call more than maxCalls in a plan document",
      { maxCalls: 1 },
      `{"type": "plan", "plan": [${useCall("1", "a")}, ${useCall("2", "b")}]}`,
      "/plan",
    ],
    ["a text of maxDocumentBytes", { maxDocumentBytes: 200 }, pad(`[${useCall('"é †"')}]`, 200), undefined],
    [
      "a text one byte over maxDocumentBytes",
      { maxDocumentBytes: 200 },
      pad(`[${useCall('"é †"')}]`, 201),
      "",
    ],
  ];

  it.each(cases)("%s", async (_, limits, text, refusedAt) => {
    const engine = createEngine({ tools: scenarioTools({}), store: createMemoryStore(), limits });
    try {
      const whole = await batchVerdict(engine, text, "whole");
      expect(whole).toMatchObject(
        refusedAt === undefined
          ? { accepted: true, status: "succeeded" }
          : { accepted: false, code: "PLAN_LIMIT", pointer: refusedAt },
      );
      for (const size of [1, 7, text.length])
        expect(await streamedVerdict(engine, text, `streamed-${size}`, size)).toEqual(
          refusedAt === undefined ? whole : { accepted: false, code: "PLAN_LIMIT", pointer: refusedAt },
        );
    } finally {
      await engine.close();
    }
  });
});
