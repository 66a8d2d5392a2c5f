import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsPlugin from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ABSENT_META,
  anyValueStrictTools,
  exactStrictTools,
  reportInput,
  strictPlan,
  strictSearchCall,
} from "./__fixtures__/strict-tools.js";
import { exampleTools, specFormTool } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { fromStrictPlan } from "./from-strict-plan.js";
import { strictPlanJsonSchema } from "./strict-plan-json-schema.js";
import { createToolRegistry } from "./tool-registry.js";

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => Ajv2020;
const registry = createToolRegistry(exactStrictTools);

const meta = ABSENT_META;
const plan = strictPlan;
const search = strictSearchCall;

/** Freezes a value and everything in it (the function must not change its input). */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

describe("fromStrictPlan: the nulls that mean absent go", () => {
  it("at the top, in meta-properties, parameters, nested objects and _retry", () => {
    const document = plan(
      search({
        _id: "s",
        _retry: { attempts: 2, backoffMs: null, factor: null, maxDelayMs: null, jitter: true },
        filters: { from: null, tags: ["a"], range: { low: 1, high: null } },
      }),
    );
    expect(fromStrictPlan(deepFreeze(document), registry)).toEqual({
      type: "plan",
      plan: [
        {
          _tool: "search",
          _id: "s",
          _retry: { attempts: 2, jitter: true },
          query: "q",
          cursor: null,
          strictFlag: null,
          filters: { tags: ["a"], range: { low: 1 } },
        },
      ],
    });
  });

  it("one call and a bare array of calls (as a text stream hands them out) are cleaned as in a document", () => {
    const written = search({ _id: "s", filters: { from: null, tags: ["a"], range: { low: 1, high: null } } });
    const [expected] = (fromStrictPlan(plan(written), registry) as { plan: unknown[] }).plan;
    expect(expected).toMatchObject({ _id: "s", filters: { tags: ["a"], range: { low: 1 } } });
    expect(fromStrictPlan(deepFreeze(written), registry)).toEqual(expected);
    expect(fromStrictPlan([written, written], registry)).toEqual([expected, expected]);
    // anything else stays as it is
    expect(fromStrictPlan({ calls: [written] }, registry)).toEqual({ calls: [written] });
    expect(fromStrictPlan("x", registry)).toBe("x");
  });

  it("keeps a null the parameter's own schema takes: optional nullable (cursor), required nullable (strictFlag)", () => {
    const [call] = (
      fromStrictPlan(plan(search({ cursor: null, strictFlag: null })), registry) as { plan: object[] }
    ).plan;
    expect(call).toEqual({ _tool: "search", query: "q", cursor: null, strictFlag: null });
  });

  it("through recursive $refs, array items and the branch of an anyOf the value was written under", () => {
    const tree = {
      _tool: "tree",
      ...meta,
      node: { name: "a", kids: [{ name: "b", kids: null }, "†state.k"] },
    };
    const choose = { _tool: "choose", ...meta, v: { k: 1, note: null }, pair: null };
    expect((fromStrictPlan(plan(tree, choose), registry) as { plan: unknown[] }).plan).toEqual([
      { _tool: "tree", node: { name: "a", kids: [{ name: "b" }, "†state.k"] } },
      // pair's own schema takes null (type ["number", "null"]): kept
      { _tool: "choose", v: { k: 1 }, pair: null },
    ]);
  });

  it("a latent call's _output: its absent members go, a null _output (deferred) goes", () => {
    const calls = (
      fromStrictPlan(
        plan(
          { _tool: "approve", ...meta, _output: { approved: true, note: null } },
          { _tool: "approve", ...meta, _output: null },
        ),
        registry,
      ) as { plan: unknown[] }
    ).plan;
    expect(calls).toEqual([{ _tool: "approve", _output: { approved: true } }, { _tool: "approve" }]);
  });

  it("a call that fits no tool's strict shape is left as written, for compile to report; the others are cleaned", () => {
    const unknown = { _tool: "serch", ...meta, query: "q" };
    const result = fromStrictPlan(plan(unknown, search({})), registry) as { plan: unknown[] };
    expect(result.plan).toEqual([unknown, { _tool: "search", query: "q", cursor: null, strictFlag: null }]);
    expect(compile(result, registry).diagnostics.map((d) => d.code)).toContain("TOOL_UNKNOWN");
  });

  it("a call of a known tool with a key it does not have: still cleaned by its _tool, the key reported alone", () => {
    const retry = { attempts: 2, backoffMs: null, factor: null, maxDelayMs: null, jitter: null, junk: 1 };
    const result = fromStrictPlan(plan(search({ junk: 1, _retry: retry })), registry) as { plan: unknown[] };
    expect(result.plan).toEqual([
      {
        _tool: "search",
        query: "q",
        junk: 1,
        cursor: null,
        strictFlag: null,
        _retry: { attempts: 2, junk: 1 },
      },
    ]);
    const errors = compile(result, registry).diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => `${d.code} ${d.pointer}`)).toEqual([
      "CALL_SHAPE /plan/0/_retry/junk",
      "PARAM_UNKNOWN /plan/0/junk",
    ]);
  });

  it("a call of a known tool with a wrong value: still cleaned by its _tool, the wrong value reported alone", () => {
    const result = fromStrictPlan(plan(search({ limit: "five" })), registry);
    expect(result).toEqual({
      type: "plan",
      plan: [{ _tool: "search", query: "q", limit: "five", cursor: null, strictFlag: null }],
    });
    const errors = compile(result, registry).diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => `${d.code} ${d.pointer}`)).toEqual(["PARAM_INVALID /plan/0/limit"]);
  });
});

