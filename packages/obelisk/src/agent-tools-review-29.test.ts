import { describe, expect, it } from "vitest";
import { agentToolCaller, jsonSize } from "./__fixtures__/agent-tool-caller.js";
import { agentTools, createEngine, defineTool } from "./index.js";

const give = defineTool({
  name: "give",
  input: { type: "object", properties: { value: {} }, required: ["value"] },
  run: (args: unknown) => (args as { value: unknown }).value,
});
const echoInput = defineTool({
  name: "echo",
  input: { type: "object", properties: { value: {} }, required: ["value"] },
  run: (args: unknown) => (args as { value: unknown }).value,
});

describe("agent tools refuse arguments their parameters do not name (stop 29 review)", () => {
  for (const parameters of ["strict", "loose", "openai-strict"] as const) {
    it(`${parameters}: a misspelt offset is USAGE naming the nearest argument, not the first page`, async () => {
      const engine = createEngine({ tools: [give] });
      await engine.set(
        "t",
        "†state.list",
        Array.from({ length: 500 }, (_, index) => index),
      );
      const call = agentToolCaller(agentTools(engine, "t", { parameters }));
      const answer = await call("get_variable", { reference: "†state.list", ofset: 400, limit: 5 });
      expect(answer).toMatchObject({
        ok: false,
        error: { code: "USAGE", message: 'unknown argument "ofset" for get_variable' },
      });
      expect((answer.error as { hint: string }).hint).toContain('"offset"');
    });

    it(`${parameters}: run_plan with "inputs" runs nothing and says "input" was meant`, async () => {
      let runs = 0;
      const counted = defineTool({
        name: "counted",
        input: { type: "object" },
        run: () => {
          runs++;
          return 1;
        },
      });
      const engine = createEngine({ tools: [counted] });
      const call = agentToolCaller(agentTools(engine, "t", { parameters }));
      const plan = { type: "plan", plan: [{ _tool: "counted", _outputPath: "†state.n" }] };
      const answer = await call("run_plan", { plan, inputs: { x: 1 } });
      expect(answer).toMatchObject({ ok: false, error: { code: "USAGE" } });
      expect((answer.error as { hint: string }).hint).toBe('did you mean "input"?');
      expect(runs).toBe(0);
      expect(await engine.runs.list({ threadId: "t" })).toEqual([]);
    });
  }

  it("an argument with no near name lists the tool's arguments", async () => {
    const engine = createEngine({ tools: [give] });
    const call = agentToolCaller(agentTools(engine, "t"));
    const answer = await call("list_variables", { verbose: true });
    expect(answer).toMatchObject({
      ok: false,
      error: { code: "USAGE", hint: "list_variables's arguments are lastN, budgetChars, refs" },
    });
  });
});

describe("list_variables: notFound is bounded (stop 29 review)", () => {
  it("1,000 missing references (the most refs takes) give a small answer that counts what it left out", async () => {
    const engine = createEngine({ tools: [give] });
    await engine.set("t", "†state.real", 1);
    const call = agentToolCaller(agentTools(engine, "t"));
    const refs = Array.from({ length: 1_000 }, (_, index) => `†state.missing_variable_number_${index}`);
    const answer = await call("list_variables", { refs, budgetChars: 500 });
    expect(jsonSize(answer.notFound)).toBeLessThanOrEqual(2_000);
    const shown = (answer.notFound as string[]).length;
    expect(shown).toBeGreaterThan(0);
    expect(answer.notFound).toEqual(refs.slice(0, shown));
    expect(answer.notFoundOmitted).toBe(1_000 - shown);
    expect(jsonSize(answer)).toBeLessThan(3_000);
  });

  it("a few missing references are listed whole, without a count", async () => {
    const engine = createEngine({ tools: [give] });
    const call = agentToolCaller(agentTools(engine, "t"));
    const answer = await call("list_variables", { refs: ["†state.a", "†state.b"] });
    expect(answer.notFound).toEqual(["†state.a", "†state.b"]);
    expect(answer).not.toHaveProperty("notFoundOmitted");
  });
});

