import { describe, expect, it } from "vitest";
import type { JsonValue } from "./json-value.js";
import type { LimitOverrides } from "./limits.js";
import { ObeliskError } from "./obelisk-error.js";
import { parsePlanText } from "./parse-plan-text.js";
import {
  callsFromText,
  createPlanTextStream,
  type PlanTextEnd,
  type PlanTextErrorData,
} from "./plan-text-stream.js";

/** Feeds `text` in chunks of `size`; the calls each push returned, and the end (or the error thrown). */
function feed(text: string, size = 1): { calls: JsonValue[]; end?: PlanTextEnd; error?: ObeliskError } {
  const stream = createPlanTextStream();
  const calls: JsonValue[] = [];
  try {
    for (let at = 0; at < text.length; at += size) calls.push(...stream.push(text.slice(at, at + size)));
    return { calls, end: stream.end() };
  } catch (error) {
    if (!ObeliskError.is(error)) throw error;
    return { calls, error };
  }
}

const plan = [
  { _tool: "fetchUser", id: "†input.userId", _outputPath: "†state.user" },
  { _tool: "greet", name: 'say "hi" \\ \u00e9 \ud83d\ude00 †state.user.name', n: [1, -2.5e-3, { x: null }] },
];

describe("createPlanTextStream", () => {
  it("yields each call of an array as soon as its closing brace arrives", () => {
    const text = JSON.stringify(plan);
    const firstEnd = text.indexOf("},{") + 1;
    const stream = createPlanTextStream();
    expect(stream.push(text.slice(0, firstEnd - 1))).toEqual([]);
    expect(stream.push(text.slice(firstEnd - 1, firstEnd))).toEqual([plan[0]]);
    expect(stream.push(text.slice(firstEnd))).toEqual([plan[1]]);
    expect(stream.end()).toEqual({ form: "array", calls: 2, members: {}, warnings: [] });
  });

  it("reads a plan document whose call list comes after other members; the members come at the end", () => {
    const document = {
      type: "plan",
      id: "p1",
      inputSchema: { type: "object", properties: { userId: { type: "string" } } },
      plan,
      description: "greets [the] {user}",
    };
    const { calls, end } = feed(JSON.stringify(document, null, 2));
    expect(calls).toEqual(plan);
    const { plan: _, ...members } = document;
    expect(end).toEqual({ form: "plan", calls: 2, members, warnings: [] });
  });

  it("members: {} until the call list starts, then every member before it (e.g. the inputSchema to open a run with)", () => {
    const inputSchema = { type: "object", properties: { plan: { type: "array" } } };
    const text = JSON.stringify({ type: "plan", inputSchema, plan, id: "late" });
    const stream = createPlanTextStream();
    const beforeList = text.indexOf('"plan":[');
    expect(stream.push(text.slice(0, beforeList))).toEqual([]);
    expect(stream.members).toEqual({});
    expect(stream.push(text.slice(beforeList, text.indexOf("},{") + 1))).toEqual([plan[0]]);
    expect(stream.members).toEqual({ type: "plan", inputSchema });
    stream.push(text.slice(text.indexOf("},{") + 1));
    expect(stream.end().members).toEqual({ type: "plan", inputSchema, id: "late" });
  });

  it("reads the other forms run accepts: { calls } and one call object (yielded when it closes)", () => {
    expect(feed(JSON.stringify({ calls: plan }))).toEqual({
      calls: plan,
      end: { form: "calls", calls: 2, members: {}, warnings: [] },
    });
    // a call's own parameter named "plan" is a parameter: the object has "_tool" first
    const one = { _tool: "note", plan: [1, 2], text: "}" };
    expect(feed(JSON.stringify(one))).toEqual({
      calls: [one],
      end: { form: "call", calls: 1, members: {}, warnings: [] },
    });
  });

  it('holds a list\'s calls until the document closes when no "type": "plan" came first: it may be one call', () => {
    // `_tool` after the list: run reads this as one review call whose parameter is named plan
    const call = { plan: [{ _tool: "charge", amount: 5 }], _tool: "review" };
    const text = JSON.stringify(call);
    const stream = createPlanTextStream();
    expect(stream.push(text.slice(0, -1))).toEqual([]);
    expect(stream.push("}")).toEqual([call]);
    expect(stream.end()).toMatchObject({ form: "call", calls: 1 });
    expect(parsePlanText(text).document?.calls.map((entry) => entry.value)).toEqual([call]);
    // the same without _tool is a plan: its calls come when it closes
    const document = { plan, id: "p" };
    const held = JSON.stringify(document);
    const plain = createPlanTextStream();
    expect(plain.push(held.slice(0, -1))).toEqual([]);
    expect(plain.push("}")).toEqual(plan);
    expect(plain.end()).toMatchObject({ form: "plan", calls: 2 });
    // a calls list beside "type": "plan" is refused when the document closes: none of its calls come out
    const typedCalls = feed(JSON.stringify({ type: "plan", calls: plan }));
    expect(typedCalls.calls).toEqual([]);
    expect(typedCalls.error?.code).toBe("PLAN_SHAPE");
    // "type": "plan" first: streamed call by call (a later _tool is refused, never one call)
    const typed = createPlanTextStream();
    const streamed = JSON.stringify({ type: "plan", plan });
    expect(typed.push(streamed.slice(0, streamed.indexOf("},{") + 1))).toEqual([plan[0]]);
  });

  it("splits anywhere, inside escapes, \\u sequences and surrogate pairs", () => {
    const text = '[{"_tool":"a","s":"\\"\\\\\\u00e9\\ud83d\\ude00 \ud83d\ude00 †"}]';
    for (let size = 1; size <= 4; size++) expect(feed(text, size).calls).toEqual(JSON.parse(text));
  });

  it("skips what comes before the first [ or { (a ```json fence, prose) and does not read what comes after the plan", () => {
    const text = `Sure! Here is the plan:\n\n\`\`\`json\n${JSON.stringify(plan)}\n\`\`\`\nIt greets {the user} [twice].`;
    const { calls, end } = feed(text, 7);
    expect(calls).toEqual(plan);
    expect(end).toMatchObject({ form: "array", calls: 2, members: {}, warnings: [] });
    expect(end?.after).toMatchObject({ excerpt: "It greets {the user} [twice]." });
  });

  it("skips brackets in prose before the plan ([step 1], {user}, [1]) that do not open JSON", () => {
    const json = JSON.stringify(plan);
    const texts = [
      `I'll look the user up [step 1], then greet them.\n\`\`\`json\n${json}\n\`\`\``,
      `Plan for {user}:\n\`\`\`json\n${JSON.stringify({ type: "plan", plan })}\n\`\`\``,
      `See [1] and [ 2 ] first, then: ${json}`,
      `Plan for {user}: { "type": "plan", "plan": ${json} }`,
    ];
    for (const text of texts)
      for (const size of [1, 3, 1000]) expect(feed(text, size).calls, `${text} by ${size}`).toEqual(plan);
  });

  it("reads the bracket after a fence line as the plan, whatever follows it (as run reads the JSON)", () => {
    expect(feed("Plan [a]:\n```json\n[0]\n```", 2).calls).toEqual([0]);
    expect(feed("[0]").calls).toEqual([0]);
  });

  it("says where the plan was taken to start when a problem follows prose", () => {
    const { error } = feed('Here is [the plan]: [{"_tool":"a" "x":1}]', 4);
    expect(error?.code).toBe("JSON_SYNTAX");
    expect(error?.hint).toContain("the plan was read from the `[` at line 1, column 21");
    // without prose there is nothing to point at
    expect(feed('[{"_tool":"a" "x":1}]').error?.hint).toBe("the plan must be strict JSON (no comments)");
    const none = feed("Plan for {user} [step 1].").error;
    expect(none?.message).toContain("no JSON array or object in the text");
    expect(none?.message).toContain("brackets in prose, such as [step 1] or {user}, are skipped");
  });

  it("strict: the document's id and description written as null are absent, not PLAN_SHAPE", () => {
    const text = '{"type":"plan","id":null,"description":null,"plan":[{"_tool":"a","id":null}]}';
    const read = (strict: boolean) => {
      const stream = createPlanTextStream({ strict });
      const calls = stream.push(text);
      return { calls, members: stream.members, end: () => stream.end() };
    };
    const strict = read(true);
    expect(strict.calls).toEqual([{ _tool: "a", id: null }]); // calls as written: fromStrictPlan cleans them
    expect(strict.members).toEqual({ type: "plan" });
    expect(strict.end()).toEqual({ form: "plan", calls: 1, members: { type: "plan" }, warnings: [] });
    expect(() => read(false).end()).toThrow(expect.objectContaining({ code: "PLAN_SHAPE" }));
    // one call's own id parameter is never dropped
    const call = createPlanTextStream({ strict: true });
    expect(call.push('{"_tool":"a","id":null}')).toEqual([{ _tool: "a", id: null }]);
  });

  it("yields every element of the list, whatever it is (the engine's add refuses what is not a call)", () => {
    expect(feed('[1, "two", null, [3], {"_tool":"a"}]', 2).calls).toEqual([
      1,
      "two",
      null,
      [3],
      { _tool: "a" },
    ]);
  });

  it("keeps __proto__ as own data, as the engine's plan reading does", () => {
    const { calls } = feed('[{"_tool":"a","__proto__":{"polluted":true}}]', 5);
    const call = calls[0] as Record<string, unknown>;
    expect(Object.getPrototypeOf(call)).toBe(Object.prototype);
    expect(Object.hasOwn(call, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("createPlanTextStream names a byte order mark between calls (adversarial review, stop 39)", () => {
  it("not 'the plan is empty' after a call was read", () => {
    const stream = createPlanTextStream();
    const first = stream.push('[{"_tool":"echo","x":1},\uFEFF{"_tool":"echo","x":2}]');
    expect(first).toHaveLength(1);
    let thrown: unknown;
    try {
      stream.end();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ObeliskError);
    expect(thrown).toMatchObject({
      code: "JSON_SYNTAX",
      hint: "remove the byte order mark (U+FEFF) here: JSON allows none inside the plan",
    });
  });
});

describe("createPlanTextStream refuses malformed text with its position", () => {
  const cases: [string, string, string, { line: number; column: number; pointer?: string; calls: number }][] =
    [
      [
        "a broken literal",
        '[{"_tool":"a"},\n  {"_tool": tru}]',
        "JSON_SYNTAX",
        { line: 2, column: 13, pointer: "/1", calls: 1 },
      ],
      [
        "brackets that do not match",
        '[{"_tool":"a", "x": [1}]',
        "JSON_SYNTAX",
        { line: 1, column: 23, calls: 0 },
      ],
      ["a trailing comma", '[{"_tool":"a"},]', "JSON_SYNTAX", { line: 1, column: 16, calls: 1 }],
      ["a missing comma", '[{"_tool":"a"} {"_tool":"b"}]', "JSON_SYNTAX", { line: 1, column: 16, calls: 1 }],
      [
        "a key repeated in a call",
        '[{"_tool":"a","x":1,"x":2}]',
        "JSON_SYNTAX",
        { line: 1, column: 25, pointer: "/0/x", calls: 0 },
      ],
      [
        "a number beyond ±2^53",
        '{"plan":[{"_tool":"a","n":12345678901234567890}]}',
        "JSON_SYNTAX",
        { line: 1, column: 27, pointer: "/plan/0/n", calls: 0 },
      ],
      [
        "a key repeated in the document",
        '{"type":"plan","type":"plan","plan":[]}',
        "JSON_SYNTAX",
        { line: 1, column: 23, pointer: "/type", calls: 0 },
      ],
      [
        "an unknown top-level member",
        '{"plan":[{"_tool":"a"}],\n"note":1}',
        "PLAN_SHAPE",
        // no "type": "plan" first: its calls wait for the document to close, which refuses it
        { line: 2, column: 1, pointer: "/note", calls: 0 },
      ],
      [
        "a document of another type",
        '{"type":"input","plan":[{"_tool":"a"}]}',
        "PLAN_SHAPE",
        { line: 1, column: 2, pointer: "/type", calls: 0 },
      ],
      [
        "an object that is no plan",
        '{"steps":[{"_tool":"a"}]}',
        "PLAN_SHAPE",
        { line: 1, column: 1, pointer: "", calls: 0 },
      ],
      [
        "a plan member that is no list",
        '{"plan":{"_tool":"a"}}',
        "PLAN_SHAPE",
        { line: 1, column: 2, pointer: "/plan", calls: 0 },
      ],
      [
        "text that ends inside a call",
        '[{"_tool":"a"},{"_tool":"b"',
        "JSON_SYNTAX",
        { line: 1, column: 28, calls: 1 },
      ],
      ["text without [ or {", "I cannot help with that.", "JSON_SYNTAX", { line: 1, column: 25, calls: 0 }],
    ];

  it.each(cases)("%s", (_, text, code, data) => {
    for (const size of [1, 3, text.length]) {
      const { error, calls } = feed(text, size);
      expect(error?.code).toBe(code);
      expect(error?.data).toMatchObject(data);
      expect(error?.message).toContain(`line ${data.line}, column ${data.column}`);
      expect(calls).toHaveLength(data.calls);
    }
    // run refuses the same text with the same code, and a syntax problem at the same place
    const whole = parsePlanText(text);
    const first = whole.diagnostics[0];
    expect(first?.code).toBe(code);
    if (code === "JSON_SYNTAX" && !text.startsWith("I ")) {
      const at = whole.sourceMap?.positionOf(first?.pointer ?? "");
      expect([at?.line, at?.column]).toEqual([data.line, data.column]);
    }
  });

  it("a chunk that completes calls before its problem returns them; the next push or end throws it", () => {
    const stream = createPlanTextStream();
    expect(stream.push('[{"_tool":"a"},{"_tool":"b"},x')).toEqual([{ _tool: "a" }, { _tool: "b" }]);
    expect(() => stream.push("]")).toThrow(expect.objectContaining({ code: "JSON_SYNTAX" }));
    expect(() => stream.end()).toThrow(expect.objectContaining({ code: "JSON_SYNTAX" }));
  });

  it("a document past maxDocumentBytes or nested past maxDepth is PLAN_LIMIT while it streams", () => {
    const long = createPlanTextStream({ limits: { maxDocumentBytes: 100 } });
    long.push('[{"_tool":"a","text":"');
    expect(() => {
      for (let index = 0; index < 10; index++) long.push("x".repeat(20));
    }).toThrow(expect.objectContaining({ code: "PLAN_LIMIT" }));
    const deep = createPlanTextStream({ limits: { maxDepth: 3 } });
    expect(() => deep.push('[{"_tool":"a","x":[[[')).toThrow(expect.objectContaining({ code: "PLAN_LIMIT" }));
  });

  it("the document's limits are counted as run counts them on the same text: depth from the root, calls, size", () => {
    const refusal = (text: string, limits: LimitOverrides, size = 1) => {
      const stream = createPlanTextStream({ limits });
      const calls: JsonValue[] = [];
      try {
        for (let at = 0; at < text.length; at += size) calls.push(...stream.push(text.slice(at, at + size)));
        stream.end();
        return { calls: calls.length };
      } catch (error) {
        const { code, data } = error as ObeliskError;
        const { pointer, line, column } = data as PlanTextErrorData;
        return { calls: calls.length, code, pointer, line, column };
      }
    };
    const whole = (text: string, limits: LimitOverrides) => {
      const first = parsePlanText(text, { limits }).diagnostics[0];
      return first === undefined ? undefined : { code: first.code, pointer: first.pointer };
    };
    const cases: [string, LimitOverrides, ReturnType<typeof refusal>][] = [
      // the call's x is at depth 4 of the document (3 of the call): the limit is the document's
      [
        '{"type":"plan","plan":[{"_tool":"a","x":[[1]]}]}',
        { maxDepth: 4 },
        { calls: 0, code: "PLAN_LIMIT", pointer: "/plan/0/x/0", line: 1, column: 42 },
      ],
      [
        '[{"_tool":"a"},\n {"_tool":"b","x":{"y":[{}]}}]',
        { maxDepth: 4 },
        { calls: 1, code: "PLAN_LIMIT", pointer: "/1/x/y/0", line: 2, column: 25 },
      ],
      [
        '{"type":"plan","plan":[{"_tool":"a"}]}',
        { maxDepth: 2 },
        { calls: 0, code: "PLAN_LIMIT", pointer: "/plan/0", line: 1, column: 24 },
      ],
      [
        '{"plan":[]}',
        { maxDepth: 1 },
        { calls: 0, code: "PLAN_LIMIT", pointer: "/plan", line: 1, column: 9 },
      ],
      ["[]", { maxDepth: 0 }, { calls: 0, code: "PLAN_LIMIT", pointer: "", line: 1, column: 1 }],
      // maxCalls: the call one past it is refused as it begins; those before it were handed out
      [
        '{"type":"plan","plan":[{"_tool":"a"},{"_tool":"b"}]}',
        { maxCalls: 1 },
        { calls: 1, code: "PLAN_LIMIT", pointer: "/plan", line: 1, column: 38 },
      ],
      ['[{"_tool":"a"}]', { maxCalls: 0 }, { calls: 0, code: "PLAN_LIMIT", pointer: "", line: 1, column: 2 }],
      // a held list (it may be a call's parameter) is counted when the document closes
      [
        '{"plan":[{"_tool":"a"},{"_tool":"b"}]}',
        { maxCalls: 1 },
        { calls: 0, code: "PLAN_LIMIT", pointer: "/plan", line: 1, column: 9 },
      ],
      ['{"plan":[{"_tool":"a"},{"_tool":"b"}],"_tool":"review"}', { maxCalls: 1 }, { calls: 1 }],
      // size: every character up to the plan's end and the blanks after it (a pair of surrogates is 4 bytes)
      [
        '[{"_tool":"\ud83d\ude00"}]  \n',
        { maxDocumentBytes: 20 },
        { calls: 1, code: "PLAN_LIMIT", pointer: "", line: 1, column: 19 },
      ],
      ['[{"_tool":"\ud83d\ude00"}]  \n', { maxDocumentBytes: 21 }, { calls: 1 }],
      [
        '[{"_tool":"\ud83d\ude00"}]',
        { maxDocumentBytes: 17 },
        { calls: 1, code: "PLAN_LIMIT", pointer: "", line: 1, column: 16 },
      ],
      // a leading byte order mark is not the document's (run drops it)
      ['\ufeff[{"_tool":"é"}]', { maxDocumentBytes: 16 }, { calls: 1 }],
    ];
    for (const [text, limits, expected] of cases) {
      for (const size of [1, 2, text.length]) expect(refusal(text, limits, size), text).toEqual(expected);
      const refused =
        expected.code === undefined ? undefined : { code: expected.code, pointer: expected.pointer };
      expect(whole(text, limits), text).toEqual(refused);
    }
  });

  it("misuse is USAGE: a chunk that is not a string, a push after end", () => {
    const stream = createPlanTextStream();
    expect(() => stream.push(3 as unknown as string)).toThrow(expect.objectContaining({ code: "USAGE" }));
    stream.push("[]");
    expect(stream.end()).toEqual({ form: "array", calls: 0, members: {}, warnings: [] });
    expect(stream.end()).toEqual({ form: "array", calls: 0, members: {}, warnings: [] });
    expect(() => stream.push("[]")).toThrow(expect.objectContaining({ code: "USAGE" }));
  });
});

describe("callsFromText", () => {
  it("refuses chunks that are not text with a hint that says how to get the text", async () => {
    const bytes = callsFromText([new TextEncoder().encode("[]")] as never).next();
    await expect(bytes).rejects.toMatchObject({
      code: "USAGE",
      message: "a plan text chunk must be a string, not bytes",
      hint: expect.stringContaining("TextDecoder"),
    });
    const delta = callsFromText([{ type: "text-delta", text: "[]" }] as never).next();
    await expect(delta).rejects.toMatchObject({
      message: "a plan text chunk must be a string, not object",
      hint: expect.stringContaining("not the chunk object"),
    });
  });

  it("refuses chunks that are not iterable with USAGE, not a raw TypeError", async () => {
    await expect(callsFromText(null as never).next()).rejects.toMatchObject({ code: "USAGE" });
  });

  async function* chunksOf(text: string, size: number): AsyncGenerator<string> {
    for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
  }

  it("yields the calls as their text arrives and returns the end", async () => {
    const text = JSON.stringify({ type: "plan", plan, id: "p" });
    const generator = callsFromText(chunksOf(text, 5));
    const calls: JsonValue[] = [];
    let step = await generator.next();
    while (step.done !== true) {
      calls.push(step.value);
      step = await generator.next();
    }
    expect(calls).toEqual(plan);
    expect(step.value).toEqual({ form: "plan", calls: 2, members: { type: "plan", id: "p" }, warnings: [] });
  });

  it("yields the calls before a problem, then throws it", async () => {
    const calls: JsonValue[] = [];
    const reading = (async () => {
      for await (const call of callsFromText(['[{"_tool":"a"},{"_tool":"b"}, oops]'])) calls.push(call);
    })();
    await expect(reading).rejects.toMatchObject({ code: "JSON_SYNTAX", data: { calls: 2 } });
    expect(calls).toEqual([{ _tool: "a" }, { _tool: "b" }]);
  });
});
