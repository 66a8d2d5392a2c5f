import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deepFreeze } from "./value-deep-freeze.js";
import { rememberFrozenCopy, toJsonValue } from "./value-to-json-value.js";

const rejection = (value: unknown, maxBytes?: number) => {
  const result = toJsonValue(value, maxBytes === undefined ? {} : { maxBytes });
  return result.ok ? "ok" : [result.code, result.pointer];
};

describe("toJsonValue", () => {
  it("returns a frozen deep copy with its byte size", () => {
    const source = { a: [1, "é", { b: null }], c: true, d: undefined };
    const result = toJsonValue(source);
    if (!result.ok) throw new Error(result.message);
    expect(result.value).toEqual({ a: [1, "é", { b: null }], c: true });
    expect(result.value).not.toBe(source);
    expect((result.value as { a: unknown }).a).not.toBe(source.a);
    expect(Object.isFrozen(result.value)).toBe(true);
    expect(Object.isFrozen((result.value as { a: unknown[] }).a[2])).toBe(true);
    expect(result.bytes).toBe(new TextEncoder().encode(JSON.stringify(source)).length);
  });

  it("keeps __proto__ as own data without polluting", () => {
    const source = JSON.parse('{"__proto__":{"polluted":true},"x":[{"__proto__":1}]}') as unknown;
    const result = toJsonValue(source);
    if (!result.ok) throw new Error(result.message);
    const copy = result.value as Record<string, unknown>;
    expect(Object.hasOwn(copy, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy.polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(copy)).toBe(JSON.stringify(source));
  });

  it.each([
    ["function", { a: { f: () => 1 } }, "/a/f"],
    ["BigInt", [1, 2n], "/1"],
    ["symbol", { s: Symbol("x") }, "/s"],
    ["NaN", { n: Number.NaN }, "/n"],
    ["Infinity", [Number.POSITIVE_INFINITY], "/0"],
    ["undefined in an array", [1, undefined], "/1"],
    ["a hole", Object.assign(new Array(3), { 0: 1, 2: 2 }), "/1"],
    ["undefined", undefined, ""],
    ["a Date", { when: new Date(0) }, "/when"],
    ["a Map", new Map(), ""],
    ["a class instance", { x: new (class Point {})() }, "/x"],
  ])("rejects %s with OUTPUT_NOT_JSON at its pointer", (_name, value, pointer) => {
    expect(rejection(value)).toEqual(["OUTPUT_NOT_JSON", pointer]);
  });

  it('says "undefined is not JSON", not "a undefined" (stop 29 review)', () => {
    const result = toJsonValue(undefined);
    expect(result.ok ? "" : result.message).toBe("undefined is not JSON (the value itself)");
    expect(result.ok ? "" : result.message).not.toContain("a undefined");
    const bigint = toJsonValue(2n);
    expect(bigint.ok ? "" : bigint.message).toContain("a bigint is not JSON");
  });

  it("rejects cycles but accepts shared sub-objects", () => {
    const cyclic: Record<string, unknown> = { a: {} };
    (cyclic.a as Record<string, unknown>).back = cyclic;
    expect(rejection(cyclic)).toEqual(["OUTPUT_NOT_JSON", "/a/back"]);
    const shared = { v: [1] };
    const result = toJsonValue({ x: shared, y: shared });
    expect(result.ok && result.bytes).toBe(JSON.stringify({ x: shared, y: shared }).length);
  });

  it("rejects nesting beyond 1,000 levels without overflowing the stack", () => {
    let deep: unknown = 1;
    for (let level = 0; level < 10_000; level++) deep = [deep];
    expect(rejection(deep)).toEqual(["OUTPUT_NOT_JSON", `/${Array(1000).fill(0).join("/")}`]);
    let ok: unknown = 1;
    for (let level = 0; level < 1000; level++) ok = [ok];
    expect(rejection(ok)).toBe("ok");
  });

  it("rejects values over maxBytes with OUTPUT_TOO_LARGE", () => {
    expect(rejection({ a: "x".repeat(10) }, 17)).toEqual(["OUTPUT_TOO_LARGE", "/a"]);
    expect(rejection({ a: "x".repeat(10) }, 18)).toBe("ok");
    let doubling: unknown = [1];
    for (let level = 0; level < 60; level++) doubling = [doubling, doubling];
    expect(rejection(doubling, 1_000_000)).toEqual(["OUTPUT_TOO_LARGE", expect.any(String)]);
  });

  it("refuses an array with more items than bytes left before reading them (adversarial review, stop 39)", () => {
    let reads = 0;
    const claiming = new Proxy([], {
      get: (target, key) => {
        if (key === "length") return 1e9;
        if (typeof key === "string" && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key);
      },
    });
    expect(rejection(claiming, 1_000)).toEqual(["OUTPUT_TOO_LARGE", ""]);
    expect(rejection({ list: claiming }, 1_000)).toEqual(["OUTPUT_TOO_LARGE", "/list"]);
    expect(reads).toBe(0);
    // at the bound: n items need 2n + 1 bytes, and exactly that is accepted
    expect(rejection([1, 2, 3], 7)).toBe("ok");
    expect(rejection([1, 2, 3], 6)).toEqual(["OUTPUT_TOO_LARGE", ""]);
  });

  it("reads an array's length once: a Proxy answering 1 and then 10⁹ is copied for 1 (review s40 rev1)", () => {
    const growing = (): { list: unknown[]; reads: () => number } => {
      let lengthReads = 0;
      let itemReads = 0;
      const list = new Proxy([7], {
        get: (target, key) => {
          if (key === "length") return lengthReads++ === 0 ? 1 : 1e9;
          if (typeof key === "string" && /^\d+$/.test(key)) itemReads++;
          return Reflect.get(target, key);
        },
      });
      return { list, reads: () => itemReads };
    };
    const quick = growing();
    expect(toJsonValue(quick.list, { maxBytes: 1_000 })).toMatchObject({ ok: true, value: [7] });
    expect(quick.reads()).toBe(1);
    // an undefined member sends the copy to its careful path, which reads the length once too
    const careful = growing();
    const result = toJsonValue({ skip: undefined, list: careful.list }, { maxBytes: 1_000 });
    expect(result).toMatchObject({ ok: true, value: { list: [7] } });
    expect(careful.reads()).toBeLessThanOrEqual(2);
  });

  it("reports a throwing getter as OUTPUT_NOT_JSON", () => {
    const value = Object.defineProperty({}, "x", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    expect(rejection(value)).toEqual(["OUTPUT_NOT_JSON", ""]);
  });

  it("copies any JSON value exactly, with the byte size JSON.stringify gives (quick and careful paths)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = toJsonValue(value);
        const text = JSON.stringify(value);
        expect(result.ok && JSON.stringify(result.value)).toBe(text);
        expect(result.ok && result.bytes).toBe(new TextEncoder().encode(text).length);
      }),
      { numRuns: 300 },
    );
  });

  it("gives the same copy and size on both sides of the quick path's budget", () => {
    for (const size of [1000, (1 << 20) - 2, (1 << 20) + 10]) {
      const value = { items: Array.from({ length: size }, (_, i) => (i % 2 === 0 ? i : `s${i}`)) };
      const result = toJsonValue(value);
      expect(result.ok && result.bytes).toBe(JSON.stringify(value).length);
      expect(result.ok && Object.isFrozen(result.value)).toBe(true);
    }
    const deep = JSON.parse(`${"[".repeat(70)}1${"]".repeat(70)}`) as unknown;
    expect(toJsonValue(deep).ok && JSON.stringify((toJsonValue(deep) as { value: unknown }).value)).toBe(
      JSON.stringify(deep),
    );
  });

  it("rejects what the quick path cannot judge with the careful path's pointer", () => {
    expect(rejection({ a: [1, { b: Number.NaN }] })).toEqual(["OUTPUT_NOT_JSON", "/a/1/b"]);
    expect(rejection([1, () => 1])).toEqual(["OUTPUT_NOT_JSON", "/1"]);
    expect(rejection({ d: new Date(0) })).toEqual(["OUTPUT_NOT_JSON", "/d"]);
    expect(rejection({ a: "x".repeat(40) }, 20)[0]).toBe("OUTPUT_TOO_LARGE");
  });

  it("reuses its own frozen copies at any depth instead of copying them again, with the same size", () => {
    const first = toJsonValue({ rows: [{ a: 1 }, { b: "é" }], note: null }, { remember: true });
    if (!first.ok) throw new Error(first.message);
    const again = toJsonValue(first.value);
    expect(again.ok && again.value).toBe(first.value);
    expect(again.ok && again.bytes).toBe(first.bytes);
    const holder = { id: "x", result: first.value };
    const held = toJsonValue(holder);
    if (!held.ok) throw new Error(held.message);
    expect(held.value).not.toBe(holder);
    expect((held.value as { result: unknown }).result).toBe(first.value);
    expect(held.bytes).toBe(JSON.stringify(holder).length + 1);
    expect(rejection(first.value, first.bytes - 1)[0]).toBe("OUTPUT_TOO_LARGE");
  });

  it("keeps the depth limit when a reused copy is nested deeper", () => {
    const nest = (levels: number, leaf: unknown): unknown => {
      let value = leaf;
      for (let level = 0; level < levels; level++) value = [value];
      return value;
    };
    const deepest = toJsonValue(nest(1000, 0), { remember: true });
    if (!deepest.ok) throw new Error(deepest.message);
    expect(rejection([deepest.value])[0]).toBe("OUTPUT_NOT_JSON");
    const shallow = toJsonValue({ x: [1] }, { remember: true });
    if (!shallow.ok) throw new Error(shallow.message);
    expect(toJsonValue(nest(998, shallow.value)).ok).toBe(true);
    expect(rejection(nest(999, shallow.value))).toEqual(["OUTPUT_NOT_JSON", `${"/0".repeat(999)}/x`]);
  });

  it("a message names a deep pointer by its first and last segments and cuts a long key; pointer has it all (s35 review L3)", () => {
    let deep: unknown = [];
    for (let level = 0; level < 5000; level++) deep = [deep];
    const tooDeep = toJsonValue({ k: deep });
    if (tooDeep.ok) throw new Error("accepted");
    expect(tooDeep.pointer).toBe(`/k${"/0".repeat(999)}`);
    expect(tooDeep.message).toBe(`nested deeper than 1000 levels (at /k${"/0".repeat(9)}/…(987 more)/0/0/0)`);
    const key = "x".repeat(2000);
    const longKey = toJsonValue({ [key]: [1, () => 1] });
    if (longKey.ok) throw new Error("accepted");
    expect(longKey.pointer).toBe(`/${key}/1`);
    expect(longKey.message).toBe(`a function is not JSON (at /${"x".repeat(40)}…/1)`);
    const shallow = toJsonValue({ a: [{ "b/~": [Number.NaN] }] });
    expect(shallow.ok ? "" : shallow.message).toBe("NaN is not a JSON number (at /a/0/b~1~0/0)");
  });

  it("copies again a copy made without remember", () => {
    const first = toJsonValue({ a: [1] });
    if (!first.ok) throw new Error(first.message);
    const again = toJsonValue(first.value);
    expect(again.ok && again.value).not.toBe(first.value);
    expect(again.ok && again.value).toEqual(first.value);
  });

  it("still copies and checks a frozen value it did not make", () => {
    const frozen = Object.freeze({ a: Object.freeze([1, 2]) });
    const copy = toJsonValue(frozen);
    expect(copy.ok && copy.value).not.toBe(frozen);
    expect(copy.ok && copy.value).toEqual(frozen);
    expect(rejection(Object.freeze({ a: Object.freeze({ b: Number.NaN }) }))).toEqual([
      "OUTPUT_NOT_JSON",
      "/a/b",
    ]);
  });
});

