import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createEngine, defineTool } from "./index.js";

/** A tool that returns `value` whatever it is given, with `output` as its output schema. */
const returning = (output: z.ZodType | Record<string, unknown>, value: unknown, name = "a") =>
  defineTool({ name, input: z.object({}), output: output as z.ZodType, run: () => value as never });

const write = (name = "a") => ({ _tool: name, _id: name, _outputPath: `†state.${name}` });

describe("a zod output schema: zod's parse of the result is what is stored (review s32 M3, decision 0052)", () => {
  it("a z.object drops the keys it does not declare: neither state nor the summary holds them", async () => {
    const tool = returning(z.object({ name: z.string() }), { name: "x", secret: "leak", extra: 1 });
    const engine = createEngine({ tools: [tool] });
    const result = await engine.run([write()], { threadId: "t" });
    expect(result.status).toBe("succeeded");
    expect(result.state).toEqual({ a: { name: "x" } });
    const stored = await engine.runs.show(result.runId);
    expect(stored.calls[0]?.result).toEqual({ name: "x" });
    expect((await engine.summarize("t")).text).not.toContain("leak");
  });

  it("defaults are filled and transforms applied, nested too; a JSON Schema output stores the result as it is", async () => {
    const zodTool = returning(
      z.object({
        n: z.number().default(0),
        id: z.string().transform((text) => Number(text)),
        items: z.array(z.object({ k: z.string() })),
      }),
      { id: "42", items: [{ k: "a", internal: true }] },
    );
    const jsonTool = returning(
      { type: "object", properties: { name: { type: "string" } } },
      { name: "x", extra: 1 },
      "j",
    );
    const engine = createEngine({ tools: [zodTool, jsonTool] });
    const result = await engine.run([write(), write("j")]);
    expect(result.state).toEqual({ a: { n: 0, id: 42, items: [{ k: "a" }] }, j: { name: "x", extra: 1 } });
  });

  it("a parse whose value is not JSON fails OUTPUT_NOT_JSON, one that throws OUTPUT_INVALID; nothing is written", async () => {
    const notJson = returning(
      z.object({ at: z.string().transform((text) => new Map([[text, 1]])) }),
      { at: "x" },
      "m",
    );
    const throwing = returning(
      z.object({
        at: z.string().transform(() => {
          throw new Error("transform broke");
        }),
      }),
      { at: "x" },
      "t",
    );
    const engine = createEngine({ tools: [notJson, throwing] });
    const result = await engine.run([write("m"), write("t")]);
    expect(result.calls.m).toMatchObject({
      status: "failed",
      error: { code: "OUTPUT_NOT_JSON", message: expect.stringContaining("zod output schema's parse") },
    });
    expect(result.calls.t).toMatchObject({
      status: "failed",
      error: { code: "OUTPUT_INVALID", message: expect.stringContaining("transform broke") },
    });
    expect(result.state).toEqual({});
  });
});

describe("the compiler reads the stored value's schema: a stripping z.object is closed (decision 0052)", () => {
  const reader = defineTool({
    name: "reader",
    input: z.object({ v: z.unknown(), n: z.number().optional() }),
    run: () => null,
  });
  const readPlan = (tool: z.ZodType, read: Record<string, string>) => ({
    engine: createEngine({ tools: [returning(tool, {}), reader] }),
    plan: [write(), { _tool: "reader", _id: "r", ...read }],
  });

  it("a typo below a stripping z.object is REF_UNRESOLVED (an error), not a REF_SUSPICIOUS warning", async () => {
    const { engine, plan } = readPlan(z.object({ name: z.string() }), { v: "†state.a.nmae" });
    const validation = await engine.validate(plan);
    expect(validation.ok).toBe(false);
    expect(validation.diagnostics).toEqual([
      expect.objectContaining({
        code: "REF_UNRESOLVED",
        severity: "error",
        pointer: "/1/v",
        hint: expect.stringContaining("has nothing at .nmae"),
      }),
    ]);
  });

  it("only what is certain: a transformed field's type is not judged (no REF_TYPE_MISMATCH), open objects stay open", async () => {
    const output = z.object({ n: z.string().transform((text) => text.length) });
    const { engine, plan } = readPlan(output, { v: "x", n: "†state.a.n" });
    expect(await engine.validate(plan)).toMatchObject({ ok: true, diagnostics: [] });
    // what may keep other keys stays open: z.looseObject, a union's members, below a transform
    for (const output of [
      z.looseObject({ name: z.string() }),
      z.union([z.object({ name: z.string() }), z.object({ title: z.string() })]),
      z.object({ name: z.string() }).transform((value) => ({ ...value, nmae: value.name })),
    ]) {
      const { engine, plan } = readPlan(output, { v: "†state.a.nmae" });
      const validation = await engine.validate(plan);
      expect(validation.ok).toBe(true);
      expect(validation.diagnostics.filter((diagnostic) => diagnostic.severity === "error")).toEqual([]);
    }
  });
});
