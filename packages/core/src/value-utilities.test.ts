import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonValue } from "./json-value.js";
import { deepFreeze, markDeeplyFrozen } from "./value-deep-freeze.js";
import { itemCount } from "./value-item-count.js";
import { jsonByteSize, jsonByteSizeWithin } from "./value-json-byte-size.js";
import { jsonTypeOf } from "./value-json-type-of.js";

/** Wraps `target` so each listing of its own keys adds one to `counter.walks`. */
function countingKeys<T extends object>(target: T, counter: { walks: number }): T {
  return new Proxy(target, {
    ownKeys: (inner) => {
      counter.walks++;
      return Reflect.ownKeys(inner);
    },
  });
}

describe("value utilities", () => {
  it("jsonTypeOf names JSON types", () => {
    expect([null, true, 1, "s", [], {}].map((v) => jsonTypeOf(v))).toEqual([
      "null",
      "boolean",
      "number",
      "string",
      "array",
      "object",
    ]);
  });

  it("itemCount counts items, keys and characters", () => {
    expect(itemCount([1, 2])).toEqual({ count: 2, unit: "items" });
    expect(itemCount({ a: 1 })).toEqual({ count: 1, unit: "keys" });
    expect(itemCount("abc")).toEqual({ count: 3, unit: "characters" });
    expect(itemCount(3)).toBeUndefined();
    expect(itemCount(null)).toBeUndefined();
  });

  it("jsonByteSize equals the UTF-8 length of JSON.stringify (property)", () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonByteSize(value as JsonValue)).toBe(encoder.encode(JSON.stringify(value)).length);
      }),
    );
    expect(jsonByteSize({ a: "\u0001\ud800😀", b: undefined } as unknown as JsonValue)).toBe(
      JSON.stringify({ a: "\u0001\ud800😀" }).replace("😀", "xxxx").length,
    );
  });

  it("jsonByteSize of long strings (the native count) equals the UTF-8 length of JSON.stringify (property)", () => {
    const encoder = new TextEncoder();
    // long strings of any code units, with escapes, pairs and lone surrogates spliced in at random places
    const piece = fc.oneof(
      fc.string({ unit: "binary", minLength: 0, maxLength: 200 }),
      fc.string({ unit: "grapheme-ascii", minLength: 60, maxLength: 300 }),
      fc.constantFrom(
        '"',
        "\\",
        "\u0000",
        "\u001f",
        "\u007f",
        "é",
        "€",
        "😀",
        "\ud800",
        "\udfff",
        "x".repeat(70),
      ),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join("");
        expect(jsonByteSize(text)).toBe(encoder.encode(JSON.stringify(text)).length);
      }),
    );
    expect(jsonByteSize(`${"a".repeat(100)}\ud800`)).toBe(100 + 6 + 2);
    expect(jsonByteSize(`${"é".repeat(100)}`)).toBe(200 + 2);
  });

  it("jsonByteSizeWithin is jsonByteSize up to the limit, and undefined past it (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat({ max: 400 }), (value, limit) => {
        const size = jsonByteSize(value as JsonValue);
        expect(jsonByteSizeWithin(value as JsonValue, limit)).toBe(size <= limit ? size : undefined);
      }),
    );
    expect(jsonByteSizeWithin("x".repeat(10_000), 4096)).toBeUndefined();
    expect(jsonByteSizeWithin({ a: "x".repeat(4000) }, 4096)).toBe(4000 + 2 + 4 + 2);
  });

  it("jsonByteSizeWithin reads no more of a large array or object than the limit allows", () => {
    const reads = { count: 0 };
    const counted = <T extends object>(target: T): T =>
      new Proxy(target, {
        get: (inner, key, receiver) => {
          if (typeof key === "string" && key !== "length") reads.count++;
          return Reflect.get(inner, key, receiver);
        },
      });
    const rows = counted(Array.from({ length: 40_000 }, (_, index) => index));
    expect(jsonByteSizeWithin({ rows }, 1024)).toBeUndefined();
    expect(jsonByteSizeWithin([rows, rows], 1024)).toBeUndefined();
    expect(reads.count).toBe(0);
    const table = counted(
      Object.fromEntries(Array.from({ length: 40_000 }, (_, index) => [`k${index}`, index])),
    );
    expect(jsonByteSizeWithin([table], 1024)).toBeUndefined();
    expect(reads.count).toBeLessThan(200);
    reads.count = 0;
    const nested = Array.from({ length: 100 }, () => counted(Array.from({ length: 100 }, () => 1)));
    expect(jsonByteSizeWithin(nested, 1024)).toBeUndefined();
    expect(reads.count).toBeLessThan(1024);
    expect(jsonByteSizeWithin(rows, Number.POSITIVE_INFINITY)).toBe(JSON.stringify(rows).length);
  });

  it("deepFreeze freezes everything reachable, cycles included", () => {
    const value: Record<string, unknown> = { a: { b: [{ c: 1 }] } };
    value.self = value;
    expect(deepFreeze(value)).toBe(value);
    expect(Object.isFrozen((value.a as { b: object[] }).b[0])).toBe(true);
    expect(Object.isFrozen(value)).toBe(true);
  });

  it("deepFreeze does not walk again what it froze whole before, even under a new parent", () => {
    const counter = { walks: 0 };
    const child = countingKeys({ big: countingKeys([1, 2, 3], counter) }, counter);
    deepFreeze(child);
    const afterFirst = counter.walks;
    expect(afterFirst).toBeGreaterThan(0);
    deepFreeze(child);
    const parent = { child, fresh: { x: 1 } };
    deepFreeze(parent);
    expect(counter.walks).toBe(afterFirst);
    expect(Object.isFrozen(parent.fresh)).toBe(true);
  });

  it("markDeeplyFrozen spares deepFreeze the walk of a frozen value, and ignores one that is not frozen", () => {
    const counter = { walks: 0 };
    const frozen = countingKeys(Object.freeze({ a: 1 }), counter);
    markDeeplyFrozen(frozen);
    counter.walks = 0;
    deepFreeze(frozen);
    expect(counter.walks).toBe(0);
    const open = { a: { b: 1 } };
    markDeeplyFrozen(open);
    deepFreeze(open);
    expect(Object.isFrozen(open.a)).toBe(true);
  });

  it("deepFreeze marks nothing when a value refuses to be frozen half-way, so a later call walks it again", () => {
    const counter = { walks: 0 };
    const hostile = new Proxy(
      {},
      {
        preventExtensions: () => {
          throw new Error("no");
        },
      },
    );
    const inner = countingKeys({ hostile }, counter);
    expect(() => deepFreeze({ inner })).toThrow("no");
    const afterFirst = counter.walks;
    expect(afterFirst).toBeGreaterThan(0);
    expect(() => deepFreeze({ inner })).toThrow("no");
    expect(counter.walks).toBe(2 * afterFirst);
  });
});