describe("toJsonValue's height (decision 0094)", () => {
  const heightOf = (value: unknown, options = {}): number => {
    const result = toJsonValue(value, options);
    if (!result.ok) throw new Error(result.message);
    return result.height;
  };
  /** `levels` nested arrays around a 1. */
  const nested = (levels: number): unknown => {
    let value: unknown = 1;
    for (let level = 0; level < levels; level++) value = [value];
    return value;
  };

  it("is 0 for a scalar and counts container levels on the quick and the careful path", () => {
    expect(heightOf("s")).toBe(0);
    expect(heightOf(null)).toBe(0);
    expect(heightOf({})).toBe(1);
    expect(heightOf({ a: [1, { b: [] }], c: 2 })).toBe(4);
    // deeper than the quick copy's 64 levels, and an undefined member: the careful copy
    expect(heightOf(nested(1000))).toBe(1000);
    expect(heightOf({ a: undefined, b: [nested(70)] })).toBe(72);
  });

  it("of a value holding a remembered copy counts the copy's levels", () => {
    const inner = toJsonValue(nested(10), { remember: true });
    if (!inner.ok) throw new Error(inner.message);
    expect(inner.height).toBe(10);
    expect(heightOf(inner.value)).toBe(10);
    expect(heightOf({ x: [inner.value] })).toBe(12);
    expect(heightOf({ x: [inner.value], y: undefined })).toBe(12);
  });
});

