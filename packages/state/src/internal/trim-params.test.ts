import { type JsonValue, jsonByteSize } from "@obelisk/core";
import { describe, expect, it, vi } from "vitest";
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
  it("walks a deep-frozen part it dropped once, however many records hand it over", () => {
    // many calls reading one large stored value each give it to their record: each walked it whole
    const rows = Object.freeze(Array.from({ length: 2000 }, (_, i) => Object.freeze({ i, s: "row" })));
    const rowsBytes = jsonByteSize(rows);
    const items = new Set<unknown>(rows);
    const entries = vi.spyOn(Object, "entries");
    const keys = vi.spyOn(Object, "keys");
    const visits = () =>
      [...entries.mock.calls, ...keys.mock.calls].filter(([value]) => items.has(value)).length;
    try {
      const results = Array.from({ length: 50 }, (_, call) => trimParams({ rows, n: call }, 100));
      expect(visits()).toBeLessThanOrEqual(2 * rows.length); // ~200,000 when each record walks the rows again
      results.forEach((result, call) => {
        const droppedBytes = rowsBytes + `{"rows":,"n":${call}}`.length;
        expect(result).toEqual({ params: { rows: null, n: call }, droppedBytes });
      });
    } finally {
      entries.mockRestore();
      keys.mockRestore();
    }
  });

  it("measures a part that can still change each time (it is not remembered)", () => {
    const row = { s: "short" };
    const rows = Object.freeze([row, "m".repeat(90)]);
    expect(trimParams({ rows }, 100)).toEqual({
      params: { rows: null },
      droppedBytes: jsonByteSize({ rows }),
    });
    row.s = "longer than it was";
    expect(trimParams({ rows }, 100)).toEqual({
      params: { rows: null },
      droppedBytes: jsonByteSize({ rows }),
    });
  });

  it("copies nothing of a large deep-frozen part it drops, and keeps deep-frozen parts it keeps as they are", () => {
    // the first reader of a large stored value copied its small objects, then dropped the whole (s42 q2 #6)
    const rows = Object.freeze(
      Array.from({ length: 2000 }, (_, i) => Object.freeze({ i, tags: Object.freeze(["a", "b"]) })),
    );
    const kept = Object.freeze({ note: "small", tags: Object.freeze(["c"]) });
    const params = Object.freeze({ rows, kept, pad: LARGE });
    const freeze = vi.spyOn(Object, "freeze");
    let result: ReturnType<typeof trimParams>;
    try {
      result = trimParams(params, 100);
      // the new root only (4,000 freezes when the rows were copied before being dropped)
      expect(freeze.mock.calls.length).toBeLessThanOrEqual(1);
    } finally {
      freeze.mockRestore();
    }
    expect(result.params).toEqual({ rows: null, kept, pad: null });
    expect((result.params as { kept: unknown }).kept).toBe(kept);
    expect(result.droppedBytes).toBe(jsonByteSize({ rows, kept, pad: LARGE }));
    // a part that can still change is copied (and frozen) as before
    const open = { note: "small" };
    const trimmed = trimParams({ open, pad: LARGE }, 100).params as { open: unknown };
    expect(trimmed.open).toEqual(open);
    expect(trimmed.open).not.toBe(open);
    expect(Object.isFrozen(trimmed.open)).toBe(true);
  });

  it("measures a long string once however many records hand it over", () => {
    // 20 calls reading a 20 MB stored text each scanned it for their record's droppedParamsBytes (s42 b1)
    const text = `t${"x".repeat(200_000)}`;
    const byteLength = vi.spyOn(Buffer, "byteLength");
    try {
      for (let call = 0; call < 20; call++)
        expect(trimParams({ text, call }, 100)).toEqual({
          params: { text: null, call },
          droppedBytes: text.length + 2 + `{"text":,"call":${call}}`.length,
        });
      expect(byteLength.mock.calls.filter(([value]) => value === text).length).toBeLessThanOrEqual(1);
    } finally {
      byteLength.mockRestore();
    }
  });
});
