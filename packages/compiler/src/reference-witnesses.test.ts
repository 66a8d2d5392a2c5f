import type { JsonObject, PathSegment } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import type { ParamReference } from "./compiled-plan.js";
import { paramsForSchemaCheck } from "./reference-witnesses.js";

const at = (...location: PathSegment[]): ParamReference =>
  ({ location, pointer: "", value: { type: "reference" } }) as unknown as ParamReference;

const schema: JsonObject = {
  type: "object",
  properties: {
    inputs: { type: "array", items: { type: "number" } },
    name: { type: "string", description: "kept" },
    tuple: { type: "array", prefixItems: [{ type: "boolean" }, { type: "number", minimum: 3 }] },
    deep: { type: "array", items: { type: "object", properties: { v: { type: ["null", "number"] } } } },
  },
  additionalProperties: { type: "integer" },
};

describe("paramsForSchemaCheck", () => {
  it("puts a value the place accepts where a reference stands, in a copy, leaving the rest as it was", () => {
    const inputs = ["†state.a", 2, "†state.b"];
    const deep = [{ v: "†state.c" }, { v: 1 }];
    const params = { inputs, name: "†state.n", tuple: ["†state.t", "†state.u"], deep, extra: "†state.e" };
    const checked = paramsForSchemaCheck(schema, params, [
      at("inputs", 0),
      at("inputs", 2),
      at("name"),
      at("tuple", 0),
      at("tuple", 1),
      at("deep", 0, "v"),
      at("extra"),
    ]);
    expect(checked).toEqual({
      inputs: [0, 2, 0],
      name: "†state.n",
      tuple: [false, "†state.u"],
      deep: [{ v: null }, { v: 1 }],
      extra: 0,
    });
    expect(params.inputs).toBe(inputs);
    expect(inputs).toEqual(["†state.a", 2, "†state.b"]);
    expect(deep[0]).toEqual({ v: "†state.c" });
    expect((checked.deep as JsonObject[])[1]).toBe(deep[1]);
  });

  it("checks the parameters as given when a keyword could see a value elsewhere, or nothing is replaced", () => {
    const params = { inputs: ["†state.a"] };
    // biome-ignore lint/suspicious/noThenProperty: a JSON Schema's if/then, not a thenable
    const conditional = { ...schema, if: { required: ["x"] }, then: { required: ["y"] } };
    expect(paramsForSchemaCheck(conditional, params, [at("inputs", 0)])).toBe(params);
    const unique = { type: "object", properties: { inputs: { type: "array", uniqueItems: true } } };
    expect(paramsForSchemaCheck(unique, params, [at("inputs", 0)])).toBe(params);
    const named = { name: "†state.n" };
    expect(paramsForSchemaCheck(schema, named, [at("name")])).toBe(named);
    expect(paramsForSchemaCheck(schema, params, [])).toBe(params);
  });
});
