import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsPlugin from "ajv-formats";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ABSENT_META,
  anyValueStrictTools,
  exactStrictTools,
  guardedStrictTools,
  loosenedStrictTools,
  strictPlan,
  strictSearchCall,
} from "./__fixtures__/strict-tools.js";
import { exampleTools, specFormTool } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { fromStrictPlan } from "./from-strict-plan.js";
import { planJsonSchema } from "./plan-json-schema.js";
import { strictPlanJsonSchema } from "./strict-plan-json-schema.js";
import { strictSubsetProblems } from "./strict-subset-problems.js";
import { defineTool } from "./tool-definition.js";
import { createToolRegistry, type ToolRegistry } from "./tool-registry.js";

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => Ajv2020;

/** The strict schema compiled by ajv 2020-12 in its strict mode (formats known, as strict mode's are). */
function strictValidator(registry: ToolRegistry) {
  return addFormats(new Ajv2020({ strict: true })).compile(strictPlanJsonSchema(registry).schema);
}

/** Error diagnostics of the plan, after `fromStrictPlan` (state and input unknown: REF_UNRESOLVED is no verdict). */
function errorsAfter(document: unknown, registry: ToolRegistry) {
  return compile(fromStrictPlan(document, registry), registry)
    .diagnostics.filter((d) => d.severity === "error" && d.code !== "REF_UNRESOLVED")
    .map((d) => `${d.code} ${d.pointer}`);
}

const exact = createToolRegistry(exactStrictTools);
const loosened = createToolRegistry(loosenedStrictTools);
const examples = createToolRegistry([...exampleTools, specFormTool]);

/** A call with every optional meta-property absent (`null`), as strict mode has the model write it. */
const call = (tool: string, fields: Record<string, unknown>) => ({ _tool: tool, ...ABSENT_META, ...fields });
const plan = strictPlan;
const searchCall = strictSearchCall;

/** The strict schema's properties of a call of `tool`. */
function callProperties(
  schema: Record<string, unknown>,
  tool: string,
): Record<string, Record<string, unknown>> {
  const calls = (schema.properties as { plan: { items: { anyOf: Record<string, unknown>[] } } }).plan.items
    .anyOf;
  const call = calls.find((c) => {
    const properties = c.properties as { _tool: { enum: string[] } };
    return properties._tool.enum[0] === tool;
  });
  return call?.properties as Record<string, Record<string, unknown>>;
}

describe("strict plan JSON schema: within strict mode's subset", () => {
  const registries: [string, ToolRegistry][] = [
    ["exact tools", exact],
    ["loosened tools", loosened],
    ["tools taking any value", createToolRegistry(anyValueStrictTools)],
    ["tools guarded against plans", createToolRegistry(guardedStrictTools)],
    ["the example tools", examples],
    ["one tool", createToolRegistry([{ name: "only", run: () => 1 }])],
    ["no tools", createToolRegistry([])],
  ];

  it.each(registries)(
    "%s: every object closed and fully required, no keyword or lookaround strict mode refuses",
    (_n, r) => {
      expect(strictSubsetProblems(strictPlanJsonSchema(r).schema)).toEqual([]);
    },
  );

  it.each(registries)("%s: compiles in ajv 2020-12 strict mode", (_n, registry) => {
    expect(() => strictValidator(registry)).not.toThrow();
  });

  it("the full plan schema is not (what this exists for)", () => {
    expect(strictSubsetProblems(planJsonSchema(exact)).length).toBeGreaterThan(0);
  });

  it("leaves the full plan schema and the tools' schemas as they were", () => {
    const before = JSON.stringify([
      planJsonSchema(exact),
      exactStrictTools.map((t) => exact.get(t.name)?.inputSchema),
    ]);
    strictPlanJsonSchema(exact);
    expect(
      JSON.stringify([planJsonSchema(exact), exactStrictTools.map((t) => exact.get(t.name)?.inputSchema)]),
    ).toBe(before);
  });
});

