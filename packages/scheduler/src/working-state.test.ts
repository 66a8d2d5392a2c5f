import {
  applyOutput,
  deepFreeze,
  type JsonObject,
  type JsonValue,
  OUTPUT_METHODS,
  type OutputMethod,
  valueAtPath,
} from "@obelisk/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WorkingContext } from "./working-context.js";
import { writeInPlace } from "./working-state.js";

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
        const owned: Record<string, JsonValue> = {};
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

describe("WorkingContext's state (the snapshot under an overlay of the keys a run writes)", () => {
  const initial = fc
    .dictionary(fc.constantFrom("a", "b", "c", "d", "0"), value, { maxKeys: 4 })
    .map((state) => deepFreeze(state) as JsonObject);
  const probe = fc.array(segment, { maxLength: 3 });

  it("reads and ends as applyOutput on the whole state would, for any snapshot and writes", () => {
    fc.assert(
      fc.property(
        initial,
        fc.array(write, { maxLength: 8 }),
        fc.array(probe, { maxLength: 6 }),
        (base, writes, probes) => {
          const before = JSON.stringify(base);
          const context = new WorkingContext({}, base);
          let expected: JsonValue = base;
          for (const { path, method, value: written } of writes) {
            const reference = path.map(String).join(".");
            const failure = context.write([{ path, method, value: written, reference }]);
            const applied = applyOutput(expected, path, method, written);
            expect(failure === undefined).toBe(applied.ok);
            if (applied.ok) expected = applied.value;
          }
          expect(context.state).toEqual(expected);
          expect(Object.keys(context.state)).toEqual(Object.keys(expected as JsonObject));
          for (const path of probes) expect(context.stateAt(path)).toEqual(valueAtPath(expected, path));
          expect(JSON.stringify(base)).toBe(before);
        },
      ),
    );
  });
});
