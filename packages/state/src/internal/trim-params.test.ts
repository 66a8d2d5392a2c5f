import { type JsonValue, jsonByteSize } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { trimParams } from "./trim-params.js";

const LARGE = "l".repeat(200);

describe("trimParams (decision 0034)", () => {
  it("keeps parameters within the bound as they are (the same object)", () => {
    const params = Object.freeze({ a: 1, b: "text" });
    expect(trimParams(params, 100)).toEqual({ params, droppedBytes: undefined });
    expect(trimParams(undefined, 0)).toEqual({ params: undefined, droppedBytes: undefined });
    const large = { doc: LARGE };
    expect(trimParams(large, Number.POSITIVE_INFINITY).params).toBe(large);
  });

  it("replaces the larger parts by null, deepest first, and keeps a __proto__ member a member", () => {
    const params = JSON.parse(`{"__proto__":{"doc":"${LARGE}","n":1},"list":[["${LARGE}"],2]}`);
    const { params: kept, droppedBytes } = trimParams(params, 100);
    expect(droppedBytes).toBe(jsonByteSize(params));
    expect(JSON.stringify(kept)).toBe('{"__proto__":{"doc":null,"n":1},"list":[[null],2]}');
    expect(Object.getPrototypeOf(kept)).toBe(Object.prototype);
    expect(Object.isFrozen(kept)).toBe(true);
    expect(jsonByteSize(kept as never)).toBeLessThanOrEqual(100);
  });

  it("a part deeper than it walks is replaced whole when large, kept when small", () => {
    let deep: JsonValue = LARGE;
    for (let depth = 0; depth < 80; depth++) deep = [deep];
    const kept = trimParams({ deep, n: 1 }, 100).params as { deep: unknown; n: number };
    expect(JSON.stringify(kept.deep)).toMatch(/^\[+null\]+$/);
    expect(kept.n).toBe(1);
    expect(jsonByteSize(kept as never)).toBeLessThanOrEqual(100);
    let small: JsonValue = 1;
    for (let depth = 0; depth < 80; depth++) small = [small];
    const params = { small, pad: LARGE };
    expect(trimParams(params, 200).params).toEqual({ small, pad: null });
  });
});
