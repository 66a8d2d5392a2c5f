import { describe, expect, it, vi } from "vitest";
import { agentToolCaller, jsonSize } from "./__fixtures__/agent-tool-caller.js";
import { MAX_LIST_CHARS } from "./agent-tools.js";
import { GET_LIMITS } from "./agent-tools-get.js";
import { RUN_LIMITS } from "./agent-tools-run.js";
import { agentTools, createEngine, defineTool } from "./index.js";

const give = defineTool({
  name: "give",
  input: { type: "object", properties: { value: {} }, required: ["value"] },
  run: (args: unknown) => (args as { value: unknown }).value,
});
const thrower = defineTool({
  name: "thrower",
  input: { type: "object" },
  run: () => {
    throw Object.assign(new Error(`boom ${"E".repeat(500_000)}`), { code: "X" });
  },
});

async function bigThread() {
  const engine = createEngine({ tools: [give, thrower] });
  const wide: Record<string, string> = {};
  for (let index = 0; index < 50_000; index++) wide[`k${index}`] = "v".repeat(20);
  await engine.set("t", "†state.wide", wide);
  await engine.set(
    "t",
    "†state.arr",
    Array.from({ length: 50_000 }, (_, index) => `item${index}`),
  );
  await engine.set("t", "†state.str", "s".repeat(1_000_000));
  await engine.set("t", "†state.arrOfBig", ["x".repeat(1_000_000), "y"]);
  await engine.set("t", "†state.small", { a: 1 });
  return { engine, call: agentToolCaller(agentTools(engine, "t")) };
}

