import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exampleTools, specFormTool } from "./__fixtures__/tools.js";
import { buildPlanJsonSchema, planJsonSchema } from "./plan-json-schema.js";
import { createToolRegistry } from "./tool-registry.js";

const bytes = (value: unknown): number => JSON.stringify(value).length;
const occurrences = (text: string, part: string): number => text.split(part).length - 1;

/** `count` tools of one common shape (a string, a bounded integer, an enum), named apart. */
function searchTools(count: number) {
  return createToolRegistry(
    Array.from({ length: count }, (_, i) => ({
      name: `search${i}`,
      description: "Search the index; returns the top results",
      input: {
        type: "object",
        properties: {
          query: { type: "string", minLength: 1 },
          limit: { type: "integer", minimum: 1, maximum: 50 },
          language: { enum: ["en", "de", "fr"] },
        },
        required: ["query"],
        additionalProperties: false,
      },
      run: () => 1,
    })),
  );
}

describe("plan JSON schema: what every call repeats is written once (decision 0096)", () => {
  it("a call costs about its own parameters: 20 more tools of three parameters add under 1,000 bytes each", () => {
    // 786 bytes; before 0096 every call carried the meta-properties, their descriptions and a 230-byte
    // reference alternative per parameter: 3,046 bytes for this tool
    const perTool = (bytes(planJsonSchema(searchTools(40))) - bytes(planJsonSchema(searchTools(20)))) / 20;
    expect(perTool).toBeLessThan(1_000);
  });

  it("the meta-properties' descriptions, the reference pattern and the read-only targets appear once", () => {
    const text = JSON.stringify(planJsonSchema(searchTools(10)));
    for (const part of [
      "Names the call, so that another call",
      "Where the result is written",
      "How the value is written at _outputPath",
      "Retries when the tool throws",
      "a reference like †state.user.name",
      "(?:input|calls)",
    ])
      expect(occurrences(text, part), part).toBe(1);
  });

  it("a tool that is not idempotent shares its own _rerun and _retry with the tools like it", () => {
    const registry = createToolRegistry([
      { name: "a", run: () => 1 },
      { name: "b", idempotent: false, run: () => 1 },
      { name: "c", idempotent: false, run: () => 1 },
    ]);
    const schema = planJsonSchema(registry);
    const calls = (
      schema.properties as { plan: { items: { anyOf: { properties: Record<string, unknown> }[] } } }
    ).plan.items.anyOf;
    const refs = calls.map((call) => [call.properties._rerun, call.properties._retry]);
    expect(refs[1]).toEqual(refs[2]);
    expect(refs[0]).not.toEqual(refs[1]);
    expect((schema.$defs as Record<string, unknown>)._rerun_2).toMatchObject({ const: false });
  });
});

describe("plan JSON schema: a tool's outputPath rule beside the shared _outputPath", () => {
  it("is the entry's $ref with the rule as a sibling, no allOf (a grammar converter read it as an object)", () => {
    const registry = createToolRegistry([
      { name: "note", outputPath: { pattern: "^†state\\.notes\\." }, run: () => 1 },
    ]);
    const schema = planJsonSchema(registry);
    const call = (
      schema.properties as { plan: { items: { anyOf: { properties: Record<string, unknown> }[] } } }
    ).plan.items.anyOf[0];
    expect(call?.properties._outputPath).toEqual({
      $ref: "#/$defs/_outputPath",
      type: "string",
      anyOf: [{ pattern: "^†state\\.notes\\." }, { pattern: "^†.*(?:\\[|\\|\\||&&)" }],
    });
    expect(JSON.stringify(schema)).not.toContain('"allOf"');
    expect(() => new Ajv2020({ strict: true }).compile(schema)).not.toThrow();
  });
});

describe("plan JSON schema: sharing changes no verdict", () => {
  const registry = createToolRegistry([...exampleTools, specFormTool], {
    implementations: { sendEmail: () => "sent" },
  });
  const shared = planJsonSchema(registry);
  const inline = buildPlanJsonSchema(registry, {}, true);
  const validateShared = new Ajv2020({ strict: false }).compile(shared);
  const validateInline = new Ajv2020({ strict: false }).compile(inline);

  it("is under half the size of the same schema with every piece inline", () => {
    expect(bytes(shared)).toBeLessThan(bytes(inline) / 2);
  });

  const VALUES: readonly unknown[] = [
    "text",
    "",
    "†",
    "† x",
    "† †state.n",
    "††",
    "†state.n",
    "hi {†input.name}",
    "$tool_output.c0",
    "state.x",
    "†input.x",
    "†state.approvals.pay",
    "†state.a || †state.b",
    3,
    -1,
    0.5,
    true,
    null,
    [],
    ["†state.n"],
    {},
    { id: "r1" },
    { id: 5 },
    { attempts: 2 },
    { attempts: 100 },
  ];
  const KEYS = [
    "userId",
    "text",
    "to",
    "amount",
    "a",
    "b",
    "message",
    "receipt",
    "body",
    "other",
    "_id",
    "_outputPath",
    "_outputMethod",
    "_description",
    "_rerun",
    "_timeoutMs",
    "_retry",
    "_output",
    "_bogus",
  ];
  const value = fc.constantFrom(...VALUES);
  const key = fc.constantFrom(...KEYS);
  const call = fc
    .record({
      tool: fc.constantFrom(...registry.names, "unknown"),
      entries: fc.array(fc.tuple(key, value), { maxLength: 4 }),
    })
    .map(({ tool, entries }) => ({ _tool: tool, ...Object.fromEntries(entries) }));

  /** A call of `name` both schemas take: its required parameters references, its outputPath rule met. */
  const validCall = (name: string): Record<string, unknown> => {
    const tool = registry.get(name);
    const required = tool?.inputSchema.required;
    const call: Record<string, unknown> = { _tool: name };
    for (const key of Array.isArray(required) ? required : []) call[String(key)] = "†state.v";
    if (tool?.outputPathSchema !== undefined)
      call._outputPath = name === "setSummary" ? "†state.user.summary" : "†state.mail.sent";
    return call;
  };

  it("gives a valid call with one key changed the verdict the inline schema gives (every tool, key, value)", () => {
    const differ: string[] = [];
    let accepted = 0;
    for (const tool of registry.names) {
      expect(validateShared({ plan: [validCall(tool)] }), tool).toBe(true);
      for (const name of KEYS)
        for (const item of VALUES) {
          const document = { plan: [{ ...validCall(tool), [name]: item }] };
          const verdict = validateShared(document);
          if (verdict) accepted += 1;
          if (verdict !== validateInline(document)) differ.push(JSON.stringify(document));
        }
    }
    expect(differ).toEqual([]);
    // both verdicts are given: the comparison is no run of refusals
    expect(accepted).toBeGreaterThan(500);
  });

  it("gives every call the verdict the inline schema gives", () => {
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 3 }), (calls) => {
        const document = { type: "plan", plan: calls };
        expect(validateShared(document)).toBe(validateInline(document));
      }),
      { numRuns: 2000, seed: 96 },
    );
  });
});
