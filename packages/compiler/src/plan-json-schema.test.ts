import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { generatePlan } from "./__fixtures__/generate-plans.js";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { planJsonSchema } from "./plan-json-schema.js";
import { defineTool } from "./tool-definition.js";
import type { ToolRegistry } from "./tool-registry.js";
import { createToolRegistry } from "./tool-registry.js";

/** Whether the compiler accepts a plan (state and input unknown, so REF_UNRESOLVED is not a verdict). */
function compilerAccepts(plan: unknown, registry: ToolRegistry): boolean {
  return compile(plan, registry).diagnostics.every(
    (d) => d.severity !== "error" || d.code === "REF_UNRESOLVED",
  );
}

/** The plan schema of a registry, compiled by ajv as the existing tests do. */
function schemaValidator(registry: ToolRegistry) {
  return new Ajv2020({ strict: false }).compile(planJsonSchema(registry));
}

const plan = (...calls: unknown[]) => ({ type: "plan", plan: calls });

const Category: z.ZodType = z.object({
  name: z.string(),
  get children() {
    return z.array(Category);
  },
});

/** Tools whose input schemas refer to themselves: `#`, `#/$defs/…`, `#/definitions/…`, pointers, anchors. */
const refTools = createToolRegistry([
  {
    name: "tree",
    input: {
      type: "object",
      properties: { node: { $ref: "#/$defs/node" } },
      required: ["node"],
      $defs: {
        node: {
          type: "object",
          properties: { name: { type: "string" }, kids: { type: "array", items: { $ref: "#/$defs/node" } } },
          required: ["name"],
        },
      },
    },
    run: () => 1,
  },
  {
    name: "rec",
    input: { type: "object", properties: { n: { type: "integer" }, next: { $ref: "#" } } },
    run: () => 1,
  },
  {
    name: "old",
    input: {
      type: "object",
      properties: { p: { $ref: "#/definitions/point" }, q: { $ref: "#/properties/p" } },
      definitions: {
        point: { type: "object", properties: { x: { type: "number" } }, additionalProperties: false },
      },
    },
    run: () => 1,
  },
  {
    name: "anchored",
    input: {
      type: "object",
      properties: { a: { $ref: "#item" }, list: { type: "array", items: { $ref: "#/$defs/item" } } },
      $defs: { item: { $anchor: "item", type: "integer", minimum: 1 } },
    },
    run: () => 1,
  },
  // Same definition name as `tree`: each tool's definitions stay its own.
  {
    name: "other",
    input: {
      type: "object",
      properties: { node: { $ref: "#/$defs/node" } },
      $defs: { node: { type: "boolean" } },
    },
    run: () => 1,
  },
  {
    name: "en",
    input: {
      type: "object",
      properties: { mode: { enum: ["a", "b"] }, count: { type: "integer", minimum: 1 } },
      required: ["mode"],
      additionalProperties: false,
    },
    run: () => 1,
  },
  {
    name: "latent",
    output: { type: "object", properties: { v: { type: "integer" }, next: { $ref: "#" } } },
  },
  defineTool({ name: "cat", input: z.object({ root: Category }), run: () => 1 }),
  {
    name: "combo",
    input: {
      type: "object",
      properties: {
        v: {
          anyOf: [
            { type: "object", properties: { k: { type: "integer" } }, required: ["k"] },
            { type: "array", prefixItems: [{ type: "number" }] },
          ],
        },
        m: { type: "object", patternProperties: { "^x": { type: "integer" } } },
        d: { type: "object", additionalProperties: { type: "integer" } },
      },
    },
    run: () => 1,
  },
]);

