import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { applyOutput } from "./apply-output.js";
import { applyOutputInPlace } from "./apply-output-in-place.js";
import type { JsonValue } from "./json-value.js";
import { OUTPUT_METHODS, type OutputMethod } from "./output-methods.js";
import type { PathSegment } from "./path.js";
import { deepFreeze } from "./value-deep-freeze.js";
import { WriteJournal } from "./write-journal.js";

const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
const methodArb = fc.constantFrom(...(Object.keys(OUTPUT_METHODS) as OutputMethod[]));
const keyArb = fc.constantFrom("a", "b", "c", "0", "__proto__", "constructor", "x/y");
const pathArb = fc.array(fc.oneof(keyArb, fc.integer({ min: -1, max: 3 })), { maxLength: 4 });
const hostile = [
  '{"__proto__": {"polluted": true}}',
  '{"a": {"__proto__": {"polluted": true}}}',
  '[{"__proto__": {"polluted": true}}]',
].map((text) => JSON.parse(text) as JsonValue);
const valueArb = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<JsonValue>,
  fc.constantFrom(...hostile),
  fc.dictionary(fc.constantFrom("a", "b", "c"), fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>),
);
const writeArb = fc.record({ path: pathArb, method: methodArb, value: valueArb });

/** A JSON copy: own `__proto__` keys stay data (JSON.parse defines them). */
const clone = (value: JsonValue): JsonValue => JSON.parse(JSON.stringify(value)) as JsonValue;
const text = (value: JsonValue | undefined): string | undefined => JSON.stringify(value);

/** An owned tree whose top-level members are frozen (shared) every other key, like a store's working tree. */
function mixedTree(root: JsonValue): JsonValue {
  const tree = clone(root);
  if (typeof tree !== "object" || tree === null) return tree;
  Object.values(tree).forEach((child, index) => {
    if (index % 2 === 0) deepFreeze(child);
  });
  return tree;
}

function assertPrototypesClean(): void {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
}

