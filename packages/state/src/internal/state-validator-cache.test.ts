import { ObeliskError } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { createStateValidator } from "./state-validator.js";

describe("createStateValidator compiles a schema once and shares it", () => {
  const schema = { type: "object", properties: { count: { type: "number" } } };

  it("the same schema (another object, keys in another order) gets the same validator", () => {
    const first = createStateValidator(schema);
    const again = createStateValidator({ properties: { count: { type: "number" } }, type: "object" });
    expect(again).toBe(first);
    expect(first.violation({ count: "x" })).toEqual(["count"]);
    expect(first.violation({ count: 1 })).toBeUndefined();
  });

  it("another schema gets its own", () => {
    const other = createStateValidator({ type: "object", properties: { count: { type: "string" } } });
    expect(other).not.toBe(createStateValidator(schema));
    expect(other.violation({ count: "x" })).toBeUndefined();
  });

  it("an async schema ($async: true) is USAGE: each check would answer a promise, taken as valid", () => {
    const make = () =>
      createStateValidator({ $async: true, type: "object", properties: { n: { type: "number" } } });
    expect(make).toThrow(
      expect.objectContaining({ code: "USAGE", message: expect.stringContaining("$async") }),
    );
  });

  it("an invalid schema is USAGE every time, and is not kept", () => {
    for (let attempt = 0; attempt < 2; attempt++)
      expect(() => createStateValidator({ type: "no-such-type" })).toThrow(ObeliskError);
  });

  it("keeps a bounded number: a schema used long ago is compiled again", () => {
    const first = createStateValidator({ const: "first" });
    for (let index = 0; index < 40; index++) createStateValidator({ const: index });
    expect(createStateValidator({ const: "first" })).not.toBe(first);
  });
});

describe("a shared validator is immune to its first caller's object", () => {
  it("changing the schema object after use changes no thread's validation", () => {
    const given = { type: "object", properties: { level: { type: "number" } } };
    const first = createStateValidator(given);
    (given.properties.level as { type: string }).type = "string";
    const again = createStateValidator({ type: "object", properties: { level: { type: "number" } } });
    expect(again).toBe(first);
    expect(again.violation({ level: 1 })).toBeUndefined();
    expect(again.violation({ level: "x" })).toEqual(["level"]);
    // a write's check compiles the schema at its path on first use, after the change
    const write = (value: unknown) => [
      { reference: "†state.level", path: ["level"], method: "set" as const, value: value as never },
    ];
    expect(again.verify(again.plan({}, write(1)), { level: 1 })).toBeUndefined();
    expect(again.verify(again.plan({}, write("x")), { level: "x" })).toBeDefined();
  });
});
