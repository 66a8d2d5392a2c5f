import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compile } from "./compile.js";
import { planJsonSchema } from "./plan-json-schema.js";
import { createToolRegistry } from "./tool-registry.js";

/** One tool per lenient zod type, its parameter `p` of that type beside a plain string `q`. */
const LENIENT = {
  coercedNumber: z.coerce.number().min(3).describe("a count"),
  coercedString: z.coerce.string(),
  coercedBoolean: z.coerce.boolean(),
  coercedDate: z.coerce.date(),
  preprocessed: z.preprocess((value) => Number(value), z.number()),
  caught: z.number().catch(0),
} as const;

const registry = createToolRegistry([
  ...Object.entries(LENIENT).map(([name, p]) => ({
    name,
    input: z.object({ p, q: z.string().optional() }),
    output: p,
    run: () => 1,
  })),
  { name: "text", output: z.string(), run: () => "5" },
]);

const codes = (plan: readonly Record<string, unknown>[]) =>
  compile(plan, registry).diagnostics.map((d) => `${d.code} ${d.pointer}`);

describe("z.coerce.*, z.preprocess and .catch take what their zod parse takes, not only their inner type", () => {
  it.each(Object.keys(LENIENT))("%s: literals zod accepts are no PARAM_INVALID", (tool) => {
    for (const p of ["5", 5, true, null, { n: 5 }]) {
      const accepted = (LENIENT as Record<string, z.ZodType>)[tool]?.safeParse(p).success;
      if (accepted) expect(codes([{ _tool: tool, p }]), JSON.stringify(p)).toEqual([]);
    }
  });

  it("a string reference into a coerced number is no REF_TYPE_MISMATCH", () => {
    const plan = [
      { _tool: "text", _outputPath: "†state.s" },
      { _tool: "coercedNumber", p: "†state.s" },
    ];
    expect(codes(plan)).toEqual([]);
  });

  it("a reference to a coerced output is no REF_TYPE_MISMATCH (the tool may return a string zod coerces)", () => {
    const plan = [
      { _tool: "coercedNumber", p: 5, _outputPath: "†state.n" },
      { _tool: "text", _outputPath: "†state.s" },
      { _tool: "coercedString", p: "†state.n", q: "†state.s" },
    ];
    expect(codes(plan)).toEqual([]);
  });

  it("a key under .catch or z.preprocess may be left out; a coerced one is still required", () => {
    expect(codes([{ _tool: "caught" }])).toEqual([]);
    expect(codes([{ _tool: "preprocessed" }])).toEqual([]);
    expect(codes([{ _tool: "coercedNumber" }])).toEqual(["PARAM_MISSING /0"]);
  });

  it("keeps the annotations and the other parameters' checks", () => {
    const schema = registry.get("coercedNumber")?.inputSchema;
    expect(schema?.properties).toEqual({ p: { description: "a count" }, q: { type: "string" } });
    expect(registry.get("caught")?.inputSchema.properties).toMatchObject({ p: { default: 0 } });
    expect(codes([{ _tool: "coercedNumber", p: "5", q: 5 }])).toEqual(["PARAM_INVALID /0/q"]);
  });

  it("the plan JSON Schema takes any value (or a reference) there, and still refuses a bare dagger", () => {
    const validate = new Ajv2020({ strict: false }).compile(planJsonSchema(registry));
    const plan = (p: unknown) => ({ plan: [{ _tool: "coercedNumber", p }] });
    for (const p of ["5", 5, true, "†state.s"]) expect(validate(plan(p)), JSON.stringify(p)).toBe(true);
    expect(validate(plan("†"))).toBe(false);
  });
});
