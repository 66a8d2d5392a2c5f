import type { ObeliskError } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { z as z3 } from "zod/v3";
import { thrownUsage } from "./__fixtures__/thrown-usage.js";
import { compile } from "./compile.js";
import { planJsonSchema } from "./plan-json-schema.js";
import { toJsonSchema } from "./to-json-schema.js";
import type { SchemaInput } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

/** The USAGE error registering `tool` throws (fails the test when it registers or throws another error). */
const usageError = (tool: Record<string, unknown>): ObeliskError =>
  thrownUsage(() => createToolRegistry([tool]), "the tool was registered");

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
    { path: "list[].at", input: z.object({ list: z.array(z.object({ at: z.date() })) }) },
    { path: "pair[1]", input: z.object({ pair: z.tuple([z.string(), z.date()]) }) },
    { path: "byName.*", input: z.object({ byName: z.record(z.string(), z.date()) }) },
    { path: "either", input: z.object({ either: z.union([z.bigint(), z.date()]) }) },
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

describe("a jsonless type under an alternative JSON satisfies is accepted, and the schema refuses a value for it", () => {
  it.each([
    { name: "z.union([z.date(), z.string()])", field: z.union([z.date(), z.string()]) },
    { name: "z.date().optional()", field: z.date().optional() },
    { name: "z.date().nullable()", field: z.date().nullable() },
    {
      name: "z.union([z.date(), z.null()]).default(null)",
      field: z.union([z.date(), z.null()]).default(null),
    },
    { name: "z.union([z.number(), z.nan()])", field: z.union([z.number(), z.nan()]) },
    { name: "an optional object holding a date", field: z.object({ at: z.date() }).optional() },
  ])("$name is accepted (input and output)", ({ field }) => {
    const schema = z.object({ field });
    expect(() =>
      createToolRegistry([{ name: "t", input: schema, output: schema, run: () => 1 }]),
    ).not.toThrow();
  });

  const registry = createToolRegistry([
    { name: "optional", input: z.object({ when: z.date().optional() }), run: () => 1 },
    { name: "either", input: z.object({ when: z.union([z.date(), z.string()]) }), run: () => 1 },
    { name: "nullable", input: z.object({ when: z.date().nullable() }), run: () => 1 },
    { name: "number", input: z.object({ n: z.union([z.number(), z.nan()]) }), run: () => 1 },
    { name: "caught", input: z.object({ when: z.date().catch(new Date(0)) }), run: () => 1 },
  ]);
  const codes = (call: Record<string, unknown>) =>
    compile([call], registry).diagnostics.map((d) => ({ code: d.code, pointer: d.pointer }));

  it.each([
    ["an optional date: left out", { _tool: "optional" }, []],
    [
      "an optional date: a string",
      { _tool: "optional", when: "2020-01-01" },
      [{ code: "PARAM_INVALID", pointer: "/0/when" }],
    ],
    ["date | string: a string", { _tool: "either", when: "2020-01-01" }, []],
    [
      "date | string: a number",
      { _tool: "either", when: 5 },
      [{ code: "PARAM_INVALID", pointer: "/0/when" }],
    ],
    ["a nullable date: null", { _tool: "nullable", when: null }, []],
    [
      "a nullable date: a string",
      { _tool: "nullable", when: "x" },
      [{ code: "PARAM_INVALID", pointer: "/0/when" }],
    ],
    ["number | NaN: a number", { _tool: "number", n: 5 }, []],
    ["number | NaN: a string", { _tool: "number", n: "NaN" }, [{ code: "PARAM_INVALID", pointer: "/0/n" }]],
    ["a caught date takes anything (.catch replaces it)", { _tool: "caught", when: "x" }, []],
  ] as const)("%s", (_name, call, expected) => {
    expect(codes(call)).toEqual(expected);
  });

  it("the member JSON cannot hold becomes a schema nothing satisfies ({ not: {} })", () => {
    const properties = (registry.get("optional")?.inputSchema.properties ?? {}) as Record<string, unknown>;
    expect(properties.when).toEqual({ not: {} });
    expect(registry.get("optional")?.inputSchema.required).toBeUndefined();
  });

  it.each([
    { path: "when", input: z.object({ when: z.union([z.date(), z.bigint()]) }) },
    { path: "inner.at", input: z.object({ inner: z.union([z.object({ at: z.date() }), z.bigint()]) }) },
    { path: "when", input: z.object({ when: z.date(), other: z.date().optional() }) },
  ])("still refused when no alternative JSON satisfies: $path", ({ path, input }) => {
    const error = usageError({ name: "t", input, run: () => 1 });
    expect(error.message).toContain(`${path} is z.`);
    expect(error.message).not.toContain("other");
  });
});

