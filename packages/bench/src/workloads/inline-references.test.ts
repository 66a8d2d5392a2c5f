import { describe, expect, it } from "vitest";
import { inlineReferences } from "./inline-references.js";

describe("inlineReferences", () => {
  const context = { input: { n: 3, name: "x" }, state: { sales: { all: [{ a: 1 }] } } };

  it("replaces whole-value references with the value, keeping its JSON type", () => {
    expect(inlineReferences({ records: "†state.sales.all", count: "†input.n" }, context)).toEqual({
      records: [{ a: 1 }],
      count: 3,
    });
  });

  it("fills templates: strings as-is, other values as JSON; leaves literals alone", () => {
    expect(inlineReferences(["{†input.name} has {†input.n}", "plain", 4], context)).toEqual([
      "x has 3",
      "plain",
      4,
    ]);
  });
});