/** [name, plan, accepted by the compiler]: the schema must give the same verdict. */
const refCases: readonly (readonly [string, unknown, boolean])[] = [
  ["tree ok", plan({ _tool: "tree", node: { name: "a", kids: [{ name: "b" }] } }), true],
  ["tree nested ref", plan({ _tool: "tree", node: { name: "a", kids: ["†state.k"] } }), true],
  ["tree nested name ref", plan({ _tool: "tree", node: { name: "a", kids: [{ name: "†state.k" }] } }), true],
  ["tree whole ref", plan({ _tool: "tree", node: "†state.n" }), true],
  ["tree bad nested", plan({ _tool: "tree", node: { name: "a", kids: [{ name: 5 }] } }), false],
  ["tree missing name deep", plan({ _tool: "tree", node: { name: "a", kids: [{}] } }), false],
  ["rec ok", plan({ _tool: "rec", n: 1, next: { n: 2 } }), true],
  ["rec deep", plan({ _tool: "rec", n: 1, next: { next: { next: { n: 3 } } } }), true],
  ["rec bad", plan({ _tool: "rec", n: 1, next: { n: "x" } }), false],
  ["rec ref in next.n", plan({ _tool: "rec", n: 1, next: { n: "†state.n" } }), true],
  ["rec next whole ref", plan({ _tool: "rec", next: "†state.next" }), true],
  ["rec next has _tool", plan({ _tool: "rec", next: { n: 2, _tool: "x" } }), true],
  ["old ok", plan({ _tool: "old", p: { x: 1 }, q: { x: 2 } }), true],
  ["old ref inside", plan({ _tool: "old", p: { x: "†state.x" }, q: { x: "†state.y" } }), true],
  ["old bad", plan({ _tool: "old", q: { x: 1, y: 2 } }), false],
  ["anchored ok", plan({ _tool: "anchored", a: 2, list: [1, "†state.i"] }), true],
  ["anchored bad", plan({ _tool: "anchored", a: 0 }), false],
  ["anchored bad item", plan({ _tool: "anchored", list: [0] }), false],
  ["other node is boolean", plan({ _tool: "other", node: true }), true],
  ["other node is not tree's node", plan({ _tool: "other", node: { name: "a" } }), false],
  ["en ok", plan({ _tool: "en", mode: "a" }), true],
  ["en bad", plan({ _tool: "en", mode: "c" }), false],
  ["en refs", plan({ _tool: "en", mode: "†input.m", count: "†input.c" }), true],
  ["en count 0", plan({ _tool: "en", mode: "a", count: 0 }), false],
  ["en unknown parameter given a reference", plan({ _tool: "en", mode: "a", other: "†state.o" }), false],
  ["latent _output nested", plan({ _tool: "latent", _output: { v: 1, next: { v: 2 } } }), true],
  ["latent _output bad nested", plan({ _tool: "latent", _output: { next: { v: "x" } } }), false],
  ["latent _output is literal", plan({ _tool: "latent", _output: { v: "†state.v" } }), false],
  ["cat ok", plan({ _tool: "cat", root: { name: "a", children: [{ name: "b", children: [] }] } }), true],
  [
    "cat refs deep",
    plan({ _tool: "cat", root: { name: "a", children: [{ name: "†state.n", children: "†state.c" }] } }),
    true,
  ],
  ["cat bad deep", plan({ _tool: "cat", root: { name: "a", children: [{ name: 1, children: [] }] } }), false],
  ["combo object branch ref", plan({ _tool: "combo", v: { k: "†state.k" } }), true],
  ["combo tuple ref", plan({ _tool: "combo", v: ["†state.k"] }), true],
  ["combo bad branch", plan({ _tool: "combo", v: { k: "one" } }), false],
  ["combo pattern property ref", plan({ _tool: "combo", m: { x1: "†state.k" }, d: { a: "†state.a" } }), true],
  ["combo pattern property bad", plan({ _tool: "combo", m: { x1: "one" } }), false],
  ["combo additional property bad", plan({ _tool: "combo", d: { a: "one" } }), false],
];

