import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyOutput } from "./apply-output.js";
import { getAtPath } from "./get-at-path.js";
import type { JsonValue } from "./json-value.js";
import { OUTPUT_METHODS, type OutputMethod } from "./output-methods.js";
import { FORBIDDEN_SEGMENTS, type PathSegment } from "./path.js";

const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
const methodArb = fc.constantFrom(...(Object.keys(OUTPUT_METHODS) as OutputMethod[]));
const safeKeyArb = fc
  .oneof(fc.constantFrom("a", "b", "user", "0"), fc.string())
  .filter((k) => !FORBIDDEN_SEGMENTS.has(k));
const hostileKeyArb = fc.constantFrom("__proto__", "constructor", "prototype", "polluted", "a");
const hostileValueArb = fc.constantFrom<JsonValue>(
  JSON.parse('{"__proto__": {"polluted": true}}'),
  JSON.parse('{"constructor": {"prototype": {"polluted": true}}}'),
  JSON.parse('{"a": {"__proto__": {"polluted": true}}}'),
  JSON.parse('[{"__proto__": {"polluted": true}}]'),
);
const valueArb = fc.oneof(fc.jsonValue() as fc.Arbitrary<JsonValue>, hostileValueArb);
const rootArb = fc.oneof(fc.constant(undefined), fc.jsonValue() as fc.Arbitrary<JsonValue>, hostileValueArb);

function assertPrototypesClean(): void {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
}

/** True when no object inside `value` had its prototype replaced (a `__proto__` key hit the setter). */
function everyPrototypePlain(value: JsonValue): boolean {
  if (typeof value !== "object" || value === null) return true;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return false;
  return Object.values(value).every((child) => everyPrototypePlain(child as JsonValue));
}

describe("applyOutput (properties)", () => {
  it("set then getAtPath returns the value whenever the write succeeds", () => {
    const pathArb = fc.array(fc.oneof(safeKeyArb, fc.nat({ max: 3 })), { maxLength: 5 });
    fc.assert(
      fc.property(rootArb, pathArb, fc.jsonValue(), (root, path, value) => {
        const result = applyOutput(root, path, "set", value as JsonValue);
        if (result.ok) expect(getAtPath(result.value, path)).toEqual({ found: true, value });
      }),
    );
  });

  it("always succeeds for name paths below an empty object", () => {
    fc.assert(
      fc.property(fc.array(safeKeyArb, { minLength: 1, maxLength: 6 }), fc.jsonValue(), (path, value) => {
        const result = applyOutput({}, path, "set", value as JsonValue);
        expect(result.ok).toBe(true);
        if (result.ok) expect(getAtPath(result.value, path)).toEqual({ found: true, value });
      }),
    );
  });

  it("never mutates the root and never touches Object.prototype", () => {
    const pathArb = fc.array(fc.oneof(hostileKeyArb, safeKeyArb, fc.integer({ min: -2, max: 3 })), {
      maxLength: 5,
    });
    fc.assert(
      fc.property(rootArb, pathArb, methodArb, valueArb, (root, path, method, value) => {
        const before = root === undefined ? undefined : structuredClone(root);
        const result = applyOutput(root, path as PathSegment[], method, value);
        assertPrototypesClean();
        expect(root).toEqual(before);
        const hasForbidden = path.some((s) => typeof s === "string" && FORBIDDEN_SEGMENTS.has(s));
        if (hasForbidden) expect(result.ok).toBe(false);
        if (result.ok) {
          expect(getAtPath(result.value, path).found || method !== "set").toBe(true);
          expect(everyPrototypePlain(result.value)).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