describe("get_variable: every answer is bounded (review 7 H2)", () => {
  it("pages an object by keys: limit is honoured, the page says how to go on", async () => {
    const { call } = await bigThread();
    const page = await call("get_variable", { reference: "†state.wide", limit: 10 });
    expect(page).toMatchObject({
      found: true,
      type: "object",
      offset: 0,
      limit: 10,
      total: 50_000,
      next: 10,
    });
    expect(Object.keys(page.entries as object)).toEqual(Array.from({ length: 10 }, (_, i) => `k${i}`));
    expect(page.note).toContain('"offset":10');
    const last = await call("get_variable", { reference: "†state.wide", offset: 49_995 });
    expect(Object.keys(last.entries as object)).toHaveLength(5);
    expect(last).not.toHaveProperty("next");
  });

  it("lists a large object's keys once for all its pages (each page listed every key: quadratic)", async () => {
    const { engine, call } = await bigThread();
    const stored = (await engine.get("t", "†state.wide")).value;
    const listed = vi.spyOn(Object, "keys");
    try {
      listed.mockClear();
      const seen: string[] = [];
      for (let offset = 0; offset < 50_000; offset += 10_000) {
        const page = await call("get_variable", { reference: "†state.wide", offset, limit: 10_000 });
        const keys = Object.keys(page.entries as object);
        expect(keys[0]).toBe(`k${offset}`);
        seen.push(...keys);
        offset += keys.length - 10_000; // a page may end early on the character budget
      }
      expect(seen).toHaveLength(50_000);
      expect(listed.mock.calls.filter(([object]) => object === stored)).toHaveLength(1);
    } finally {
      listed.mockRestore();
    }
  });

  it("without limit, large arrays, objects and strings come as a default page within the budget", async () => {
    const { call } = await bigThread();
    for (const reference of ["†state.wide", "†state.arr", "†state.str", "†state", "†state.arrOfBig"]) {
      const answer = await call("get_variable", { reference });
      expect([reference, jsonSize(answer) <= GET_LIMITS.answerChars]).toEqual([reference, true]);
      expect(answer).toMatchObject({ found: true, offset: 0 });
      // a note says what was left out: the next page, or the values too large to show (†state: every key)
      expect(answer.note).toEqual(expect.any(String));
    }
    expect(await call("get_variable", { reference: "†state.arr" })).toMatchObject({
      limit: GET_LIMITS.pageItems,
    });
    // small values still come whole
    expect(await call("get_variable", { reference: "†state.small" })).toEqual({
      found: true,
      value: { a: 1 },
    });
  });

  it("pages a long string with surrogate pairs by characters, each later page reading only its own (stop 28)", async () => {
    const engine = createEngine({ tools: [give] });
    const value = "é✓x😀".repeat(50_000); // 200,000 characters, 250,000 code units
    await engine.set("t", "†state.emoji", value);
    const call = agentToolCaller(agentTools(engine, "t"));
    const characters = Array.from(value);
    expect(await call("get_variable", { reference: "†state.emoji", offset: 0, limit: 10 })).toMatchObject({
      type: "string",
      total: 200_000,
      text: characters.slice(0, 10).join(""),
    });
    // counted: before, every page counted the whole string from its start (~250,000 reads a page)
    const original = String.prototype.charCodeAt;
    let reads = 0;
    String.prototype.charCodeAt = function (this: string, index: number): number {
      reads++;
      return original.call(this, index);
    };
    try {
      for (const offset of [150_001, 199_995]) {
        reads = 0;
        const page = await call("get_variable", { reference: "†state.emoji", offset, limit: 100 });
        expect(page).toMatchObject({
          offset,
          total: 200_000,
          text: characters.slice(offset, offset + 100).join(""),
        });
        expect(reads).toBeLessThan(5_000);
      }
    } finally {
      String.prototype.charCodeAt = original;
    }
  });

  it("a huge limit is cut to the character budget, with a note", async () => {
    const { call } = await bigThread();
    const text = await call("get_variable", { reference: "†state.str", offset: 10, limit: 1_000_000 });
    expect(jsonSize(text)).toBeLessThanOrEqual(GET_LIMITS.answerChars);
    expect(text).toMatchObject({ type: "string", offset: 10, total: 1_000_000 });
    expect(text.next).toBe(10 + (text.limit as number));
    expect(text.note).toContain(`within ${GET_LIMITS.answerChars} characters`);
    const items = await call("get_variable", { reference: "†state.wide", limit: 1_000_000 });
    expect(jsonSize(items)).toBeLessThanOrEqual(GET_LIMITS.answerChars);
    expect(items.limit).toBeGreaterThan(GET_LIMITS.pageItems);
  });

  it("one item larger than the budget is cut: its reference and a preview, and the page goes on after it", async () => {
    const { call } = await bigThread();
    const page = await call("get_variable", { reference: "†state.arrOfBig", limit: 1 });
    expect(jsonSize(page)).toBeLessThan(2_000);
    expect(page).toMatchObject({
      items: [],
      limit: 1,
      next: 1,
      tooLarge: [
        { reference: "†state.arrOfBig[0]", preview: expect.stringMatching(/^"xxx.*…\(\+\d+ chars\)"$/) },
      ],
    });
    // the whole state: small keys inline, large ones listed with where to read them
    const state = await call("get_variable", { reference: "†state" });
    expect(state.entries).toEqual({ small: { a: 1 } });
    expect((state.tooLarge as { reference: string }[]).map((entry) => entry.reference)).toEqual([
      "†state.wide",
      "†state.arr",
      "†state.str",
      "†state.arrOfBig",
    ]);
  });

  it("a key too long for a page is listed in tooLarge and the page moves past it (no endless next)", async () => {
    const engine = createEngine({ tools: [give] });
    await engine.set("t", "†state.longkey", { ["k".repeat(50_000)]: 1, b: 2 });
    const call = agentToolCaller(agentTools(engine, "t"));
    const first = await call("get_variable", { reference: "†state.longkey", limit: 1 });
    expect(jsonSize(first)).toBeLessThan(2_000);
    expect(first).toMatchObject({ entries: {}, limit: 1, next: 1 });
    expect(first.tooLarge).toHaveLength(1);
    const second = await call("get_variable", { reference: "†state.longkey", offset: 1 });
    expect(second).toMatchObject({ entries: { b: 2 }, limit: 1, total: 2 });
    const whole = await call("get_variable", { reference: "†state.longkey" });
    expect(whole).toMatchObject({ entries: { b: 2 }, limit: 2 });
  });

  it("values under keys too long to name are told apart: the key's start and its position", async () => {
    const engine = createEngine({ tools: [give] });
    const keys = [0, 1, 2].map((index) => `k${index}${"x".repeat(10_000)}`);
    await engine.set("t", "†state.long", Object.fromEntries(keys.map((key, index) => [key, index])));
    const call = agentToolCaller(agentTools(engine, "t"));
    const answer = await call("get_variable", { reference: "†state.long" });
    expect(jsonSize(answer)).toBeLessThan(GET_LIMITS.answerChars);
    expect(answer.tooLarge).toEqual(
      [0, 1, 2].map((index) => ({
        key: `k${index}${"x".repeat(98)}…(+9902 chars)`,
        index,
        preview: String(index),
      })),
    );
    expect(answer.note).toContain("3 entries without a reference have keys too long to name");
    expect(answer.note).not.toContain("tooLarge gives each one's reference");
  });

  it("offset/limit on a number is USAGE; a string offset says it was a string", async () => {
    const { engine, call } = await bigThread();
    await engine.set("t", "†state.n", 5);
    expect(await call("get_variable", { reference: "†state.n" })).toEqual({ found: true, value: 5 });
    expect(await call("get_variable", { reference: "†state.n", limit: 1 })).toMatchObject({
      ok: false,
      error: { code: "USAGE" },
    });
    // review 7 L3: "not undefined", not "not a undefined"
    expect(await call("get_variable", {})).toMatchObject({
      error: { code: "USAGE", message: "the reference must be a string, not undefined" },
    });
    await expect(engine.get("t", { ref: 1 } as never)).rejects.toMatchObject({
      message: "the reference must be a string, not an object",
    });
    expect(await call("get_variable", { reference: "†state.arr", offset: "2" })).toMatchObject({
      error: { code: "USAGE", message: 'offset must be a non-negative integer, got the string "2"' },
    });
  });

  it("†calls.<id> of a call with an _outputPath names the path it wrote (review 7 M7)", async () => {
    const engine = createEngine({ tools: [give] });
    const call = agentToolCaller(agentTools(engine, "t"));
    await call("run_plan", { plan: [{ _tool: "give", _id: "w1", value: 1, _outputPath: "†state.w" }] });
    expect(await call("get_variable", { reference: "†calls.w1" })).toMatchObject({
      ok: false,
      error: { code: "REF_UNRESOLVED", hint: "read †state.w instead" },
    });
    expect(await call("get_variable", { reference: "†calls.zzz" })).toEqual({
      found: false,
      hint: "nothing is stored there; list_variables lists what the thread holds",
    });
  });
});