describe("strict plan JSON schema: plans in the strict shape compile after fromStrictPlan", () => {
  const validate = strictValidator(exact);
  it.each([
    ["optional parameters absent", plan(searchCall({}))],
    [
      "every parameter given",
      plan(
        searchCall({
          limit: 5,
          mode: "deep",
          filters: { from: "2024", tags: ["a", "†state.tag"], range: { low: 1, high: null } },
          cursor: "c1",
          strictFlag: false,
        }),
      ),
    ],
    ["a nullable parameter's null", plan(searchCall({ cursor: null, strictFlag: null }))],
    [
      "references for a parameter, nested and whole",
      plan(searchCall({ limit: "†input.n", filters: "†state.f" })),
    ],
    ["a template", plan(searchCall({ query: "about {†state.topic}" }))],
    [
      "meta-properties",
      plan(
        searchCall({
          _id: "s1",
          _outputPath: "†state.hits",
          _outputMethod: "set",
          _rerun: true,
          _timeoutMs: 500,
          _description: "find",
        }),
      ),
    ],
    [
      "_retry with some fields",
      plan(
        searchCall({ _retry: { attempts: 3, backoffMs: 100, factor: null, maxDelayMs: null, jitter: true } }),
      ),
    ],
    ["a literal enum value", plan(call("contact", { email: "ada@example.com", kind: "person" }))],
    [
      "a recursive $ref",
      plan(call("tree", { node: { name: "a", kids: [{ name: "b", kids: null }, "†state.k"] } })),
    ],
    ["anchors and definitions", plan(call("anchored", { a: 2, list: [1, "†state.i"] }))],
    ["an anyOf's object branch", plan(call("choose", { v: { k: 1, note: null }, pair: 2 }))],
    ["an anyOf's enum branch", plan(call("choose", { v: "all", pair: null }))],
    ["a latent call's _output", plan(call("approve", { _output: { approved: true, note: null } }))],
    ["a latent call deferred", plan(call("approve", { _output: null }))],
    ["an _outputPath rule", plan(call("setSummary", { text: "x", _outputPath: "†state.user.summary" }))],
    ["a call without parameters", plan(call("now", {}))],
    [
      "two calls, one reading the other",
      plan(
        searchCall({ _outputPath: "†state.hits" }),
        call("tree", { node: { name: "†state.hits.0.id", kids: null } }),
      ),
    ],
  ])("%s", (_name, document) => {
    expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
    expect(errorsAfter(document, exact)).toEqual([]);
  });
});

describe("strict plan JSON schema: refuses what is plainly wrong", () => {
  const validate = strictValidator(exact);
  it.each([
    ["an unknown tool", plan(call("serch", { query: "q" }))],
    ["a number where a string goes", plan(searchCall({ query: 5 }))],
    ["a string (not a reference) where a number goes", plan(searchCall({ limit: "five" }))],
    ["a value outside an enum", plan(searchCall({ mode: "slow" }))],
    ["a misspelt parameter", plan({ ...searchCall({}), qurey: "q" })],
    ["a parameter left out (strict mode writes every key)", plan(call("search", { query: "q" }))],
    ["a meta-property left out", plan((({ _rerun, ...rest }) => rest)(searchCall({})))],
    ["a required parameter null", plan(searchCall({ query: null }))],
    ["a nested object's key left out", plan(searchCall({ filters: { from: "x" } }))],
    [
      "_retry over the limits",
      plan(
        searchCall({
          _retry: { attempts: 1000, backoffMs: null, factor: null, maxDelayMs: null, jitter: null },
        }),
      ),
    ],
    ["_outputPath not a path", plan(searchCall({ _outputPath: "state.hits" }))],
    [
      "_outputPath breaking the tool's rule",
      plan(call("setSummary", { text: "x", _outputPath: "†state.other" })),
    ],
    ["_outputPath missing where the tool has a rule", plan(call("setSummary", { text: "x" }))],
    [
      "a latent call's _output of the wrong shape",
      plan(call("approve", { _output: { approved: "yes", note: null } })),
    ],
    ["the plan in another form", { calls: [searchCall({})] }],
  ])("%s", (_name, document) => {
    expect(validate(document)).toBe(false);
  });
});