describe("applyOutputInPlace", () => {
  it("gives the same results and failure messages as applyOutput on random writes", () => {
    const rootArb = fc.oneof(fc.constant({}), valueArb, fc.constant(undefined));
    fc.assert(
      fc.property(rootArb, fc.array(writeArb, { maxLength: 6 }), (root, writes) => {
        let expected: JsonValue | undefined = root === undefined ? undefined : deepFreeze(clone(root));
        let actual: JsonValue | undefined = root === undefined ? undefined : mixedTree(root);
        for (const write of writes) {
          const value = deepFreeze(clone(write.value));
          const path = write.path as PathSegment[];
          const immutable = applyOutput(expected, path, write.method, value);
          const inPlace = applyOutputInPlace(actual, path, write.method, value);
          expect(inPlace.ok).toBe(immutable.ok);
          if (!immutable.ok || !inPlace.ok) {
            expect(inPlace).toEqual(immutable);
            continue;
          }
          expected = deepFreeze(immutable.value);
          actual = inPlace.value;
          expect(text(actual)).toBe(text(expected));
        }
        assertPrototypesClean();
      }),
      { numRuns: 1500 },
    );
  });

  it("changes an owned tree in place and returns the same root", () => {
    const root: Record<string, JsonValue> = { a: { b: [1] } };
    const inner = root.a;
    const result = applyOutputInPlace(root, ["a", "b"], "push", 2);
    expect(result).toEqual({ ok: true, value: root });
    expect(root.a).toBe(inner);
    expect(root).toEqual({ a: { b: [1, 2] } });
  });

  it("copies frozen containers before changing them and leaves them intact", () => {
    const shared = deepFreeze({ b: { c: 1 }, d: [1] });
    const root: Record<string, JsonValue> = { a: shared };
    expect(applyOutputInPlace(root, ["a", "b", "e"], "set", 2).ok).toBe(true);
    expect(applyOutputInPlace(root, ["a", "d"], "push", 2).ok).toBe(true);
    expect(shared).toEqual({ b: { c: 1 }, d: [1] });
    expect(root).toEqual({ a: { b: { c: 1, e: 2 }, d: [1, 2] } });
    const frozenRoot = deepFreeze({ k: 1 });
    const replaced = applyOutputInPlace(frozenRoot, ["k"], "set", 2);
    expect(replaced).toEqual({ ok: true, value: { k: 2 } });
    expect(replaced.ok && replaced.value).not.toBe(frozenRoot);
  });

  it("tells owned from frozen roots without Object.isFrozen when it can (it walks a large root's keys)", () => {
    const isFrozen = vi.spyOn(Object, "isFrozen");
    try {
      const frozenRoot = deepFreeze({ k: 1, l: [1] });
      const owned: Record<string, JsonValue> = { k: 1 };
      expect(applyOutputInPlace(frozenRoot, ["k"], "set", 2)).toEqual({ ok: true, value: { k: 2, l: [1] } });
      expect(applyOutputInPlace(owned, ["k"], "set", 2)).toEqual({ ok: true, value: owned });
      const askedOf = isFrozen.mock.calls.map(([value]) => value);
      expect(askedOf).not.toContain(frozenRoot);
      expect(askedOf).not.toContain(owned);
      // frozen without deepFreeze: still asked, still copied
      const plainFrozen = Object.freeze({ k: 1 });
      const copied = applyOutputInPlace(plainFrozen, ["k"], "set", 2);
      expect(copied.ok && copied.value).not.toBe(plainFrozen);
      expect(plainFrozen).toEqual({ k: 1 });
    } finally {
      isFrozen.mockRestore();
    }
  });

  it("changes nothing when a write fails", () => {
    const root = { a: { b: 1 }, list: [1] } as Record<string, JsonValue>;
    const before = text(root);
    for (const [path, method, value] of [
      [["a", "b", "c"], "set", 1],
      [["list", 5], "set", 1],
      [["a"], "push", 1],
      [["a"], "concat", 1],
      [["a", "b"], "merge", { x: 1 }],
      [["a", "__proto__"], "set", 1],
    ] as const) {
      expect(applyOutputInPlace(root, path, method, value).ok).toBe(false);
      expect(text(root)).toBe(before);
    }
  });

  it("rolls back every journaled write of a multi-write commit", () => {
    fc.assert(
      fc.property(valueArb, fc.array(writeArb, { minLength: 1, maxLength: 6 }), (start, writes) => {
        const root = mixedTree({ start, a: { b: [1], c: { a: 1 } }, b: [0], c: { c: [1, 2] } });
        const before = text(root);
        const journal = new WriteJournal();
        let current: JsonValue | undefined = root;
        for (const write of writes) {
          const applied = applyOutputInPlace(
            current,
            write.path as PathSegment[],
            write.method,
            deepFreeze(clone(write.value)),
            journal,
          );
          if (applied.ok) current = applied.value;
        }
        journal.rollback();
        expect(text(root)).toBe(before);
        expect(journal.size).toBe(0);
        assertPrototypesClean();
      }),
      { numRuns: 1000 },
    );
  });

  it("keeps __proto__ keys as own data and never reaches a prototype", () => {
    const root: Record<string, JsonValue> = {};
    const value = deepFreeze(clone(JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as JsonValue));
    expect(applyOutputInPlace(root, ["x"], "set", value).ok).toBe(true);
    expect(applyOutputInPlace(root, ["x"], "assign", value).ok).toBe(true);
    expect(applyOutputInPlace(root, ["x"], "merge", value).ok).toBe(true);
    expect(applyOutputInPlace(root, ["__proto__", "polluted"], "set", true).ok).toBe(false);
    expect(applyOutputInPlace(root, ["constructor", "prototype"], "set", 1).ok).toBe(false);
    assertPrototypesClean();
    expect(Object.getPrototypeOf(root.x)).toBe(Object.prototype);
    expect(Object.hasOwn(root.x as object, "__proto__")).toBe(true);
  });
});
