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
import { describe, expect, it, vi } from "vitest";
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

  it("merges and assigns into an object it owns in place, after copying a frozen one once", () => {
    const frozen = deepFreeze({ a: { x: 1 }, b: 2 });
    const root: Record<string, JsonValue> = { m: frozen };
    expect(writeInPlace(root, ["m"], "merge", deepFreeze({ a: { y: 2 } }))).toBeUndefined();
    const copy = root.m;
    expect(copy).not.toBe(frozen);
    expect(frozen).toEqual({ a: { x: 1 }, b: 2 });
    expect(writeInPlace(root, ["m"], "assign", deepFreeze({ c: 3 }))).toBeUndefined();
    expect(writeInPlace(root, ["m"], "merge", deepFreeze({ a: { z: 3 } }))).toBeUndefined();
    // n merges into one object cost O(n), not a copy of the object each (8,000 merges took 45 s)
    expect(root.m).toBe(copy);
    expect(root.m).toEqual({ a: { x: 1, y: 2, z: 3 }, b: 2, c: 3 });
  });

  it("copies an object a reader froze before changing it (values handed to tools never change)", () => {
    const root: Record<string, JsonValue> = {};
    writeInPlace(root, ["m"], "merge", deepFreeze({ a: 1 }));
    writeInPlace(root, ["m"], "merge", deepFreeze({ b: 2 }));
    const read = deepFreeze(root.m as JsonObject);
    expect(writeInPlace(root, ["m"], "merge", deepFreeze({ c: 3 }))).toBeUndefined();
    expect(read).toEqual({ a: 1, b: 2 });
    expect(root.m).toEqual({ a: 1, b: 2, c: 3 });
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

describe("appends onto the snapshot's lists", () => {
  const write = (path: (string | number)[], value: JsonValue, method: OutputMethod = "push") => ({
    path,
    method,
    value,
    reference: path.map(String).join("."),
  });

  it("copy nothing until the list is read: a run's pushes onto a long list cost what they append", () => {
    const list = deepFreeze(Array.from({ length: 5_000 }, (_, id) => ({ id })));
    const context = new WorkingContext({}, deepFreeze({ log: list, doc: { list } }) as JsonObject);
    const concat = vi.spyOn(Array.prototype, "concat");
    const slice = vi.spyOn(Array.prototype, "slice");
    try {
      for (let n = 0; n < 3; n++) {
        expect(context.write([write(["log"], deepFreeze({ n }))])).toBeUndefined();
        expect(context.write([write(["doc", "list"], deepFreeze([n, n]), "concat")])).toBeUndefined();
      }
      // each write copied the 5,000 items of the list it appended to
      const copies = [...concat.mock.contexts, ...slice.mock.contexts].filter(
        (array) => Array.isArray(array) && array.length >= 5_000,
      );
      expect(copies).toEqual([]);
    } finally {
      concat.mockRestore();
      slice.mockRestore();
    }
    const log = context.stateAt(["log"]) as JsonValue[];
    expect(log.length).toBe(5_003);
    expect(log.slice(-3)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
    expect(context.stateAt(["doc", "list", -1])).toBe(2);
    expect((context.state.doc as { list: JsonValue[] }).list.length).toBe(5_006);
    expect(list.length).toBe(5_000);
  });

  it("read and end as applyOutput on the whole state would, with reads between the writes", () => {
    const list = fc.array(value, { maxLength: 3 }).map((items) => deepFreeze(items));
    const initial = fc
      .record({ a: list, b: fc.oneof(list, value), c: fc.record({ a: list, "0": list }) })
      .map((state) => deepFreeze(state) as JsonObject);
    const listWrite = fc.record({
      path: fc.oneof(
        fc.constantFrom<(string | number)[]>(["a"], ["b"], ["c", "a"], ["c", "0"], ["c", 0]),
        fc.array(segment, { minLength: 1, maxLength: 3 }),
      ),
      method: fc.constantFrom<OutputMethod>("push", "concat", "push", "set", "merge"),
      value,
    });
    const step = fc.oneof(
      { arbitrary: listWrite, weight: 3 },
      { arbitrary: fc.array(segment, { maxLength: 3 }).map((path) => ({ read: path })), weight: 1 },
    );
    fc.assert(
      fc.property(initial, fc.array(step, { maxLength: 12 }), (base, steps) => {
        const before = JSON.stringify(base);
        const context = new WorkingContext({}, base);
        let expected: JsonValue = base;
        for (const item of steps) {
          if ("read" in item) {
            expect(context.stateAt(item.read)).toEqual(valueAtPath(expected, item.read));
            continue;
          }
          const { path, method, value: written } = item;
          const failure = context.write([write(path, written, method)]);
          const applied = applyOutput(expected, path, method, written);
          expect(failure === undefined).toBe(applied.ok);
          if (applied.ok) expected = applied.value;
        }
        expect(context.state).toEqual(expected);
        expect(Object.keys(context.state)).toEqual(Object.keys(expected as JsonObject));
        expect(JSON.stringify(base)).toBe(before);
      }),
      { numRuns: 300 },
    );
  });
});