describe("strict plan JSON schema: says where it could not say what the tool's schema says", () => {
  it("nothing for tools strict mode can say exactly", () => {
    expect(strictPlanJsonSchema(exact).deviations).toEqual([]);
    // but one: a latent tool without an output schema takes any `_output`, which can be an object only as {}
    expect(strictPlanJsonSchema(examples).deviations).toEqual([
      expect.objectContaining({ tool: "sendEmail", schema: "output", pointer: "", reason: "any-value" }),
      expect.objectContaining({ tool: "sendEmail", schema: "output", pointer: "", reason: "null-absent" }),
    ]);
  });

  it("open objects, pattern properties, dropped keywords, merged allOf, tuples, any value", () => {
    const found = strictPlanJsonSchema(loosened).deviations.map((d) =>
      [d.tool, d.schema, d.pointer, d.reason, d.keyword ?? ""].join(" "),
    );
    expect(found.sort()).toEqual(
      [
        "fetch input /properties/headers open-object ",
        "fetch input /properties/meta open-object ",
        "loose input  open-object ",
        "patterned input /properties/m open-object ",
        "shaped input /properties/anything any-value ",
        "shaped input /properties/anything null-absent ",
        "shaped input /properties/both keyword-dropped allOf",
        "shaped input /properties/code keyword-dropped minLength",
        "shaped input /properties/code keyword-dropped pattern",
        "shaped input /properties/count keyword-dropped not",
        "shaped input /properties/pair tuple ",
        // a z.record with string keys: only {} can be written (its propertyNames {type: string} loses nothing)
        "ticket input /properties/fields open-object ",
        // a key pattern no writable key can break: nothing lost but the open object
        "ticket input /properties/codes open-object ",
        // a named key the key pattern refuses can be written
        "named input /properties/m keyword-dropped propertyNames",
      ].sort(),
    );
  });

  it("an open object's named keys and a reference can still be written, and compile", () => {
    const validate = strictValidator(loosened);
    const base = { url: "https://x", headers: {}, meta: "†state.meta" };
    const document = plan(
      call("fetch", base),
      call("fetch", { ...base, headers: "†input.headers", meta: {} }),
    );
    expect(validate(document)).toBe(true);
    expect(errorsAfter(document, loosened)).toEqual([]);
    expect(validate(plan(call("fetch", { ...base, headers: { a: "b" } })))).toBe(false);
  });

  it("an object that can only be {}: its description says to give a reference instead", () => {
    const { schema } = strictPlanJsonSchema(loosened);
    const [written, reference] = (callProperties(schema, "ticket").fields?.anyOf ?? []) as Record<
      string,
      unknown
    >[];
    expect(written).toMatchObject({ type: "object", properties: {}, additionalProperties: false });
    expect(written?.description).toMatch(/^custom fields\. Only \{\} can be written here/);
    expect(written?.description).toContain("reference");
    expect(reference).toEqual({ $ref: "#/$defs/reference" });
    // no such note where strict mode says the object exactly
    expect(JSON.stringify(strictPlanJsonSchema(exact).schema)).not.toContain("Only {} can be written");
  });

  it("an enum-keyed z.record is its keys: every key of z.record, each optional of z.partialRecord", () => {
    const validate = strictValidator(exact);
    const grade = (fields: Record<string, unknown>) =>
      call("grade", { scores: { math: 1, art: 2 }, marks: null, single: { k: true }, ...fields });
    const fine = plan(grade({}), grade({ marks: { x: "a", y: null } }), grade({ marks: "†state.m" }));
    expect(validate(fine), JSON.stringify(validate.errors)).toBe(true);
    expect(errorsAfter(fine, exact)).toEqual([]);
    for (const wrong of [
      grade({ scores: { math: 1 } }),
      grade({ scores: { math: 1, art: 2, music: 3 } }),
      grade({ marks: { z: "a", x: null, y: null } }),
      grade({ single: {} }),
    ])
      expect(validate(plan(wrong))).toBe(false);
  });

  it("what a dropped keyword let through, the compiler refuses", () => {
    const validate = strictValidator(loosened);
    const shaped = (fields: Record<string, unknown>) =>
      call("shaped", { code: null, count: null, both: null, pair: null, anything: null, ...fields });
    const document = plan(shaped({ code: "tmpx", count: 13 }));
    expect(validate(document)).toBe(true);
    expect(errorsAfter(document, loosened).sort()).toEqual([
      "PARAM_INVALID /plan/0/code",
      "PARAM_INVALID /plan/0/count",
    ]);
    const fine = plan(
      shaped({ code: "abc", count: 12, both: { a: "x" }, pair: ["a", 1], anything: [1, "x"] }),
    );
    expect(validate(fine)).toBe(true);
    expect(errorsAfter(fine, loosened)).toEqual([]);
  });

  it("an _outputPath rule with a lookaround: the pattern dropped, noted under outputPath", () => {
    const registry = createToolRegistry([
      { name: "w", outputPath: { pattern: "^†state\\.(?!secret)" }, run: () => 1 },
    ]);
    const { schema, deviations } = strictPlanJsonSchema(registry);
    expect(strictSubsetProblems(schema)).toEqual([]);
    expect(deviations).toMatchObject([{ tool: "w", schema: "outputPath", pointer: "", keyword: "pattern" }]);
  });
});