describe("toJsonSchema (public): the conversion a tool's input gets, for a host's schema", () => {
  /** The USAGE error `convert` throws (fails the test when it returns or throws another error). */
  const refusal = (convert: () => unknown): ObeliskError => thrownUsage(convert, "the schema was converted");

  it("converts a zod object to the JSON Schema a tool with it as input gets", () => {
    const schema = z.object({
      user: z.object({ name: z.string(), tags: z.array(z.string()).optional() }),
      count: z.coerce.number(),
      level: z.number().default(1),
    });
    const converted = toJsonSchema(schema, { what: "stateSchema" });
    const tool = createToolRegistry([{ name: "t", input: schema, run: () => 1 }]).get("t");
    expect(converted).toEqual(tool?.inputSchema);
    expect(converted).toMatchObject({
      type: "object",
      properties: { user: { type: "object", required: ["name"] }, count: {} },
      required: ["user", "count"],
    });
  });

  it("refuses a zod type no JSON value satisfies with USAGE naming what and the field", () => {
    const schema = z.object({ session: z.object({ startedAt: z.date() }) });
    const error = refusal(() => toJsonSchema(schema, { what: "stateSchema" }));
    expect(error.message).toContain("stateSchema");
    expect(error.message).toContain("session.startedAt");
    expect(error.message).toContain("z.date()");
    expect(error.hint).toContain("z.iso.datetime()");
  });

  it("picks the hint by side: a stored value is told to be stored as a string", () => {
    const schema = z.object({ at: z.date() });
    expect(refusal(() => toJsonSchema(schema)).hint).toContain("z.coerce.date()");
    expect(refusal(() => toJsonSchema(schema, { side: "output" })).hint).not.toContain("z.coerce.date()");
  });

  it("names the schema 'schema' when not told what it is", () => {
    expect(refusal(() => toJsonSchema(z.object({ at: z.date() }))).message).toMatch(
      /^schema: at is z\.date\(\)/,
    );
  });

  it("returns a JSON Schema object as it is", () => {
    const schema = { type: "object", properties: { count: { type: "number" } } };
    expect(toJsonSchema(schema, { what: "stateSchema" })).toBe(schema);
  });

  it.each([
    ["a string", "object"],
    ["a number", 7],
    ["null", null],
    ["an array", [{ type: "object" }]],
    ["a function", () => ({})],
  ])("refuses %s with USAGE naming what", (_name, value) => {
    const error = refusal(() => toJsonSchema(value as unknown as SchemaInput, { what: "stateSchema" }));
    expect(error.message).toContain("stateSchema: expected a zod schema or a JSON Schema object");
  });

  it("jsonSchemaOnly refuses types only code checks, naming every field; without it they convert to anything", () => {
    const schema = z.object({
      id: z.custom<`u${number}`>((value) => typeof value === "string" && value.startsWith("u")),
      list: z.array(z.object({ at: z.instanceof(URL) })),
      plain: z.string(),
    });
    const error = refusal(() => toJsonSchema(schema, { what: "stateSchema", jsonSchemaOnly: true }));
    expect(error.message).toBe(
      "stateSchema: id is z.custom() or z.instanceof(), list[].at is z.custom() or z.instanceof(): checked by code, which a JSON Schema cannot carry, so any value would pass there",
    );
    expect(toJsonSchema(schema, { what: "tool input" })).toMatchObject({
      properties: { id: {}, plain: { type: "string" } },
    });
    expect(toJsonSchema(z.object({ plain: z.string() }), { jsonSchemaOnly: true })).toMatchObject({
      properties: { plain: { type: "string" } },
    });
  });

  it("refuses a zod 3 schema as such", () => {
    const schema = z3.object({ n: z3.number() }) as unknown as SchemaInput;
    expect(refusal(() => toJsonSchema(schema, { what: "stateSchema" })).message).toContain(
      "stateSchema: zod 3 schemas are not supported",
    );
  });
});

describe("zod's safe-integer bounds (z.number().int()) are left out of a tool's schemas", () => {
  const SAFE = String(Number.MAX_SAFE_INTEGER);
  const input = z.object({
    count: z.number().int(),
    page: z.int().min(1),
    small: z.int32(),
    top: z.number().int().max(Number.MAX_SAFE_INTEGER),
    bottom: z.number().int().min(Number.MIN_SAFE_INTEGER),
    list: z.array(z.number().int().optional()),
  });
  const registry = () => createToolRegistry([{ name: "t", input, output: z.number().int(), run: () => 1 }]);

  it("writes no ±9007199254740991 zod added, in the input, the output and the plan JSON Schema", () => {
    const tool = registry().get("t");
    expect(tool?.inputSchema.properties).toEqual({
      count: { type: "integer" },
      page: { type: "integer", minimum: 1 },
      small: { type: "integer", minimum: -2147483648, maximum: 2147483647 },
      top: { type: "integer", maximum: Number.MAX_SAFE_INTEGER },
      bottom: { type: "integer", minimum: Number.MIN_SAFE_INTEGER },
      list: { type: "array", items: { type: "integer" } },
    });
    expect(tool?.outputSchema).toMatchObject({ type: "integer" });
    expect(JSON.stringify(tool?.outputSchema)).not.toContain(SAFE);
    const planSchema = JSON.stringify(planJsonSchema(registry()));
    expect(planSchema.split(SAFE).length - 1).toBe(2); // top's maximum and bottom's minimum, as written
    // zod still refuses an integer past the safe range where it parses the output
    expect(tool?.validateOutput(2 ** 60)).not.toEqual([]);
    expect(tool?.validateOutput(7)).toEqual([]);
  });

  it("keeps them for a schema JSON Schema alone checks (jsonSchemaOnly: a state schema), not for a tool's", () => {
    const bounds = { minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };
    expect(toJsonSchema(z.number().int(), { jsonSchemaOnly: true })).toMatchObject(bounds);
    expect(toJsonSchema(z.number().int())).not.toHaveProperty("minimum");
    expect(toJsonSchema(z.number().int())).not.toHaveProperty("maximum");
  });
});