describe("list_variables: budgetChars has a maximum (review 7 M6)", () => {
  it("the schema and the handler refuse more than the maximum", async () => {
    const engine = createEngine({ tools: [give] });
    for (let index = 0; index < 300; index++) await engine.set("t", `†state.v${index}`, "z".repeat(100));
    const tools = agentTools(engine, "t");
    const listVariables = tools.find((tool) => tool.name === "list_variables");
    expect(listVariables?.parameters).toMatchObject({
      properties: { budgetChars: { maximum: MAX_LIST_CHARS } },
    });
    const call = agentToolCaller(tools);
    expect(await call("list_variables", { budgetChars: 10_000_000 })).toMatchObject({
      ok: false,
      error: { code: "USAGE", message: expect.stringContaining(String(MAX_LIST_CHARS)) },
    });
    const most = await call("list_variables", { budgetChars: MAX_LIST_CHARS });
    expect((most.text as string).length).toBeLessThanOrEqual(MAX_LIST_CHARS);
    expect(most.omitted).toBeGreaterThan(0);
  });

  it("refs has a maximum too, in the schema and the handler (stop 30 review: 20k refs took 6.6 s)", async () => {
    const engine = createEngine({ tools: [give] });
    await engine.set("t", "†state.v", 1);
    const tools = agentTools(engine, "t");
    expect(tools.find((tool) => tool.name === "list_variables")?.parameters).toMatchObject({
      properties: { refs: { maxItems: 1_000 } },
    });
    const call = agentToolCaller(tools);
    const refs = Array.from({ length: 1_001 }, (_, index) => `†state.v${index}`);
    expect(await call("list_variables", { refs })).toMatchObject({
      ok: false,
      error: { code: "USAGE", message: "refs takes at most 1000 references, got 1001" },
    });
    expect((await call("list_variables", { refs: refs.slice(0, 1_000) })).ok).not.toBe(false);
  });

  it("the budget holds for the text as the model receives it, escapes included", async () => {
    const engine = createEngine({ tools: [give] });
    for (let index = 0; index < 300; index++)
      await engine.set(
        "t",
        `†state.v${index}`,
        { s: '\u0001"'.repeat(200), index },
        { description: "\u0001".repeat(300) },
      );
    const call = agentToolCaller(agentTools(engine, "t"));
    for (const [args, budget] of [
      [{}, 4_000],
      [{ budgetChars: MAX_LIST_CHARS }, MAX_LIST_CHARS],
      [{ budgetChars: 500 }, 500],
    ] as const) {
      const answer = await call("list_variables", args);
      expect(JSON.stringify(answer.text).length - 2).toBeLessThanOrEqual(budget);
      // an entry (its description alone is 1,800 characters as JSON) fits the larger budgets only
      if (budget > 500) expect(answer.text).toContain("†state.v");
      expect(answer.omitted).toBeGreaterThan(0);
    }
    expect(await call("list_variables", { budgetChars: "big" })).toMatchObject({
      ok: false,
      error: { code: "USAGE" },
    });
    expect(await call("list_variables", { budgetChars: 0 })).toMatchObject({
      ok: false,
      error: { code: "USAGE" },
    });
  });

  it("holds for entries whose escapes differ from one to the next (seeded mixes, several budgets)", async () => {
    for (let seed = 1; seed <= 8; seed++) {
      let state = seed;
      const random = () => {
        state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
        return state / 2_147_483_648;
      };
      const engine = createEngine({ tools: [give] });
      const count = 20 + Math.floor(random() * 60);
      for (let index = 0; index < count; index++) {
        const heavy = random() < 0.5;
        const length = Math.floor(random() * 600);
        await engine.set(
          "t",
          `†state.v${index}`,
          heavy ? "\u0001".repeat(Math.floor(random() * 400)) : "plain",
          {
            description: heavy ? "\u0001".repeat(length) : "d".repeat(length),
          },
        );
      }
      const call = agentToolCaller(agentTools(engine, "t"));
      for (const budget of [200, 500, 1_000, 2_000, 4_000, 8_000]) {
        const answer = await call("list_variables", { budgetChars: budget });
        expect(JSON.stringify(answer.text).length - 2).toBeLessThanOrEqual(budget);
      }
    }
  });
});