describe("plan JSON schema: tool schemas with $ref", () => {
  const validate = schemaValidator(refTools);
  it.each(refCases)("%s: the schema agrees with the compiler", (_name, document, accepted) => {
    expect(compilerAccepts(document, refTools)).toBe(accepted);
    expect(validate(document)).toBe(accepted);
  });

  it("every $ref resolves inside the plan schema's own $defs, under the tool's key or a shared piece's", () => {
    const schema = planJsonSchema(refTools);
    const defs = schema.$defs as Record<string, unknown>;
    const refs: string[] = [];
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (typeof value === "object" && value !== null)
        for (const [key, item] of Object.entries(value)) {
          if (key === "$ref") refs.push(item as string);
          else walk(item);
        }
    };
    walk(schema);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref).toMatch(
        /^#\/\$defs\/((tree|rec|old|anchored|other|cat|latent)(__|\/|$)|(reference|bareDagger|_[A-Za-z]+(_\d+)?)$)/,
      );
      expect(defs[ref.split("/")[2] ?? ""], ref).toBeDefined();
    }
    expect(JSON.stringify(schema)).not.toContain('"$anchor"');
  });

  it("strict ajv compiles it too", () => {
    // strictTuples off: `combo`'s own one-item prefixItems would trip it, whatever the plan schema does.
    const ajv = new Ajv2020({ strict: true, strictTuples: false });
    expect(() => ajv.compile(planJsonSchema(refTools))).not.toThrow();
  });
});

describe("plan JSON schema: _outputPath rules", () => {
  const ruled = createToolRegistry([
    { name: "translate", outputPath: { const: "†state.translation" }, run: () => 1 },
    { name: "note", outputPath: { pattern: "^†state\\.notes\\." }, run: () => 1 },
    { name: "lang", outputPath: { pattern: "^†state\\.translations\\.[A-Za-z-]+$" }, run: () => 1 },
    { name: "free", run: () => 1 },
    { name: "loose", outputPath: { pattern: "notes" }, run: () => 1 },
  ]);
  const validate = schemaValidator(ruled);
  it.each([
    ["const rule, no _outputPath", plan({ _tool: "translate" }), false],
    ["const rule, the path", plan({ _tool: "translate", _outputPath: "†state.translation" }), true],
    ["pattern rule, no _outputPath", plan({ _tool: "note" }), false],
    ["pattern rule, a matching path", plan({ _tool: "note", _outputPath: "†state.notes.a" }), true],
    ["no rule, no _outputPath", plan({ _tool: "free" }), true],
    ["pattern rule, a path outside it", plan({ _tool: "note", _outputPath: "†state.other" }), false],
    // a rule that does not hold the dagger itself: the shared _outputPath does (OUTPUT_PATH_SYNTAX)
    ["unanchored rule, no dagger", plan({ _tool: "loose", _outputPath: "state.notes.a" }), false],
    ["unanchored rule, a reference", plan({ _tool: "loose", _outputPath: "†state.notes.a" }), true],
    // the compiler holds the rule to each target's canonical text (†state.translations.de-CH)
    [
      "pattern rule, a bracketed spelling",
      plan({ _tool: "lang", _outputPath: '†state.translations["de-CH"]' }),
      true,
    ],
    [
      "pattern rule, a bracketed kind path",
      plan({ _tool: "lang", _outputPath: '†state["translations"].de' }),
      true,
    ],
    [
      "const rule, a bracketed spelling",
      plan({ _tool: "translate", _outputPath: '†state["translation"]' }),
      true,
    ],
    [
      "anchored rule, two targets",
      plan({ _tool: "lang", _outputPath: "†state.translations.de && †state.translations.fr" }),
      true,
    ],
  ] as const)("%s: the schema agrees with the compiler", (_name, document, accepted) => {
    expect(compilerAccepts(document, ruled)).toBe(accepted);
    expect(validate(document)).toBe(accepted);
  });
});

describe("plan JSON schema: a rule over several targets is left to the compiler", () => {
  it("takes a text of several targets the compiler refuses for one of them", () => {
    const tools = createToolRegistry([
      { name: "lang", outputPath: { pattern: "^†state\\.translations\\.[A-Za-z-]+$" }, run: () => 1 },
    ]);
    const document = plan({ _tool: "lang", _outputPath: "†state.translations.de || †state.x" });
    expect(compilerAccepts(document, tools)).toBe(false);
    expect(schemaValidator(tools)(document)).toBe(true);
  });
});

