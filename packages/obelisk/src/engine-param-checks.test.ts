import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, defineTool, type Engine } from "./index.js";

/** Returns its `value` parameter; no output schema, so what it writes is unknown at compile time. */
const give = defineTool({
  name: "give",
  run: (args: unknown) => (args as { value?: unknown }).value,
});

describe.each(storeKinds())("parameters resolved from references are checked at run time ($name)", (kind) => {
  let engine: Engine;
  const received: unknown[] = [];
  const shout = defineTool({
    name: "shout",
    input: z.object({ text: z.string() }),
    run: ({ text }) => {
      received.push(text);
      return text.toUpperCase();
    },
  });
  afterEach(async () => {
    received.length = 0;
    await engine.close();
    kind.cleanup();
  });

  it("a value of the wrong type fails the call with PARAM_INVALID before the tool runs", async () => {
    engine = createEngine({ tools: [give, shout], store: kind.open() });
    const result = await engine.run([
      { _tool: "give", _id: "n", value: 5, _outputPath: "†state.n" },
      { _tool: "shout", _id: "s", text: "†state.n", _outputPath: "†state.loud" },
      { _tool: "give", _id: "other", value: "independent", _outputPath: "†state.other" },
    ]);
    expect(result.status).toBe("failed");
    expect(result.calls.s).toMatchObject({ status: "failed", error: { code: "PARAM_INVALID" } });
    expect(result.errors.map((error) => [error.callId, error.error.code])).toEqual([["s", "PARAM_INVALID"]]);
    expect(received).toEqual([]);
    expect(result.state).toEqual({ n: 5, other: "independent" });
  });

  it("a value that fits reaches the tool; a template is always a string", async () => {
    engine = createEngine({ tools: [give, shout], store: kind.open() });
    const result = await engine.run([
      { _tool: "give", _id: "n", value: "ada", _outputPath: "†state.n" },
      { _tool: "shout", _id: "s", text: "†state.n", _outputPath: "†state.loud" },
      { _tool: "give", _id: "k", value: 7, _outputPath: "†state.k" },
      { _tool: "shout", _id: "t", text: "count {†state.k}", _outputPath: "†state.count" },
    ]);
    expect(result.status).toBe("succeeded");
    expect(result.state).toMatchObject({ loud: "ADA", count: "COUNT 7" });
    expect(received.sort()).toEqual(["ada", "count 7"]);
  });

  it("a value from the thread's stored call outputs is checked when validating (REF_TYPE_MISMATCH)", async () => {
    engine = createEngine({ tools: [give, shout], store: kind.open() });
    await engine.run([{ _tool: "give", _id: "g", value: { not: "text" } }]);
    // The compiler reads the stored output the plan names (before 2026-11-25 only the run-time check did).
    const plan = [{ _tool: "shout", _id: "s", text: "†calls.g" }];
    const validated = await engine.validate(plan);
    expect(validated.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["REF_TYPE_MISMATCH", "/0/text"]]);
    await expect(engine.run(plan)).rejects.toMatchObject({ code: "PLAN_INVALID" });
    expect(received).toEqual([]);
  });

  it("a value the thread's state already holds is checked when validating (REF_TYPE_MISMATCH)", async () => {
    engine = createEngine({ tools: [shout], store: kind.open() });
    await engine.set("default", "†state.n", { not: "text" });
    const plan = [{ _tool: "shout", _id: "s", text: "†state.n" }];
    const validated = await engine.validate(plan);
    expect(validated.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["REF_TYPE_MISMATCH", "/0/text"]]);
    await expect(engine.run(plan)).rejects.toMatchObject({ code: "PLAN_INVALID" });
    expect(received).toEqual([]);
  });
});
