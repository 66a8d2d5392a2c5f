import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compile } from "./compile.js";
import { planJsonSchema } from "./plan-json-schema.js";
import { defineTool } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

type Node = { name: string; children?: Node[] | undefined };
const node: z.ZodType<Node> = z.lazy(() =>
  z.object({ name: z.string(), children: z.array(node).optional() }),
);

const search = defineTool({
  name: "search",
  input: z.object({
    query: z.string(),
    filters: z
      .object({ status: z.enum(["open", "closed"]).optional(), limit: z.number().optional() })
      .optional(),
    list: z.array(z.object({ amount: z.number() })).optional(),
    pair: z.tuple([z.object({ amount: z.number() })]).optional(),
    byName: z.record(z.string(), z.object({ amount: z.number() })).optional(),
    maybe: z.object({ amount: z.number() }).nullable().default(null),
    tree: node.optional(),
    either: z.union([z.object({ amount: z.number() }), z.object({ label: z.string() })]).optional(),
    both: z.intersection(z.object({ amount: z.number() }), z.object({ label: z.string() })).optional(),
    loose: z.looseObject({ amount: z.number() }).optional(),
  }),
  run: (args) => args,
});
const tools = createToolRegistry([search]);

const unknownAt = (call: Record<string, unknown>) =>
  compile([{ _tool: "search", query: "q", ...call }], tools, { context: { state: {} } }).diagnostics.map(
    (d) => ({ code: d.code, pointer: d.pointer, hint: d.hint }),
  );

describe("a key a nested stripping zod object does not declare (decision 0023 §1)", () => {
  it("is PARAM_UNKNOWN at the key, with the nearest declared name", () => {
    expect(unknownAt({ filters: { stauts: "open", limt: 2 } })).toEqual([
      { code: "PARAM_UNKNOWN", pointer: "/0/filters/stauts", hint: 'did you mean "status"?' },
      { code: "PARAM_UNKNOWN", pointer: "/0/filters/limt", hint: 'did you mean "limit"?' },
    ]);
  });

  it("is found through array and tuple items, record values, nullable/default and recursive schemas", () => {
    expect(unknownAt({ list: [{ amount: 1 }, { amount: 2, amout: 3 }] })).toEqual([
      { code: "PARAM_UNKNOWN", pointer: "/0/list/1/amout", hint: 'did you mean "amount"?' },
    ]);
    expect(unknownAt({ pair: [{ amount: 1, amout: 3 }] }).map((d) => d.pointer)).toEqual(["/0/pair/0/amout"]);
    expect(unknownAt({ byName: { a: { amount: 1, amout: 3 } } }).map((d) => d.pointer)).toEqual([
      "/0/byName/a/amout",
    ]);
    expect(unknownAt({ maybe: { amount: 1, amout: 3 } }).map((d) => `${d.code} ${d.pointer}`)).toEqual([
      "PARAM_UNKNOWN /0/maybe/amout",
    ]);
    expect(unknownAt({ tree: { name: "r", children: [{ name: "c", chilren: [] }] } })).toEqual([
      {
        code: "PARAM_UNKNOWN",
        pointer: "/0/tree/children/0/chilren",
        hint: 'did you mean "children"?',
      },
    ]);
  });

  it("takes references: a reference's value is no literal, and a misspelt key beside it is still reported", () => {
    expect(unknownAt({ filters: "†state.filters" }).filter((d) => d.code.startsWith("PARAM"))).toEqual([]);
    expect(
      unknownAt({ filters: { status: "†state.s", limt: "†state.l" } }).map((d) => `${d.code} ${d.pointer}`),
    ).toContain("PARAM_UNKNOWN /0/filters/limt");
    expect(
      unknownAt({ filters: { status: "{†state.s}", limit: "†state.l" } }).map((d) => d.code),
    ).not.toContain("PARAM_UNKNOWN");
  });

  it("is not judged in a union or intersection member (which keys zod keeps depends on the value), nor in a loose object", () => {
    expect(unknownAt({ either: { amount: 1, label: "x" } })).toEqual([]);
    expect(unknownAt({ both: { amount: 1, label: "x" } })).toEqual([]);
    expect(unknownAt({ loose: { amount: 1, other: 2 } })).toEqual([]);
  });

  it("is refused by the plan JSON Schema too, which still takes the declared keys", () => {
    const validate = new Ajv2020({ strict: false }).compile(planJsonSchema(tools));
    const plan = (call: Record<string, unknown>) => ({ plan: [{ _tool: "search", query: "q", ...call }] });
    expect(validate(plan({ filters: { stauts: "open" } }))).toBe(false);
    expect(validate(plan({ list: [{ amount: 1, amout: 2 }] }))).toBe(false);
    expect(validate(plan({ filters: { status: "open", limit: 2 }, list: [{ amount: "†state.n" }] }))).toBe(
      true,
    );
    expect(validate(plan({ filters: "†state.filters", either: { amount: 1, label: "x" } }))).toBe(true);
  });

  it("leaves the tool's inputSchema as zod writes it (open objects)", () => {
    const properties = tools.get("search")?.inputSchema.properties as Record<string, Record<string, unknown>>;
    const filters = properties.filters;
    expect(filters?.additionalProperties).toBeUndefined();
  });
});
