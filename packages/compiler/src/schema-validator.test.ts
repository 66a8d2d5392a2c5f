import type { JsonObject } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { createSchemaCompiler } from "./schema-validator.js";

const person: JsonObject = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };

describe("createSchemaCompiler", () => {
  it("gives every compiler the same verdicts for the same schema text", () => {
    const first = createSchemaCompiler().lazyCheck(person, "a");
    const second = createSchemaCompiler().lazyCheck(structuredClone(person), "b");
    for (const check of [first, second]) {
      expect(check({ name: "Ada" })).toEqual([]);
      expect(check({})).toEqual([expect.objectContaining({ keyword: "required", instancePath: "" })]);
    }
  });

  it("keeps schemas that differ apart, even when they differ only deep inside", () => {
    const strict = createSchemaCompiler().lazyCheck({ ...person, additionalProperties: false }, "strict");
    const loose = createSchemaCompiler().lazyCheck(person, "loose");
    expect(strict({ name: "Ada", age: 3 })).toHaveLength(1);
    expect(loose({ name: "Ada", age: 3 })).toEqual([]);
  });

  it("compiles schemas with an $id in each compiler's own instance: two engines may use the same $id", () => {
    const withId = (type: string): JsonObject => ({ $id: "https://example.com/thing", type });
    const asString = createSchemaCompiler().lazyCheck(withId("string"), "s");
    const asNumber = createSchemaCompiler().lazyCheck(withId("number"), "n");
    expect(asString("x")).toEqual([]);
    expect(asNumber(1)).toEqual([]);
    expect(asNumber("x")).toEqual([expect.objectContaining({ keyword: "type" })]);
  });

  it("resolves a $ref to another schema of the same compiler by its $id", () => {
    const compiler = createSchemaCompiler();
    const id = compiler.lazyCheck({ $id: "https://example.com/id", type: "integer" }, "id");
    expect(id(1)).toEqual([]);
    const holder = compiler.lazyCheck(
      { type: "object", properties: { id: { $ref: "https://example.com/id" } } },
      "h",
    );
    expect(holder({ id: 2 })).toEqual([]);
    expect(holder({ id: "x" })).toEqual([expect.objectContaining({ instancePath: "/id" })]);
  });

  it("refuses a schema that is not one (USAGE), before anything is compiled", () => {
    expect(() => createSchemaCompiler().assertValid({ type: 3 } as unknown as JsonObject, "bad")).toThrow(
      expect.objectContaining({ code: "USAGE" }),
    );
  });

  it("a schema the meta-check cannot even walk (a cycle) is USAGE with the reason and a hint", () => {
    const cyclic: Record<string, unknown> = { type: "object", properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    expect(() => createSchemaCompiler().assertValid(cyclic as JsonObject, "tool input")).toThrow(
      expect.objectContaining({
        code: "USAGE",
        message: expect.stringMatching(/^tool input is not a valid JSON Schema: ./),
        hint: expect.stringContaining('no cycles (use "$ref"'),
      }),
    );
  });
});
