import { describe, expect, it } from "vitest";
import { isFrozenJson } from "./frozen-json.js";

const deepFreeze = <T>(value: T): T => {
  if (typeof value === "object" && value !== null) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
};

describe("isFrozenJson", () => {
  it("accepts deep-frozen plain JSON and primitives", () => {
    expect(isFrozenJson(deepFreeze({ a: [1, "é", null, true, { b: [] }] }), 1000)).toBe(true);
    expect(isFrozenJson("text", 1000)).toBe(true);
    expect(isFrozenJson(3, 1000)).toBe(true);
  });

  it("refuses what a copy would change or reject", () => {
    let reads = 0;
    const cases: unknown[] = [
      { a: 1 },
      Object.freeze({ a: { b: 1 } }),
      Object.freeze({
        get a() {
          return ++reads;
        },
      }),
      Object.freeze(Object.assign(Object.create(null), { a: 1 })),
      deepFreeze({ a: -0 }),
      deepFreeze({ a: Number.NaN }),
      deepFreeze([1, undefined]),
      // biome-ignore lint/suspicious/noSparseArray: a hole is what is tested
      deepFreeze([1, , 2]),
      deepFreeze({ a: undefined }),
      deepFreeze(JSON.parse('{"__proto__": 1}')),
      deepFreeze({ a: new Date(0) }),
      deepFreeze(Object.create({ inherited: 1 })),
      Object.freeze(Object.defineProperty({ a: 1 }, "toJSON", { value: () => "x" })),
      Object.freeze(Object.defineProperty([1], "toJSON", { value: () => "x" })),
      -0,
    ];
    for (const value of cases) expect(isFrozenJson(value as never, 1000)).toBe(false);
    expect(reads).toBe(0);
  });

  it("refuses values it cannot prove are within the size limit, or too deep to check", () => {
    expect(isFrozenJson(deepFreeze({ text: "x".repeat(100) }), 100)).toBe(false);
    let deep: unknown = 1;
    for (let level = 0; level < 100; level++) deep = Object.freeze([deep]);
    expect(isFrozenJson(deep as never, 1_000_000)).toBe(false);
  });
});