describe("fromStrictPlan: an optional parameter that takes any value without naming null", () => {
  const tools = createToolRegistry(anyValueStrictTools);
  const leftOut = {
    from: null,
    minTotal: null,
    label: null,
    includeRefunds: null,
    rounded: null,
    page: null,
    extra: null,
  };

  it("z.coerce.*, z.preprocess, .catch and z.unknown() left out (null) reach the tool as absent, not as null coerced", () => {
    const document = plan({ _tool: "report", ...meta, region: "EMEA", ...leftOut, nullableAny: null });
    const [call] = (fromStrictPlan(document, tools) as { plan: Record<string, unknown>[] }).plan;
    // nullableAny names null (z.unknown().nullable()): its null is a value the tool takes
    expect(call).toEqual({ _tool: "report", region: "EMEA", nullableAny: null });
    const { _tool, ...params } = call ?? {};
    // what the tool gets: no from: 1970-01-01, minTotal: 0, label: "null", includeRefunds: false
    expect(reportInput.parse(params)).toEqual({ region: "EMEA", page: 1, nullableAny: null });
    expect(compile(fromStrictPlan(document, tools), tools).diagnostics).toEqual([]);
  });

  it("a value given there is kept: a scalar, a list (its null items too), {} and a reference", () => {
    const given = { from: "2024-01-01", minTotal: "†input.min", label: 7, extra: [null, 1], rounded: {} };
    const document = plan({ _tool: "report", ...meta, region: "EMEA", ...leftOut, ...given, nullableAny: 1 });
    const [call] = (fromStrictPlan(document, tools) as { plan: unknown[] }).plan;
    expect(call).toEqual({ _tool: "report", region: "EMEA", ...given, nullableAny: 1 });
  });

  it("a JSON Schema {} parameter and a latent call's any _output: null is absent (the call deferred)", () => {
    const document = plan(
      { _tool: "raw", ...meta, anything: null, list: [null, {}] },
      { _tool: "ask", ...meta, _output: null },
      { _tool: "ask", ...meta, _output: [null] },
    );
    expect((fromStrictPlan(document, tools) as { plan: unknown[] }).plan).toEqual([
      { _tool: "raw", list: [null, {}] },
      { _tool: "ask" },
      { _tool: "ask", _output: [null] },
    ]);
  });
});