describe("rememberFrozenCopy", () => {
  it("makes a deeply frozen value its caller built a remembered copy: copied again, it is kept as it is", () => {
    const value = deepFreeze({ rows: [{ id: 1 }, { id: 2 }] });
    expect(rememberFrozenCopy(value, 28, 3)).toBe(true);
    expect(toJsonValue(value)).toEqual({ ok: true, value, bytes: 28, height: 3 });
    const outer = toJsonValue({ x: value });
    expect(outer).toMatchObject({ ok: true, bytes: 34, height: 4 });
    if (outer.ok) expect((outer.value as { x: unknown }).x).toBe(value);
    // remembered once: a second registration changes nothing
    expect(rememberFrozenCopy(value, 99, 9)).toBe(false);
    expect(toJsonValue(value)).toMatchObject({ bytes: 28, height: 3 });
  });

  it("ignores a value that could still change or sizes that cannot be right", () => {
    // frozen at the top only: a member can still be changed by whoever holds it
    const shallow = Object.freeze({ rows: [{ id: 1 }] });
    expect(rememberFrozenCopy(shallow, 19, 3)).toBe(false);
    const copied = toJsonValue(shallow);
    expect(copied.ok && copied.value).not.toBe(shallow);
    expect(rememberFrozenCopy({ a: 1 }, 7, 1)).toBe(false);
    expect(rememberFrozenCopy("text", 6, 0)).toBe(false);
    for (const [bytes, height] of [
      [1, 1],
      [7, 0],
      [Number.NaN, 1],
      [7.5, 1],
    ] as const)
      expect(rememberFrozenCopy(deepFreeze({ a: 1 }), bytes, height)).toBe(false);
  });
});
