import { describe, expect, it } from "vitest";
import { objectKeys } from "./object-keys.js";

describe("objectKeys", () => {
  it("lists an object that is not frozen afresh each time: its keys may change", () => {
    const value: Record<string, number> = Object.fromEntries(
      Array.from({ length: 2_000 }, (_, index) => [`k${index}`, index]),
    );
    expect(objectKeys(value)).toHaveLength(2_000);
    value.extra = 1;
    delete value.k0;
    const keys = objectKeys(value);
    expect(keys).toHaveLength(2_000);
    expect([keys[0], keys[keys.length - 1]]).toEqual(["k1", "extra"]);
  });

  it("keeps a large frozen object's list (the same array), and answers Object.keys's order", () => {
    const value = Object.freeze(
      Object.fromEntries(Array.from({ length: 2_000 }, (_, index) => [`${index}x`, index])),
    );
    const first = objectKeys(value);
    expect(objectKeys(value)).toBe(first);
    expect(first).toEqual(Object.keys(value));
  });
});