describe("strict plan JSON schema: an optional parameter that takes any value without naming null", () => {
  const registry = createToolRegistry(anyValueStrictTools);
  const { schema, deviations } = strictPlanJsonSchema(registry);
  const callOf = (tool: string) => callProperties(schema, tool);

  it("is any value but null, a reference, or null (absent); one that names null keeps its null", () => {
    const report = callOf("report");
    for (const key of ["from", "minTotal", "label", "includeRefunds", "rounded", "page", "extra"])
      expect(report[key], key).toEqual({
        anyOf: [{ $ref: "#/$defs/json_not_null" }, { $ref: "#/$defs/reference" }, { type: "null" }],
      });
    expect(report.nullableAny).toEqual({
      anyOf: [{ $ref: "#/$defs/json" }, { type: "null" }, { $ref: "#/$defs/reference" }],
    });
    expect(callOf("ask")._output).toEqual({ anyOf: [{ $ref: "#/$defs/json_not_null" }, { type: "null" }] });
    const notNull = addFormats(new Ajv2020({ strict: true })).compile({
      $defs: schema.$defs,
      $ref: "#/$defs/json_not_null",
    });
    expect([null, "x", 1, true, [null], {}].map((v) => notNull(v))).toEqual([
      false,
      true,
      true,
      true,
      true,
      true,
    ]);
  });

  it("is reported: null there means absent, a null value only through a reference", () => {
    const found = deviations
      .filter((d) => d.reason === "null-absent")
      .map((d) => `${d.tool} ${d.schema} ${d.pointer}`);
    expect(found.sort()).toEqual(
      [
        "ask output ",
        "raw input /properties/anything",
        ...["from", "minTotal", "label", "includeRefunds", "rounded", "page", "extra"].map(
          (k) => `report input /properties/${k}`,
        ),
      ].sort(),
    );
  });
});

describe("strict plan JSON schema: tools guarded against plans, as the full schema (decision 0031)", () => {
  const registry = createToolRegistry(guardedStrictTools);
  const validate = strictValidator(registry);
  const full = addFormats(new Ajv2020({ strict: false })).compile(planJsonSchema(registry));
  const refund = (fields: Record<string, unknown>) =>
    call("refund", {
      orderId: "o1",
      approval: "†state.approvals.refund",
      second: "†state.approvals.second",
      ...fields,
    });
  const lookup = (fields: Record<string, unknown>) => call("lookup", { id: "u1", ...fields });

  it("an approval parameter takes only a reference under †state.approvals., required even if optional", () => {
    expect(validate(plan(refund({})))).toBe(true);
    expect(errorsAfter(plan(refund({})), registry)).toEqual([]);
    for (const approval of [{ by: "ops" }, "†state.other", "ok {†state.approvals.refund}", null]) {
      expect(validate(plan(refund({ approval }))), JSON.stringify(approval)).toBe(false);
      expect(validate(plan(refund({ second: approval }))), JSON.stringify(approval)).toBe(false);
    }
    const { deviations } = strictPlanJsonSchema(registry);
    expect(deviations).toEqual([]);
  });

  it("a tool that is not idempotent: no _rerun, no more attempts than its own; the other tool keeps both", () => {
    const retry = (attempts: number) => ({
      _retry: { attempts, backoffMs: null, factor: null, maxDelayMs: null, jitter: null },
    });
    const cases: [unknown, boolean][] = [
      [refund({ _rerun: false, ...retry(2) }), true],
      [refund({ _rerun: true }), false],
      [refund(retry(3)), false],
      [lookup({ _rerun: true, ...retry(10) }), true],
    ];
    for (const [document, valid] of cases) {
      expect(validate(plan(document)), JSON.stringify(document)).toBe(valid);
      // as the full schema says it, once the nulls are gone
      expect(full(fromStrictPlan(plan(document), registry))).toBe(valid);
    }
  });
});

