import {
  applyOutput,
  deepFreeze,
  type JsonObject,
  type JsonValue,
  OUTPUT_METHODS,
  type OutputMethod,
} from "@obelisk/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ownedRoot, writeInPlace } from "./working-state.js";

const segment = fc.oneof(fc.constantFrom("a", "b", "c"), fc.integer({ min: 0, max: 2 }));
// Written values are frozen, as tool outputs are (the working state never mutates them).
const value: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.integer(),
  fc.constantFrom(null, "x"),
  fc.integer().map((n) => deepFreeze([n])),
  fc.integer().map((n) => deepFreeze({ k: n })),
);
const write = fc.record({
  path: fc.array(segment, { minLength: 1, maxLength: 3 }),
  method: fc.constantFrom(...(Object.keys(OUTPUT_METHODS) as OutputMethod[])),
  value,
});

describe("writeInPlace", () => {
  it("ends with the state applyOutput builds, and fails where it fails, for any sequence of writes", () => {
    fc.assert(
      fc.property(fc.array(write, { maxLength: 8 }), (writes) => {
        const owned = ownedRoot({});
        let expected: JsonValue = {};
        for (const { path, method, value: written } of writes) {
          const failure = writeInPlace(owned, path, method, written);
          const applied = applyOutput(expected, path, method, written);
          expect(failure === undefined).toBe(applied.ok);
          if (applied.ok) expected = applied.value;
        }
        expect(owned).toEqual(expected as JsonObject);
      }),
    );
  });
});
