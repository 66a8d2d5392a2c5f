import { describe, expect, it, vi } from "vitest";
import { deepFreeze, isKnownDeeplyFrozen } from "./value-deep-freeze.js";
import { toJsonValue } from "./value-to-json-value.js";

describe("deepFreeze of toJsonValue's remembered copies", () => {
  it("returns a remembered copy at once: every node was frozen as it was made", () => {
    // a satisfied call's recorded result is the very copy the state holds: deepFreeze walked its 100k objects
    const rows = Array.from({ length: 2_000 }, (_, i) => ({ i, tags: ["a", "b"] }));
    const copy = toJsonValue({ rows }, { remember: true });
    if (!copy.ok) throw new Error(copy.message);
    expect(isKnownDeeplyFrozen(copy.value as object)).toBe(true);
    const ownKeys = vi.spyOn(Reflect, "ownKeys");
    const freeze = vi.spyOn(Object, "freeze");
    try {
      expect(deepFreeze(copy.value)).toBe(copy.value);
      expect(ownKeys).not.toHaveBeenCalled();
      expect(freeze).not.toHaveBeenCalled();
    } finally {
      ownKeys.mockRestore();
      freeze.mockRestore();
    }
  });

  it("leaves a copy made without remember, and a value that is not a copy, to the walk", () => {
    const copy = toJsonValue({ a: [1] });
    if (!copy.ok) throw new Error(copy.message);
    expect(isKnownDeeplyFrozen(copy.value as object)).toBe(false);
    const shallow = Object.freeze({ inner: { n: 1 } });
    expect(isKnownDeeplyFrozen(shallow)).toBe(false);
    deepFreeze(shallow);
    expect(Object.isFrozen(shallow.inner)).toBe(true);
  });
});