describe("strict plan JSON schema: size limits", () => {
  const wide = createToolRegistry(
    Array.from({ length: 60 }, (_, t) => ({
      name: `tool${t}`,
      input: {
        type: "object",
        properties: Object.fromEntries(
          Array.from({ length: 80 }, (_, p) => [`param${p}`, { type: "string" }]),
        ),
      },
      run: () => 1,
    })),
  );

  it("a registry over OpenAI's documented 5,000 properties is reported", () => {
    const { deviations } = strictPlanJsonSchema(wide);
    expect(deviations).toMatchObject([{ reason: "size-limit", limit: "maxProperties", pointer: "" }]);
    expect(deviations[0]?.tool).toBeUndefined();
  });

  it("objects nested deeper than 10 levels are reported", () => {
    let inner: z.ZodType = z.object({ leaf: z.string() });
    for (let i = 0; i < 9; i += 1) inner = z.object({ next: inner });
    const deep = createToolRegistry([
      defineTool({ name: "deep", input: z.object({ root: inner }), run: () => 1 }),
    ]);
    const [deviation] = strictPlanJsonSchema(deep).deviations;
    // where: the deepest object, z.object({ leaf }), in the tool's own schema
    expect(deviation).toMatchObject({
      reason: "size-limit",
      limit: "maxObjectDepth",
      tool: "deep",
      schema: "input",
      pointer: `/properties/root${"/properties/next".repeat(9)}`,
    });
    expect(deviation?.message).toContain("the plan root and the call object");
  });

  it("a recursive schema counts its levels once", () => {
    expect(strictPlanJsonSchema(exact).deviations).toEqual([]);
  });

  it("the limits can be set (another provider, or the 2024 ones)", () => {
    const { deviations } = strictPlanJsonSchema(exact, {
      sizeLimits: { maxProperties: 50, maxObjectDepth: 3 },
    });
    expect(deviations.map((d) => d.limit).sort()).toEqual(["maxObjectDepth", "maxProperties"]);
  });

  it("a large string enum and the total of enum values", () => {
    const values = Array.from({ length: 1200 }, (_, i) => `value-number-${i}`);
    const tool = (name: string, properties: Record<string, unknown>) => ({
      name,
      input: { type: "object", properties },
      run: () => 1,
    });
    const cases: [Record<string, unknown>[], string][] = [
      [[tool("e", { v: { enum: values } })], "/properties/v"],
      [
        [
          tool("small", { s: { enum: ["a", "b"] } }),
          tool("e", { w: { properties: { v: { enum: values } } } }),
        ],
        "/properties/w/properties/v",
      ],
    ];
    for (const [tools, at] of cases) {
      const found = strictPlanJsonSchema(createToolRegistry(tools)).deviations.map((d) => [
        d.limit,
        d.tool,
        d.schema,
        d.pointer,
      ]);
      // where: the largest enum
      expect(found.sort()).toEqual([
        ["maxEnumValues", "e", "input", at],
        ["maxLargeEnumLength", "e", "input", at],
      ]);
    }
  });
});

describe("strict plan JSON schema: _retry within the limits the plans are compiled with", () => {
  it("follows options.limits as the full schema does", () => {
    const registry = createToolRegistry([{ name: "t", run: () => 1 }]);
    const limits = { maxRetryAttempts: 20 };
    const validate = addFormats(new Ajv2020({ strict: true })).compile(
      strictPlanJsonSchema(registry, { limits }).schema,
    );
    const retry = (attempts: number) =>
      plan(
        call("t", { _retry: { attempts, backoffMs: null, factor: null, maxDelayMs: null, jitter: null } }),
      );
    expect(validate(retry(20))).toBe(true);
    expect(validate(retry(21))).toBe(false);
  });
});
