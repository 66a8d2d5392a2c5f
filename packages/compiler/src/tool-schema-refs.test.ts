import { describe, expect, it } from "vitest";
import { thrownUsage } from "./__fixtures__/thrown-usage.js";
import { compile } from "./compile.js";
import { planJsonSchema } from "./plan-json-schema.js";
import { createToolRegistry } from "./tool-registry.js";

const tool = (input: object, output?: object) => ({
  name: "t",
  input,
  ...(output === undefined ? {} : { output }),
  run: (args: unknown) => args,
});
const registered = (input: object, output?: object) => () => createToolRegistry([tool(input, output)]);

describe("a tool schema's $ref: a loop or a reference the engine cannot resolve is USAGE at registration (decision 0006)", () => {
  it.each<[string, object, string]>([
    ["the root refers to itself", { $ref: "#" }, 'the $ref "#" at its root'],
    ["an allOf refers to the root", { type: "object", allOf: [{ $ref: "#" }] }, 'the $ref "#" at /allOf/0'],
    [
      "two definitions refer to each other",
      {
        type: "object",
        properties: { a: { $ref: "#/$defs/x" } },
        $defs: { x: { $ref: "#/$defs/y" }, y: { $ref: "#/$defs/x" } },
      },
      'the $ref "#/$defs/x" at /$defs/y',
    ],
    [
      "an anchor refers to itself through anyOf",
      {
        type: "object",
        properties: { a: { $ref: "#a" } },
        $defs: { a: { $anchor: "a", anyOf: [{ type: "string" }, { $ref: "#a" }] } },
      },
      'the $ref "#a" at /$defs/a/anyOf/1',
    ],
  ])("%s: refused, naming the $ref, with a hint", (_label, input, where) => {
    const error = thrownUsage(registered(input), "the tool was registered");
    expect(error.message).toBe(
      `tool "t" input schema: ${where} leads back to itself without going into the value, so checking any value would never end`,
    );
    expect(error.hint).toMatch(/"child": \{ "\$ref": "#" \}/);
  });

  it("an output schema's loop too", () => {
    const error = thrownUsage(registered({ type: "object" }, { $ref: "#" }), "the tool was registered");
    expect(error.message).toMatch(/^tool "t" output schema: the \$ref "#" at its root leads back/);
  });

  it.each<[string, object]>([
    ["another document", { type: "object", properties: { a: { $ref: "http://example.com/x.json" } } }],
    ["a missing definition", { type: "object", properties: { a: { $ref: "#/$defs/nope" } } }],
  ])(
    "a $ref to %s: refused at registration with a hint, not PARAM_INVALID in every plan",
    (_label, input) => {
      const error = thrownUsage(registered(input), "the tool was registered");
      expect(error.message).toMatch(/^tool "t" input schema cannot be compiled: can't resolve reference/);
      expect(error.hint).toMatch(/#\/\$defs\/<name>/);
    },
  );

  it("a recursive schema whose $ref steps into the value is kept: calls are checked, the plan JSON Schema holds it", () => {
    const input = {
      type: "object",
      properties: { name: { type: "string" }, child: { $ref: "#" } },
      required: ["name"],
      $defs: { unused: { $ref: "#/$defs/unused2" }, unused2: { type: "string" } },
    };
    const registry = createToolRegistry([tool(input)]);
    const good = compile([{ _tool: "t", name: "a", child: { name: "b", child: { name: "c" } } }], registry);
    expect(good.diagnostics).toEqual([]);
    const bad = compile([{ _tool: "t", name: "a", child: { child: { name: "c" } } }], registry);
    expect(bad.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["PARAM_MISSING", "/0/child"]]);
    expect(JSON.stringify(planJsonSchema(registry))).toContain('"child":{"anyOf":[{"$ref":"#/$defs/t"}');
  });

  it("a $ref inside const or enum is data, not a reference", () => {
    expect(() =>
      createToolRegistry([tool({ type: "object", properties: { a: { const: { $ref: "#" } } } })]),
    ).not.toThrow();
  });
});