describe("run_plan: tool errors are cut and given once (review 7 H3)", () => {
  it("validate_plan and run_plan bound a plan's diagnostics: the first in order, the rest counted by code", async () => {
    const engine = createEngine({ tools: [give] });
    const call = agentToolCaller(agentTools(engine, "t"));
    const plan = Array.from({ length: 300 }, (_, index) => ({ _tool: "gvie", _id: `c${index}`, value: 1 }));
    const validation = await call("validate_plan", { plan });
    expect(jsonSize(validation)).toBeLessThan(14_000);
    const shown = validation.diagnostics as { code: string; pointer: string }[];
    expect(shown[0]).toMatchObject({ code: "TOOL_UNKNOWN", pointer: "/0/_tool" });
    expect(validation.omitted).toEqual({ TOOL_UNKNOWN: 300 - shown.length });
    expect(validation.note).toContain("validate again");
    const ran = await call("run_plan", { plan });
    expect(jsonSize(ran)).toBeLessThan(14_000);
    expect(ran).toMatchObject({
      ok: false,
      error: { code: "PLAN_INVALID", data: { omitted: { TOOL_UNKNOWN: 300 - shown.length } } },
    });
    // a plan whose diagnostics fit is answered whole
    const small = await call("validate_plan", { plan: plan.slice(0, 2) });
    expect(small.diagnostics).toHaveLength(2);
    expect(small.omitted).toBeUndefined();
  });

  it("a diagnostic's pointer, call id and related ids are cut: huge names give a small answer", async () => {
    const strict = defineTool({
      name: "strict",
      input: { type: "object", properties: { value: {} }, additionalProperties: false },
      run: () => 1,
    });
    const engine = createEngine({ tools: [give, strict] });
    const call = agentToolCaller(agentTools(engine, "t"));
    const longName = "p".repeat(100_000);
    const longId = "i".repeat(60_000);
    for (const plan of [
      [{ _tool: "strict", value: 1, [longName]: 1 }],
      [
        { _tool: "give", _id: longId, value: 1 },
        { _tool: "give", _id: longId, value: 2 },
      ],
    ]) {
      const validation = await call("validate_plan", { plan });
      expect(jsonSize(validation)).toBeLessThan(3_000);
      const [first] = validation.diagnostics as { pointer: string; callId?: string; related?: string[] }[];
      const texts = [first?.pointer, first?.callId, ...(first?.related ?? [])].map(String);
      expect(texts.filter((text) => /…\(\+\d+ chars\)$/.test(text)).length).toBeGreaterThan(0);
      for (const text of texts) expect(text.length).toBeLessThan(250);
      expect(jsonSize(await call("run_plan", { plan }))).toBeLessThan(3_000);
    }
  });

  it("a 500 KB error message gives a small answer, the message once", async () => {
    const engine = createEngine({ tools: [give, thrower] });
    const call = agentToolCaller(agentTools(engine, "t"));
    for (const outputPath of ["†state.x", "†state.ok || †state.err"]) {
      const run = await call("run_plan", { plan: [{ _tool: "thrower", _id: "c", _outputPath: outputPath }] });
      expect(jsonSize(run)).toBeLessThan(3_000);
      // once in the call's outcome, not again in errors (the summary may preview the failure-branch value)
      const text = JSON.stringify({ calls: run.calls, errors: run.errors });
      expect(text.split("boom ").length - 1).toBe(1);
      expect(run).toMatchObject({
        calls: { c: { error: { code: "X", message: expect.stringMatching(/^boom E+…\(\+\d+ chars\)$/) } } },
      });
    }
    const failed = await call("run_plan", {
      plan: [{ _tool: "thrower", _id: "d", _outputPath: "†state.y" }],
    });
    expect(failed.errors).toEqual([{ callId: "d", code: "X" }]);
    // the full error is still in the call record
    const [record] = (await engine.runs.show(failed.runId as string)).calls;
    expect(record?.error?.message.length).toBeGreaterThan(500_000);
  });

  it("a plan of many calls gives an answer within the budget, failed calls first, with a note", async () => {
    const engine = createEngine({ tools: [give, thrower] });
    const call = agentToolCaller(agentTools(engine, "t"));
    const plan = [
      ...Array.from({ length: 400 }, (_, i) => ({
        _tool: "give",
        _id: `g${i}`,
        value: i,
        _outputPath: `†state.m${i}`,
      })),
      { _tool: "thrower", _id: "bad", _outputPath: "†state.bad" },
    ];
    const run = await call("run_plan", { plan });
    expect(jsonSize(run)).toBeLessThanOrEqual(RUN_LIMITS.answerChars);
    expect(Object.keys(run.calls as object)[0]).toBe("bad");
    expect(run.omitted).toMatchObject({ calls: expect.any(Number) });
    expect(run.note).toContain("401 calls");
  });
});