describe("plan JSON schema: as strict as the compiler where that is certain", () => {
  const tools = createToolRegistry([
    {
      name: "greet",
      input: {
        type: "object",
        properties: { name: { type: "string" }, times: { type: "integer" } },
        required: ["name"],
        additionalProperties: false,
      },
      run: () => 1,
    },
    { name: "lang", outputPath: { pattern: "^†state\\.language" }, run: () => 1 },
  ]);
  const validate = schemaValidator(tools);
  const greet = (extra: Record<string, unknown>) => ({ _tool: "greet", name: "Ada", ...extra });
  it.each([
    ["_outputPath in †input", plan(greet({ _outputPath: "†input.x" })), false],
    ["_outputPath in †calls", plan(greet({ _outputPath: "†calls.x" })), false],
    [
      "_outputPath with a read-only || alternative",
      plan(greet({ _outputPath: "†state.a || †input.b" })),
      false,
    ],
    ["_outputPath with a read-only && target", plan(greet({ _outputPath: "†state.a&&†calls.b" })), false],
    [
      "_outputPath naming †input inside a quoted segment",
      plan(greet({ _outputPath: '†state["x || †input.y"]' })),
      true,
    ],
    ["_outputPath in †state", plan(greet({ _outputPath: "†state.a || †state.b && †state.c" })), true],
    ["_outputPath under †state.approvals", plan(greet({ _outputPath: "†state.approvals.pay" })), false],
    ["_outputPath †state.approvals", plan(greet({ _outputPath: "†state.a && †state.approvals" })), false],
    ['_outputPath †state["approvals"]', plan(greet({ _outputPath: '†state["approvals"].x' })), false],
    // a quoted segment is a JSON string: its escapes are decoded (\u0076 is "v")
    [
      '_outputPath †state["appro\\u0076als"] (a JSON escape in the segment)',
      plan(greet({ _outputPath: '†state["appro\\u0076als"].x' })),
      false,
    ],
    [
      "_outputPath with every letter of approvals escaped, hex in either case",
      plan(
        greet({
          _outputPath:
            '†state.a || †state["\\u0061\\u0070\\u0070\\u0072\\u006F\\u0076\\u0061\\u006c\\u0073"]',
        }),
      ),
      false,
    ],
    ['_outputPath †state["approvals2"]', plan(greet({ _outputPath: '†state["approvals2"]' })), true],
    [
      '_outputPath †state["appro\\u0076alsLog"]',
      plan(greet({ _outputPath: '†state["appro\\u0076alsLog"]' })),
      true,
    ],
    ["_outputPath †state.approvalsLog", plan(greet({ _outputPath: "†state.approvalsLog" })), true],
    ["_outputPath †state.user.approvals", plan(greet({ _outputPath: "†state.user.approvals" })), true],
    ["_id __proto__", plan(greet({ _id: "__proto__" })), false],
    ["_id constructor", plan(greet({ _id: "constructor" })), false],
    ["_id prototypes", plan(greet({ _id: "prototypes" })), true],
    ["_retry attempts not a number", plan(greet({ _retry: { attempts: "x" } })), false],
    ["_retry attempts 0", plan(greet({ _retry: { attempts: 0 } })), false],
    ["_retry attempts 1.5", plan(greet({ _retry: { attempts: 1.5 } })), false],
    ["_retry factor 0.5", plan(greet({ _retry: { factor: 0.5 } })), false],
    ["_retry backoffMs -1", plan(greet({ _retry: { backoffMs: -1 } })), false],
    ["_retry jitter not boolean", plan(greet({ _retry: { jitter: 1 } })), false],
    ["_retry unknown field", plan(greet({ _retry: { attempt: 2 } })), false],
    ["_retry not an object", plan(greet({ _retry: 3 })), false],
    // the default limits (maxRetryAttempts 10, maxRetryDelayMs 60,000): PLAN_LIMIT above them
    ["_retry attempts 1000", plan(greet({ _retry: { attempts: 1000 } })), false],
    ["_retry attempts 10", plan(greet({ _retry: { attempts: 10 } })), true],
    ["_retry backoffMs 1e12", plan(greet({ _retry: { attempts: 2, backoffMs: 1e12 } })), false],
    ["_retry maxDelayMs 1e12", plan(greet({ _retry: { attempts: 2, maxDelayMs: 1e12 } })), false],
    ["_retry delays 60000", plan(greet({ _retry: { backoffMs: 60_000, maxDelayMs: 60_000 } })), true],
    [
      "_retry all fields",
      plan(greet({ _retry: { attempts: 3, backoffMs: 0, factor: 1, maxDelayMs: 500, jitter: true } })),
      true,
    ],
    ["a bare † is no reference", plan(greet({ times: "†" })), false],
    ["a bare † in a string parameter", plan(greet({ name: "†" })), false],
    ["† and a space in a string parameter", plan(greet({ name: "† x" })), false],
    ["a dagger inside a literal string", plan(greet({ name: "a†" })), true],
    ["† and a space is no reference either", plan(greet({ times: "† x" })), false],
    // the reference pattern is not anchored: a bare dagger before a reference is still REF_SYNTAX
    ["a bare † before a reference, integer parameter", plan(greet({ times: "† †state.n" })), false],
    ["a bare † before a reference, string parameter", plan(greet({ name: "† †state.n" })), false],
    ["a reference", plan(greet({ times: "†state.n" })), true],
    ["an escaped dagger is a literal string", plan(greet({ name: "††" })), true],
    ["a template", plan(greet({ name: "Hi {†state.n}" })), true],
    ["the $tool_output alias", plan(greet({ times: "$tool_output.x" })), true],
    ['no "type"', { plan: [greet({})] }, true],
    ['a "$schema" editor hint', { $schema: "./plan.schema.json", type: "plan", plan: [greet({})] }, true],
    ["pattern rule, one target", plan({ _tool: "lang", _outputPath: "†state.language" }), true],
  ] as const)("%s: the schema agrees with the compiler", (_name, document, accepted) => {
    expect(compilerAccepts(document, tools)).toBe(accepted);
    expect(validate(document)).toBe(accepted);
  });
});

