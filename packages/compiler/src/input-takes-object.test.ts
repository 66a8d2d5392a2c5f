import type { ObeliskError } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { thrownUsage } from "./__fixtures__/thrown-usage.js";
import { defineTool } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

const usageError = (tools: Parameters<typeof createToolRegistry>[0]): ObeliskError =>
  thrownUsage(() => createToolRegistry(tools), "the tools were registered");

describe("a tool whose input admits no object is refused at registration (USAGE)", () => {
  it("zod: z.string() and z.array(…) say what they take and how to name the value", () => {
    const text = usageError([defineTool({ name: "echo", input: z.string(), run: () => 1 })]);
    expect(text.code).toBe("USAGE");
    expect(text.message).toBe(
      'tool "echo": its input takes string, but a call\'s parameters are an object of named values',
    );
    expect(text.hint).toContain("z.object({ text: z.string() })");
    const list = usageError([defineTool({ name: "sum", input: z.array(z.number()), run: () => 1 })]);
    expect(list.message).toContain("its input takes array");
  });

  it("JSON Schema: a type list or a union without object", () => {
    const union = usageError([
      { name: "u", input: { anyOf: [{ type: "string" }, { type: "number" }] }, run: () => 1 },
    ]);
    expect(union.message).toContain("its input takes string or number");
    expect(usageError([{ name: "n", input: { type: ["null", "integer"] }, run: () => 1 }]).code).toBe(
      "USAGE",
    );
  });

  it("takes what may be an object: an object type, a type list with object, no type at all", () => {
    const registry = createToolRegistry([
      { name: "a", input: { type: ["object", "null"] }, run: () => 1 },
      { name: "b", input: {}, run: () => 1 },
      { name: "c", input: { properties: { q: { type: "string" } } }, run: () => 1 },
      defineTool({ name: "d", input: z.object({ q: z.string() }).nullable(), run: () => 1 }),
    ]);
    expect(["a", "b", "c", "d"].map((name) => registry.get(name)?.name)).toEqual(["a", "b", "c", "d"]);
  });
});
