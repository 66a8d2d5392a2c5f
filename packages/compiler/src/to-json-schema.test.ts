import { ObeliskError } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { z as z3 } from "zod/v3";
import { createToolRegistry } from "./tool-registry.js";

/** The USAGE error registering `tool` throws (fails the test when it registers or throws another error). */
function usageError(tool: Record<string, unknown>): ObeliskError {
  try {
    createToolRegistry([tool]);
  } catch (error) {
    if (ObeliskError.is(error, "USAGE")) return error;
    throw error;
  }
  throw new Error("the tool was registered");
}

describe("a zod 3 schema (it has _def and safeParse, no _zod)", () => {
  it.each(["input", "output"])("as the %s schema is refused as zod 3, not as a bad JSON Schema", (field) => {
    const error = usageError({ name: "greet", [field]: z3.object({ name: z3.string() }), run: () => "hi" });
    expect(error.message).toContain(`tool "greet" ${field}`);
    expect(error.message).toContain("zod 3 schemas are not supported");
    expect(error.message).not.toContain("not a valid JSON Schema");
    expect(error.hint).toContain("zod ≥ 4");
    expect(error.hint).toContain("JSON Schema");
  });

  it("a JSON Schema that happens to have a _def property is still a JSON Schema", () => {
    const input = { type: "object", _def: {}, properties: { name: { type: "string" } } };
    expect(() => createToolRegistry([{ name: "greet", input, run: () => "hi" }])).not.toThrow();
  });
});

describe("zod types no JSON value satisfies (z.date(), z.bigint(), z.map(), …) are refused at registration", () => {
  it("names the tool, the side and the field path, with a hint to a JSON form", () => {
    const input = z.object({ when: z.date(), n: z.number() });
    const error = usageError({ name: "schedule", input, run: () => 1 });
    expect(error.message).toContain('tool "schedule" input');
    expect(error.message).toContain("when");
    expect(error.message).toContain("z.date()");
    expect(error.hint).toContain("z.iso.datetime()");
    expect(error.hint).toContain("z.coerce.date()");
  });

  it.each([
    { name: "z.bigint()", field: z.bigint(), hint: "z.number()" },
    { name: "z.bigint()", field: z.bigint(), hint: "z.string()" },
    { name: "z.map()", field: z.map(z.string(), z.number()), hint: "z.record(" },
    { name: "z.set()", field: z.set(z.string()), hint: "z.array(" },
    { name: "z.symbol()", field: z.symbol(), hint: "z.string()" },
    { name: "z.function()", field: z.function(), hint: "JSON" },
    { name: "z.nan()", field: z.nan(), hint: "z.number()" },
    { name: "z.literal(…n)", field: z.literal(5n), hint: "z.literal(" },
  ])("$name is refused with a hint naming $hint", ({ name, field, hint }) => {
    const error = usageError({ name: "t", input: z.object({ field }), run: () => 1 });
    expect(error.message).toContain(name);
    expect(error.message).toContain("field");
    expect(error.hint).toContain(hint);
  });

  it.each([
    { path: "list[].at", input: z.object({ list: z.array(z.object({ at: z.date().optional() })) }) },
    { path: "pair[1]", input: z.object({ pair: z.tuple([z.string(), z.date()]) }) },
    { path: "byName.*", input: z.object({ byName: z.record(z.string(), z.date()) }) },
    { path: "either", input: z.object({ either: z.union([z.string(), z.date()]) }) },
    { path: "deep.inner.n", input: z.object({ deep: z.object({ inner: z.object({ n: z.bigint() }) }) }) },
  ])("a nested field is named by its path: $path", ({ path, input }) => {
    const error = usageError({ name: "t", input, run: () => 1 });
    expect(error.message).toContain(path);
  });

  it("names every such field", () => {
    const input = z.object({ when: z.date(), n: z.bigint(), m: z.map(z.string(), z.string()) });
    const error = usageError({ name: "t", input, run: () => 1 });
    for (const field of ["when", "n", "m"]) expect(error.message).toContain(field);
  });

  it("refuses them in an output schema too (a Date result fails OUTPUT_NOT_JSON: it is not JSON)", () => {
    const output = z.object({ at: z.date() });
    const error = usageError({ name: "clock", output, run: () => ({ at: new Date() }) });
    expect(error.message).toContain('tool "clock" output');
    expect(error.message).toContain("at");
    expect(error.hint).toContain("z.iso.datetime()");
    expect(error.hint).not.toContain("z.coerce.date()");
  });

  it.each([
    { name: "z.coerce.date()", input: z.object({ when: z.coerce.date() }) },
    { name: "z.coerce.bigint()", input: z.object({ n: z.coerce.bigint() }) },
    { name: "z.iso.datetime()", input: z.object({ when: z.iso.datetime() }) },
    {
      name: "a transform to a Date",
      input: z.object({ when: z.string().transform((text) => new Date(text)) }),
    },
    {
      name: "z.preprocess into z.date()",
      input: z.object({ when: z.preprocess((v) => new Date(String(v)), z.date()) }),
    },
    { name: "a preprocessed object", input: z.preprocess((v) => v, z.object({ when: z.date() })) },
    { name: "z.date().catch()", input: z.object({ when: z.date().catch(new Date(0)) }) },
    { name: "a pipe to a coerced number", input: z.object({ n: z.string().pipe(z.coerce.number()) }) },
    {
      name: "defaults and optionals",
      input: z.object({ n: z.number().default(1), u: z.undefined(), s: z.string().optional() }),
    },
  ])("$name is accepted", ({ input }) => {
    expect(() => createToolRegistry([{ name: "t", input, output: input, run: () => 1 }])).not.toThrow();
  });
});
