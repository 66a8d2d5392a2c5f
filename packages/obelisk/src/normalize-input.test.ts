import type { JsonValue } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { codeOf } from "./__fixtures__/error-codes.js";
import { agentTools, createEngine } from "./index.js";
import { normalizeInput } from "./normalize-input.js";

const val = { name: "val", input: { type: "object", properties: { v: {} } }, run: (args: unknown) => args };
const plan = [{ _tool: "val", v: "†input.a", _outputPath: "†state.got" }];

describe("the input of a run is a plain object or an Input message (SPEC §5)", () => {
  const shapes: JsonValue[] = [
    5,
    "str",
    [1, 2],
    true,
    null,
    { type: "input", input: 5 },
    { type: "input", input: [1] },
    { type: "input", input: "x" },
  ];

  it.each(shapes.map((shape) => [shape]))(
    "%j is refused with USAGE by run, validate and open",
    async (input) => {
      const engine = createEngine({ tools: [val] });
      // untyped callers (JavaScript, an LLM's arguments) can send anything
      const given = { input: input as object };
      expect(await codeOf(() => engine.run(plan, given))).toBe("USAGE");
      expect(await codeOf(() => engine.validate(plan, given))).toBe("USAGE");
      expect(await codeOf(() => engine.open(given))).toBe("USAGE");
      expect(await engine.runs.list()).toEqual([]);
      // the thread was not locked by the refused calls
      expect((await engine.run(plan, { input: { a: 1 } })).state).toEqual({ got: { v: 1 } });
    },
  );

  it("agentTools' run_plan answers a non-object input as a USAGE error result", async () => {
    const engine = createEngine({ tools: [val] });
    const runPlan = agentTools(engine, "t").find((tool) => tool.name === "run_plan");
    expect(await runPlan?.execute({ plan, input: 5 })).toMatchObject({ ok: false, error: { code: "USAGE" } });
  });

  it("plain objects and Input messages are accepted", () => {
    expect(normalizeInput(undefined)).toEqual({ input: {}, message: false, given: {} });
    expect(normalizeInput({ a: 1 })).toEqual({ input: { a: 1 }, message: false, given: { a: 1 } });
    expect(normalizeInput({ type: "input" })).toMatchObject({ input: { type: "input" }, message: false });
    const message = { type: "input", input: { a: 1 } };
    expect(normalizeInput(message)).toEqual({ input: { a: 1 }, message: true, given: message });
    expect(normalizeInput({ type: "input", input: null })).toMatchObject({ input: {}, message: true });
  });
});

describe("the Input message's schema", () => {
  it.each<[JsonValue]>([[5], ["string"], [null], [[]], [[{}]]])(
    "%j is not a JSON Schema: USAGE",
    async (schema) => {
      const engine = createEngine({ tools: [val] });
      const input = { type: "input", input: { a: 1 }, schema };
      expect(await codeOf(() => engine.run(plan, { threadId: "m", input }))).toBe("USAGE");
      expect(await codeOf(() => engine.validate(plan, { input }))).toBe("USAGE");
      expect(await engine.runs.list()).toEqual([]);
    },
  );

  it("false refuses every input: PARAM_INVALID at the document, run throws PLAN_INVALID", async () => {
    const engine = createEngine({ tools: [val] });
    const input = { type: "input", input: { a: 1 }, schema: false };
    const validation = await engine.validate(plan, { input });
    expect(validation.ok).toBe(false);
    expect(validation.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["PARAM_INVALID", ""]]);
    expect(await codeOf(() => engine.run(plan, { input }))).toBe("PLAN_INVALID");
    const empty = { type: "input", input: {}, schema: false };
    expect((await engine.validate(plan, { input: empty })).ok).toBe(false);
  });

  it("true checks nothing", async () => {
    const engine = createEngine({ tools: [val] });
    const input = { type: "input", input: { a: 1 }, schema: true };
    expect((await engine.run(plan, { input })).state).toEqual({ got: { v: 1 } });
  });
});

describe("the input is a frozen JSON copy", () => {
  it("refuses values JSON cannot hold (validate, run and open alike), before anything is recorded", async () => {
    const engine = createEngine({ tools: [val] });
    for (const bad of [
      { a: Number.NaN },
      { a: new Date(0) },
      { a: 1n },
      { type: "input", input: { a: Infinity } },
    ]) {
      const input = bad as object;
      expect(await codeOf(() => engine.validate(plan, { input }))).toBe("USAGE");
      expect(await codeOf(() => engine.run(plan, { input }))).toBe("USAGE");
      expect(await codeOf(() => engine.open({ input }))).toBe("USAGE");
    }
    expect(await engine.runs.list()).toEqual([]);
    await engine.close();
  });

  it("leaves the caller's objects as they were (not frozen) and runs with what was given", async () => {
    const engine = createEngine({ tools: [val] });
    const input = { a: { deep: 1 } };
    const result = await engine.run(plan, { input });
    expect(result.state).toEqual({ got: { v: { deep: 1 } } });
    expect(Object.isFrozen(input)).toBe(false);
    expect(Object.isFrozen(input.a)).toBe(false);
    const [run] = await engine.runs.list();
    expect(run?.input).toEqual({ a: { deep: 1 } });
    await engine.close();
  });
});