describe('plan JSON schema: the top-level "$schema" editor hint (decision 0001)', () => {
  it("is a string: an editor flags another value, which the compiler ignores", () => {
    const validate = schemaValidator(createToolRegistry([{ name: "t", run: () => 1 }]));
    expect(validate({ $schema: "https://example.com/plan.schema.json", plan: [] })).toBe(true);
    expect(validate({ $schema: 5, plan: [] })).toBe(false);
  });
});

describe("plan JSON schema: the canonical document only (decision 0040)", () => {
  it('describes { "plan": [...] }, says the compiler also takes the other forms, and refuses them itself', () => {
    const tools = createToolRegistry(exampleTools);
    const schema = planJsonSchema(tools);
    expect(schema.type).toBe("object");
    const description = (schema.properties as Record<string, { description?: string }>).plan?.description;
    expect(description).toContain('{ "plan": [ ...calls ] }');
    expect(description).toContain('{ "calls": [...] }, a bare array of calls and a single call object');
    const validate = schemaValidator(tools);
    const call = { _tool: "log", message: "hi" };
    expect(validate({ plan: [call] })).toBe(true);
    for (const other of [[call], call, { calls: [call] }]) {
      expect(validate(other)).toBe(false);
      expect(compilerAccepts(other, tools)).toBe(true);
    }
  });
});

describe("plan JSON schema: _retry within the limits the plans are compiled with", () => {
  const tools = createToolRegistry([{ name: "t", run: () => 1 }]);
  const limits = { maxRetryAttempts: 20, maxRetryDelayMs: 120_000 };
  const validate = new Ajv2020({ strict: false }).compile(planJsonSchema(tools, { limits }));
  const accepts = (document: unknown) =>
    compile(document, tools, { limits }).diagnostics.every((d) => d.severity !== "error");
  it.each([
    [{ attempts: 20, backoffMs: 120_000, maxDelayMs: 120_000 }, true],
    [{ attempts: 21 }, false],
    [{ backoffMs: 120_001 }, false],
    [{ maxDelayMs: 120_001 }, false],
  ] as const)("%o: the schema agrees with the compiler", (retry, accepted) => {
    const document = plan({ _tool: "t", _retry: retry });
    expect(accepts(document)).toBe(accepted);
    expect(validate(document)).toBe(accepted);
  });
});

