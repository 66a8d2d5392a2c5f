import type { Diagnostic, JsonObject } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { schemaExcludesPath } from "./schema-excludes-path.js";
import { defineTool } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const codes = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => [d.code, d.pointer]);
const withA = (extra: JsonObject): JsonObject => ({ type: "object", properties: { a: {} }, ...extra });

describe("an input path is unresolved without the input only when its schema certainly excludes it", () => {
  it.each<[string, JsonObject]>([
    ["no additionalProperties", withA({})],
    ["additionalProperties: {}", withA({ additionalProperties: {} })],
    ["additionalProperties: true", withA({ additionalProperties: true })],
    ["required: [b]", withA({ required: ["b"] })],
    ["dependentRequired", withA({ dependentRequired: { a: ["b"] } })],
    // biome-ignore lint/suspicious/noThenProperty: a JSON Schema's if/then, not a thenable
    ["if/then", withA({ if: { required: ["a"] }, then: { properties: { b: {} } } })],
    ["dependentSchemas", withA({ dependentSchemas: { a: { properties: { b: {} } } } })],
    ["unevaluatedProperties schema", withA({ unevaluatedProperties: { type: "number" } })],
    // biome-ignore lint/suspicious/noThenProperty: a JSON Schema's if/then, not a thenable
    ["unevaluatedProperties: false beside if/then", withA({ unevaluatedProperties: false, then: {} })],
    ["patternProperties", withA({ patternProperties: { "^z": {} }, additionalProperties: false })],
    [
      "anyOf with one open member",
      {
        anyOf: [
          withA({ additionalProperties: false }),
          { properties: { b: {} }, additionalProperties: false },
        ],
      },
    ],
    ["allOf of open members", { allOf: [withA({}), { properties: { b: {} } }] }],
  ])("%s: may hold †input.b, no diagnostic", (_name, schema) => {
    expect(schemaExcludesPath(schema, ["b"])).toBe(false);
    const plan = { type: "plan", inputSchema: schema, plan: [{ _tool: "log", message: "†input.b" }] };
    expect(compile(plan, registry).diagnostics).toEqual([]);
  });

  it.each<[string, JsonObject, (string | number)[]]>([
    ["additionalProperties: false", withA({ additionalProperties: false }), ["b"]],
    ["unevaluatedProperties: false alone", withA({ unevaluatedProperties: false }), ["b"]],
    ["a false property", { properties: { b: false } }, ["b"]],
    [
      "an allOf member closed",
      { allOf: [withA({ additionalProperties: false }), { properties: { b: {} } }] },
      ["b"],
    ],
    [
      "every anyOf member closed",
      {
        anyOf: [
          withA({ additionalProperties: false }),
          { properties: { c: {} }, additionalProperties: false },
        ],
      },
      ["b"],
    ],
    ["closed one level down", { properties: { a: withA({ additionalProperties: false }) } }, ["a", "b"]],
    [
      "closed below a $ref",
      { $ref: "#/$defs/in", $defs: { in: withA({ additionalProperties: false }) } },
      ["b", "c"],
    ],
    [
      "closed below array items",
      { properties: { l: { items: withA({ additionalProperties: false }) } } },
      ["l", 0, "b"],
    ],
  ])("%s: certainly excluded, REF_UNRESOLVED", (_name, schema, path) => {
    expect(schemaExcludesPath(schema, path)).toBe(true);
  });

  it("a type without object excludes names, one without array excludes indexes (stop 28)", () => {
    expect(schemaExcludesPath({ properties: { a: { type: "string" } } }, ["a", "x"])).toBe(true);
    expect(schemaExcludesPath({ type: "array", items: { type: "object" } }, ["total"])).toBe(true);
    expect(schemaExcludesPath({ type: ["string", "null"] }, [0])).toBe(true);
    expect(schemaExcludesPath({ anyOf: [{ type: "string" }, { type: "number" }] }, ["x"])).toBe(true);
    // what a type admits is not judged further: an array's index, an object's name, no type at all
    expect(schemaExcludesPath({ type: "array", items: { type: "object" } }, [0, "total"])).toBe(false);
    expect(schemaExcludesPath({ type: ["object", "array"] }, ["x"])).toBe(false);
    expect(schemaExcludesPath({ additionalProperties: false }, [0])).toBe(false);
    // a non-negative index also reads the object key spelt the same (review of stop 28)
    expect(schemaExcludesPath({ type: "object", additionalProperties: {} }, [2024])).toBe(false);
    expect(schemaExcludesPath({ type: "object", properties: { "2024": {} } }, [2024])).toBe(false);
    expect(schemaExcludesPath({ type: "object" }, [-1])).toBe(true);
    expect(schemaExcludesPath({ type: "array" }, [-1])).toBe(false);
  });

  it("reads a record's year key below a zod object: no error (review of stop 28)", () => {
    const tools = createToolRegistry([
      ...exampleTools,
      defineTool({
        name: "stats",
        output: z.object({ byYear: z.record(z.string(), z.object({ total: z.number() })) }),
        run: () => ({ byYear: {} }),
      }),
    ]);
    const calls = [
      { _tool: "stats", _id: "s", _outputPath: "†state.x" },
      { _tool: "log", message: "total {†state.x.byYear.2024.total}" },
    ];
    expect(compile({ type: "plan", plan: calls }, tools).diagnostics).toEqual([]);
  });

  it("a name read below a writer whose output is a list is REF_UNRESOLVED, hinting at an item", () => {
    const tools = createToolRegistry([
      ...exampleTools,
      {
        name: "search",
        input: { type: "object", properties: {} },
        output: { type: "array", items: { type: "object", properties: { total: { type: "number" } } } },
        run: () => [],
      },
    ]);
    const read = (reference: string) =>
      compile(
        {
          type: "plan",
          plan: [
            { _tool: "search", _id: "s", _outputPath: "†state.orders" },
            { _tool: "log", message: reference },
          ],
        },
        tools,
      ).diagnostics;
    const [diagnostic] = read("†state.orders.total");
    expect(codes([diagnostic as Diagnostic])).toEqual([["REF_UNRESOLVED", "/plan/1/message"]]);
    expect(diagnostic?.hint).toMatch(
      /^†state\.orders is a list: read one of its items, e\.g\. "†state\.orders\[0\]\.total" \(call "s"/,
    );
    expect(read("total {†state.orders.0.total}")).toEqual([]);
    // no item is suggested that could not hold the rest either (a list of strings)
    const strings = createToolRegistry([
      ...exampleTools,
      { name: "tags", output: { type: "array", items: { type: "string" } }, run: () => [] },
    ]);
    const plan = [
      { _tool: "tags", _id: "t", _outputPath: "†state.tags" },
      { _tool: "log", message: "†state.tags.label" },
    ];
    const [tags] = compile({ type: "plan", plan }, strings).diagnostics;
    expect(tags?.code).toBe("REF_UNRESOLVED");
    expect(tags?.hint).not.toMatch(/is a list/);
    // a scalar input has no members either
    const inputSchema = { type: "object", properties: { a: { type: "string" } } };
    const scalar = compile(
      { type: "plan", inputSchema, plan: [{ _tool: "log", message: "†input.a.x" }] },
      registry,
    );
    expect(codes(scalar.diagnostics)).toEqual([["REF_UNRESOLVED", "/plan/0/message"]]);
  });

  it("the did-you-mean corrects the segment the schema excludes, not an allowed one above it", () => {
    const inputSchema = {
      properties: { a: {} },
      additionalProperties: { properties: { z: {} }, additionalProperties: false },
    };
    const plan = { type: "plan", inputSchema, plan: [{ _tool: "log", message: "†input.b.y" }] };
    const [diagnostic] = compile(plan, registry).diagnostics;
    expect(diagnostic?.code).toBe("REF_UNRESOLVED");
    expect(diagnostic?.hint).toMatch(/^did you mean "†input\.b\.z"\?/);
  });

  it("the certain case keeps its did-you-mean; the input itself still decides when given", () => {
    const inputSchema = withA({ properties: { name: {} }, additionalProperties: false });
    const plan = { type: "plan", inputSchema, plan: [{ _tool: "log", message: "†input.nmae" }] };
    const result = compile(plan, registry);
    expect(codes(result.diagnostics)).toEqual([["REF_UNRESOLVED", "/plan/0/message"]]);
    expect(result.diagnostics[0]?.hint).toMatch(/^did you mean "†input\.name"\?/);
    const open = { type: "plan", inputSchema: withA({}), plan: [{ _tool: "log", message: "†input.b" }] };
    expect(codes(compile(open, registry, { context: { input: { a: 1 } } }).diagnostics)).toEqual([
      ["REF_UNRESOLVED", "/plan/0/message"],
    ]);
  });

  it("judges each subschema once: allOf chains of $refs cost their size, not width^depth (an untrusted schema)", () => {
    // 3 refs per level, 24 levels: 3^24 visits without the memo (the test would time out), 24 with it
    const $defs: Record<string, unknown> = { d24: { properties: { a: {} }, additionalProperties: false } };
    for (let level = 23; level >= 0; level--) {
      const next = { $ref: `#/$defs/d${level + 1}` };
      $defs[`d${level}`] = { allOf: [{ properties: { z: {} } }, next, next, next] };
    }
    const schema = { $defs, $ref: "#/$defs/d0" };
    expect(schemaExcludesPath(schema, ["b"])).toBe(true);
    expect(schemaExcludesPath(schema, ["a"])).toBe(false);
  });

  it("a $ref cycle is not judged (unknown), and neither is a schema past the visit budget", () => {
    const cyclic = { $defs: { loop: { allOf: [{ $ref: "#/$defs/loop" }] } }, $ref: "#/$defs/loop" };
    expect(schemaExcludesPath(cyclic, ["b"])).toBe(false);
    const wide = {
      anyOf: Array.from({ length: 3_000 }, (_, i) => ({
        properties: { [`k${i}`]: {} },
        additionalProperties: false,
      })),
    };
    expect(schemaExcludesPath(wide, ["b"])).toBe(false);
  });
});