describe("get_variable: an offset past the end says so (stop 29 review)", () => {
  it("an array, an object and a string: an empty page with a note naming the offsets there are", async () => {
    const engine = createEngine({ tools: [give] });
    await engine.set(
      "t",
      "†state.list",
      Array.from({ length: 500 }, (_, index) => index),
    );
    await engine.set("t", "†state.object", { a: 1, b: 2 });
    await engine.set("t", "†state.text", "x".repeat(20_000));
    await engine.set("t", "†state.empty", []);
    const call = agentToolCaller(agentTools(engine, "t"));
    expect(await call("get_variable", { reference: "†state.list", offset: 10_000 })).toMatchObject({
      offset: 500,
      limit: 0,
      items: [],
      note: "offset 10000 is past the end: the value has 500 items (offsets 0–499).",
    });
    expect(await call("get_variable", { reference: "†state.object", offset: 3 })).toMatchObject({
      entries: {},
      note: "offset 3 is past the end: the value has 2 keys (offsets 0–1).",
    });
    expect(await call("get_variable", { reference: "†state.text", offset: 30_000 })).toMatchObject({
      text: "",
      note: "offset 30000 is past the end: the value has 20000 characters (offsets 0–19999).",
    });
    expect(await call("get_variable", { reference: "†state.empty", offset: 1 })).toMatchObject({
      note: "offset 1 is past the end: the value has no items.",
    });
  });

  it("an offset at the end or inside adds no such note", async () => {
    const engine = createEngine({ tools: [give] });
    await engine.set(
      "t",
      "†state.list",
      Array.from({ length: 500 }, (_, index) => index),
    );
    const call = agentToolCaller(agentTools(engine, "t"));
    expect(await call("get_variable", { reference: "†state.list", offset: 500 })).not.toHaveProperty("note");
    expect(
      ((await call("get_variable", { reference: "†state.list", offset: 10 })).note as string).startsWith(
        "Showing",
      ),
    ).toBe(true);
  });
});

describe("run_plan: a call's targets are bounded (stop 29 review)", () => {
  const fanOut = Array.from({ length: 900 }, (_, index) => `†state.target_with_a_longish_name_${index}`);
  const plan = {
    type: "plan",
    plan: [{ _tool: "echo", _id: "c1", value: 1, _outputPath: fanOut.join(" && ") }],
  };

  it("a 900-target fan-out: the only call is shown, its first targets and how many are left out", async () => {
    const engine = createEngine({ tools: [echoInput] });
    const call = agentToolCaller(agentTools(engine, "t"));
    const answer = await call("run_plan", { plan });
    expect(answer).not.toHaveProperty("omitted");
    const outcome = (
      answer.calls as Record<string, { status: string; wrote: string[]; wroteOmitted: number }>
    ).c1;
    expect(outcome?.status).toBe("succeeded");
    expect(jsonSize(outcome?.wrote)).toBeLessThanOrEqual(1_000);
    expect(outcome?.wrote).toEqual(fanOut.slice(0, outcome?.wrote.length));
    expect((outcome?.wrote.length ?? 0) + (outcome?.wroteOmitted ?? 0)).toBe(900);
  });

  it("sent again, the satisfied call's holds is bounded the same way", async () => {
    const engine = createEngine({ tools: [echoInput] });
    const call = agentToolCaller(agentTools(engine, "t"));
    await call("run_plan", { plan });
    const answer = await call("run_plan", { plan });
    const outcome = (
      answer.calls as Record<string, { status: string; holds: string[]; holdsOmitted: number }>
    ).c1;
    expect(outcome?.status).toBe("satisfied");
    expect(jsonSize(outcome?.holds)).toBeLessThanOrEqual(1_000);
    expect((outcome?.holds.length ?? 0) + (outcome?.holdsOmitted ?? 0)).toBe(900);
  });

  it("a call with few targets has no count", async () => {
    const engine = createEngine({ tools: [echoInput] });
    const call = agentToolCaller(agentTools(engine, "t"));
    const answer = await call("run_plan", {
      plan: {
        type: "plan",
        plan: [{ _tool: "echo", _id: "c1", value: 1, _outputPath: "†state.a && †state.b" }],
      },
    });
    expect((answer.calls as Record<string, object>).c1).toMatchObject({ wrote: ["†state.a", "†state.b"] });
    expect((answer.calls as Record<string, object>).c1).not.toHaveProperty("wroteOmitted");
  });
});