describe("plan JSON schema: an infinite limit states no maximum", () => {
  const tools = createToolRegistry([{ name: "t", run: () => 1 }]);
  const limits = { maxRetryAttempts: Infinity, maxRetryDelayMs: Infinity };
  // As a model or provider receives it: sent as JSON text (Infinity would become null).
  const schema = JSON.parse(JSON.stringify(planJsonSchema(tools, { limits }))) as Record<string, unknown>;

  it("holds only finite numbers (it survives JSON) and compiles in strict-off ajv", () => {
    expect(JSON.stringify(planJsonSchema(tools, { limits }))).toBe(JSON.stringify(schema));
    expect(JSON.stringify(schema)).not.toContain("null");
    expect(() => new Ajv2020({ strict: false }).compile(schema)).not.toThrow();
  });

  it("takes a large value, as the compiler does", () => {
    const validate = new Ajv2020({ strict: false }).compile(schema);
    const document = plan({ _tool: "t", _retry: { attempts: 1e9, backoffMs: 1e12, maxDelayMs: 1e12 } });
    expect(compile(document, tools, { limits }).diagnostics.filter((d) => d.severity === "error")).toEqual(
      [],
    );
    expect(validate(document)).toBe(true);
  });
});

describe("plan JSON schema: the valid generated plans still validate", () => {
  const registry = createToolRegistry(exampleTools);
  const validate = schemaValidator(registry);
  for (const shape of ["chain", "fan-out", "random-dag"] as const)
    it(shape, () => {
      const document = generatePlan(shape, 50, 7);
      expect(compile(document, registry).ok).toBe(true);
      expect(validate(document)).toBe(true);
    });
});

describe("what the plan schema tells an LLM", () => {
  const registry = createToolRegistry(exampleTools);
  const callSchemas = () => {
    const items = (
      planJsonSchema(registry).properties as { plan: { items: { anyOf: Record<string, unknown>[] } } }
    ).plan.items.anyOf;
    return new Map(
      items.map((item) => [(item.properties as { _tool: { const: string } })._tool.const, item]),
    );
  };

  it("a tool's description gives its output's shape and its outcomes", () => {
    const calls = callSchemas();
    expect(calls.get("fetchUser")?.description).toBe(
      "Loads a user. Output: {name: string, age: number, address: {city: string}}.",
    );
    expect(calls.get("verifyUser")?.description).toBe(
      "Output: {ok: boolean}. Outcomes, one per _outputPath alternative in order (†a || †b): verified, failed; a thrown error is written to the last alternative.",
    );
  });

  it("every meta-property says what it does (in the $defs entry it refers to)", () => {
    const schema = planJsonSchema(registry);
    const defs = (schema.$defs ?? {}) as Record<string, { description?: string }>;
    const own = callSchemas().get("fetchUser")?.properties as Record<string, { $ref?: string }>;
    const properties = Object.fromEntries(
      Object.entries(own).map(([key, value]) => [key, defs[value.$ref?.split("/")[2] ?? ""] ?? value]),
    ) as Record<string, { description?: string }>;
    for (const key of [
      "_id",
      "_outputPath",
      "_outputMethod",
      "_description",
      "_rerun",
      "_timeoutMs",
      "_retry",
    ])
      expect(properties[key]?.description, key).toMatch(/\w/);
    expect(properties._outputPath?.description).toContain(
      "with two or more, a thrown error goes to the last",
    );
  });

  it("a stripping zod object takes no undeclared key (the compiler refuses it), an open JSON Schema does", () => {
    const tools = createToolRegistry([
      defineTool({ name: "strip", input: z.object({ limit: z.number() }), run: () => 1 }),
      { name: "open", input: { type: "object", properties: { limit: { type: "number" } } }, run: () => 1 },
    ]);
    const validate = schemaValidator(tools);
    const extra = plan({ _tool: "strip", limit: 1, limt: 2 });
    expect(validate(extra)).toBe(false);
    expect(compilerAccepts(extra, tools)).toBe(false);
    const open = plan({ _tool: "open", limit: 1, other: 2 });
    expect(validate(open)).toBe(true);
    expect(compilerAccepts(open, tools)).toBe(true);
  });
});
