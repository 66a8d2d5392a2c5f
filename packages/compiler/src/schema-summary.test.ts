import type { JsonValue } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { schemaSummary } from "./schema-summary.js";

describe("schemaSummary", () => {
  it.each([
    [{ type: "string" }, "string"],
    [{ type: "integer" }, "integer"],
    [{ type: ["string", "null"] }, "string | null"],
    [{ enum: ["a", 1] }, '"a" | 1'],
    [{ const: true }, "true"],
    [{ type: "array", items: { type: "number" } }, "number[]"],
    [{ type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } }, "(string | number)[]"],
    [
      { type: "object", properties: { a: { type: "string" }, "b c": { type: "number" } }, required: ["a"] },
      '{a: string, "b c"?: number}',
    ],
    [{ type: "object" }, "object"],
    [{ $ref: "#/$defs/x" }, "any"],
    [true, "any"],
    [false, "never"],
    [
      { oneOf: [{ type: "object", properties: { ok: { const: true } } }, { type: "null" }] },
      "{ok?: true} | null",
    ],
  ])("%j → %s", (schema, summary) => {
    expect(schemaSummary(schema)).toBe(summary);
  });

  it("stops nesting at four levels and cuts a long summary at 400 characters", () => {
    const deep = (n: number): JsonValue =>
      n === 0 ? { type: "string" } : { type: "object", properties: { x: deep(n - 1) }, required: ["x"] };
    expect(schemaSummary(deep(6))).toBe("{x: {x: {x: {x: {…}}}}}");
    const wide = {
      type: "object",
      properties: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, {}])),
    };
    const text = schemaSummary(wide);
    expect(text).toHaveLength(400);
    expect(text.endsWith("…")).toBe(true);
  });
});
