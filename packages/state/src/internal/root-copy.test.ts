import type { JsonObject } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { copyRoot } from "./root-copy.js";

describe("copyRoot", () => {
  it("copies a large frozen root's own keys, in order, into an object the commit owns", () => {
    const root: Record<string, JsonObject[string]> = { 2: "two", b: [1], a: { x: 1 } };
    for (let index = 0; index < 3_000; index++) root[`k${index}`] = index;
    Object.freeze(root);
    const copy = copyRoot(root);
    expect(copy).not.toBe(root);
    expect(Object.isFrozen(copy)).toBe(false);
    expect(Object.keys(copy)).toEqual(Object.keys(root));
    expect(copy).toEqual(root);
    expect(copy.a).toBe(root.a);
  });

  it("keeps a __proto__ key as own data and the copy's prototype as it was", () => {
    const root = Object.freeze(JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as JsonObject);
    const copy = copyRoot(root);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(copy, "__proto__")?.value).toEqual({ polluted: true });
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