describe("fromStrictPlan: what is not a strict plan", () => {
  it.each([
    ["null", null],
    ["a number", 3],
    ["a string", "plan"],
    ["the calls form", { calls: [search({})] }],
    ["plan not a list", { type: "plan", plan: "x" }],
  ])("%s is returned as it is", (_name, document) => {
    expect(fromStrictPlan(document, registry)).toBe(document);
  });

  it("keys the strict schema does not have are kept as they are", () => {
    const document = { $schema: "./plan.schema.json", inputSchema: { type: "object", x: null }, plan: [] };
    expect(fromStrictPlan(document, registry)).toEqual(document);
  });

  it("a __proto__ key stays an own key, nothing is polluted", () => {
    const document = JSON.parse(
      '{"plan":[{"_tool":"search","__proto__":{"polluted":true},"query":"q","_id":null}]}',
    );
    const result = fromStrictPlan(document, registry) as { plan: Record<string, unknown>[] };
    expect(Object.hasOwn(result.plan[0] ?? {}, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(result.plan[0])).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("a value nested 100,000 deep under a recursive schema does not overflow the stack", () => {
    let node: unknown = { name: "leaf", kids: null };
    for (let i = 0; i < 100_000; i += 1) node = { name: "n", kids: [node] };
    expect(() => fromStrictPlan(plan({ _tool: "tree", ...meta, node }), registry)).not.toThrow();
  });

  it("never throws, and never changes its input, whatever JSON it is given", () => {
    const names = [...registry.names, "other"];
    const call = fc.dictionary(
      fc.oneof(
        fc.constantFrom("_tool", "_id", "_retry", "query", "filters", "node", "v", "__proto__"),
        fc.string(),
      ),
      fc.oneof(fc.constantFrom(...names), fc.jsonValue({ maxDepth: 4 })),
    );
    const documents = fc.oneof(
      fc.jsonValue(),
      fc.record(
        { type: fc.jsonValue(), plan: fc.array(fc.oneof(call, fc.jsonValue({ maxDepth: 3 }))) },
        { requiredKeys: ["plan"] },
      ),
    );
    fc.assert(
      fc.property(documents, (document) => {
        const before = JSON.stringify(document);
        fromStrictPlan(deepFreeze(document), registry);
        expect(JSON.stringify(document)).toBe(before);
      }),
      { numRuns: 500 },
    );
  });
});

type Schema = Record<string, unknown>;
/**
 * What a plan's shape decides. Left out, as neither plan schema states them: OUTPUT_METHOD_INVALID (an
 * accumulating `_outputMethod` without `_outputPath`: a rule between two keys) and OUTPUT_PATH_NOT_ALLOWED
 * (a tool's `pattern` rule, which both schemas apply to the whole `_outputPath` text and the compiler to
 * each target, spelled its own way: `†state.mail.0` is `†state.mail[0]`).
 */
const SHAPE_CODES = new Set([
  "PLAN_SHAPE",
  "CALL_SHAPE",
  "TOOL_UNKNOWN",
  "META_UNKNOWN",
  "PARAM_INVALID",
  "PARAM_MISSING",
  "PARAM_UNKNOWN",
]);

/**
 * Values of a strict schema (the subset strict mode takes), as a model held to it could write them:
 * references from a few valid ones, output paths under †state, ids from a few names, anything else as its
 * schema says. Past `depth`, recursion stops at a branch that needs none (null, a reference, an empty list).
 */
function valuesOf(schema: Schema, defs: Record<string, Schema>, depth: number): fc.Arbitrary<unknown> {
  if (typeof schema.$ref === "string") {
    const key = schema.$ref.slice("#/$defs/".length);
    if (key === "reference") return fc.constantFrom("†state.a", "†input.b", "see {†state.c}");
    if (key === "meta_id") return fc.constantFrom("first", "second", "third_3");
    return valuesOf(defs[key] as Schema, defs, depth + 1);
  }
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf as Schema[];
    const shallow = branches.filter((b) => b.type === "null" || b.$ref === "#/$defs/reference");
    const pick = depth > 6 && shallow.length > 0 ? shallow : branches;
    return fc.oneof(...pick.map((b) => valuesOf(b, defs, depth + 1)));
  }
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  switch (schema.type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer({
        min: (schema.minimum as number) ?? -1000,
        max: Math.min((schema.maximum as number) ?? 1000, 1e6),
      });
    case "number": {
      const min = (schema.minimum as number | undefined) ?? -1000;
      const above = schema.exclusiveMinimum as number | undefined;
      return fc.double({
        min: above ?? min,
        max: (schema.maximum as number) ?? 1e6,
        noNaN: true,
        minExcluded: above !== undefined,
      });
    }
    case "string":
      // A format's meaning differs between validators: values every one takes.
      if (schema.format === "email") return fc.constantFrom("ada@example.com", "b.c@d.org");
      if (schema.pattern === "^†") return fc.constantFrom("†state.x", "†state.y.z", "†state.a || †state.b");
      if (typeof schema.pattern === "string") return fc.stringMatching(new RegExp(schema.pattern));
      return fc.string({ maxLength: 8 }).filter((s) => !s.includes("†"));
    case "array":
      return fc.array(valuesOf(schema.items as Schema, defs, depth + 1), {
        minLength: (schema.minItems as number) ?? 0,
        maxLength: depth > 6 ? 0 : Math.min((schema.maxItems as number) ?? 3, 3),
      });
    case "object": {
      const properties = schema.properties as Record<string, Schema>;
      return fc.record(
        Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, valuesOf(s, defs, depth + 1)])),
      );
    }
    default:
      throw new Error(`no values for ${JSON.stringify(schema)}`);
  }
}

describe("fromStrictPlan: every plan a model held to the strict schema writes is a plan of the right shape", () => {
  it.each([
    ["exact tools", registry],
    ["the example tools", createToolRegistry([...exampleTools, specFormTool])],
    ["tools taking any value", createToolRegistry(anyValueStrictTools)],
  ])("%s: no shape diagnostic after fromStrictPlan", (_name, tools) => {
    const { schema } = strictPlanJsonSchema(tools);
    const validate = addFormats(new Ajv2020({ strict: true })).compile(schema);
    const documents = valuesOf(schema as Schema, (schema.$defs ?? {}) as Record<string, Schema>, 0);
    fc.assert(
      fc.property(documents, (document) => {
        expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
        const codes = compile(fromStrictPlan(document, tools), tools).diagnostics.map(
          (d) => `${d.code} ${d.pointer}`,
        );
        expect(codes.filter((c) => SHAPE_CODES.has(c.split(" ")[0] ?? ""))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
