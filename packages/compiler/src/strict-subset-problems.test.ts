import { describe, expect, it } from "vitest";
import { strictSubsetProblems } from "./strict-subset-problems.js";

const closed = (properties: Record<string, unknown>) => ({
  type: "object",
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

describe("strictSubsetProblems: what OpenAI's strict mode would refuse, with where", () => {
  it("a schema within the subset has none", () => {
    const schema = {
      ...closed({
        q: { type: "string", pattern: "^a" },
        n: { anyOf: [{ type: "integer" }, { type: "null" }] },
      }),
      $defs: { item: closed({ id: { type: "string", format: "uuid" } }) },
    };
    expect(strictSubsetProblems(schema)).toEqual([]);
  });

  it.each([
    [
      { type: "object", properties: { q: { type: "string" } }, additionalProperties: false },
      "required is not every property",
    ],
    [
      { ...closed({ q: { type: "string" } }), additionalProperties: true },
      "additionalProperties is not false",
    ],
    [closed({ q: { type: "string", not: { const: "x" } } }), "/properties/q: keyword not"],
    [closed({ q: { type: "string", pattern: "^(?!_)" } }), "/properties/q: pattern"],
    [closed({ q: { type: ["string", "null"] } }), "/properties/q: type"],
    [closed({ q: { $ref: "#/$defs/missing" } }), "not in $defs"],
    [{ anyOf: [closed({}), closed({})] }, "root: not an object schema"],
  ])("%j: %s", (schema, problem) => {
    expect(strictSubsetProblems(schema).join("\n")).toContain(problem);
  });
});
