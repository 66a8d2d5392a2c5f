import { describe, expect, it } from "vitest";
import { applyOutput } from "./apply-output.js";
import type { JsonValue } from "./json-value.js";
import type { OutputMethod } from "./output-methods.js";
import type { Path } from "./path.js";

function applied(root: JsonValue | undefined, path: Path, method: OutputMethod, value: JsonValue): JsonValue {
  const result = applyOutput(root, path, method, value);
  if (!result.ok) throw new Error(result.message);
  return result.value;
}

describe("applyOutput", () => {
  it("sets a value, creating intermediate objects", () => {
    expect(applied(undefined, ["user", "summary"], "set", "hi")).toEqual({ user: { summary: "hi" } });
    expect(applied({ a: 1 }, ["b", "c", "d"], "set", null)).toEqual({ a: 1, b: { c: { d: null } } });
  });

  it("replaces the root for an empty path", () => {
    expect(applied({ a: 1 }, [], "set", [1])).toEqual([1]);
  });

  it("never mutates its inputs and shares untouched branches", () => {
    const root = Object.freeze({ a: Object.freeze({ x: 1 }), b: Object.freeze({ y: 2 }) });
    const next = applied(root, ["a", "x"], "set", 5) as { a: unknown; b: unknown };
    expect(next).toEqual({ a: { x: 5 }, b: { y: 2 } });
    expect(root).toEqual({ a: { x: 1 }, b: { y: 2 } });
    expect(next.b).toBe(root.b);
  });

  it("indexes existing arrays; index == length appends", () => {
    expect(applied({ l: [1, 2] }, ["l", 0], "set", 9)).toEqual({ l: [9, 2] });
    expect(applied({ l: [1, 2] }, ["l", 2], "set", 3)).toEqual({ l: [1, 2, 3] });
    expect(applied({ l: [{ a: 1 }] }, ["l", 0, "b"], "set", 2)).toEqual({ l: [{ a: 1, b: 2 }] });
    expect(applied({}, ["l", 0], "set", "first")).toEqual({ l: ["first"] });
  });

  it("writes a numeric segment into an object as a key", () => {
    expect(applied({ years: {} }, ["years", 2024], "set", "x")).toEqual({ years: { "2024": "x" } });
  });

  it.each([
    [{ a: "text" }, ["a", "b"]],
    [{ a: 5 }, ["a", "b"]],
    [{ a: null }, ["a", "b"]],
    [{ a: true }, ["a", 0]],
    [{ a: [1] }, ["a", "b"]],
    [{ a: [1] }, ["a", 2]],
    [{ a: [1] }, ["a", -1]],
    [{}, ["a", 1]],
    [{}, ["a", 1.5]],
    [{}, ["__proto__"]],
    [{}, ["a", "constructor"]],
    [{}, ["prototype", "x"]],
  ])("fails to write into %j at %j", (root, path) => {
    const result = applyOutput(root, path, "set", 1);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message.length).toBeGreaterThan(0);
  });

  describe("merge", () => {
    it("deep-merges objects; arrays and scalars replace", () => {
      const root = { s: { a: { x: 1, y: [1] }, b: 2 } };
      expect(applied(root, ["s"], "merge", { a: { y: [2], z: 3 }, c: 4 })).toEqual({
        s: { a: { x: 1, y: [2], z: 3 }, b: 2, c: 4 },
      });
    });
    it("sets a missing target", () => {
      expect(applied({}, ["s"], "merge", 5)).toEqual({ s: 5 });
    });
    it.each([
      [{ s: 1 }, { a: 1 }],
      [{ s: { a: 1 } }, [1]],
      [{ s: [1] }, { a: 1 }],
      [{ s: { a: 1 } }, null],
    ])("fails for %j with %j", (root, value) => {
      expect(applyOutput(root, ["s"], "merge", value).ok).toBe(false);
    });
  });

  describe("assign", () => {
    it("shallow-merges objects", () => {
      expect(applied({ s: { a: { x: 1 }, b: 2 } }, ["s"], "assign", { a: { y: 2 } })).toEqual({
        s: { a: { y: 2 }, b: 2 },
      });
      expect(applied({}, ["s"], "assign", { a: 1 })).toEqual({ s: { a: 1 } });
    });
    it.each([
      [{ s: 1 }, { a: 1 }],
      [{ s: { a: 1 } }, 5],
      [{}, [1]],
    ])("fails for %j with %j", (root, value) => {
      expect(applyOutput(root, ["s"], "assign", value).ok).toBe(false);
    });
  });

  describe("push", () => {
    it("appends to an array or creates one", () => {
      expect(applied({ l: [1] }, ["l"], "push", [2])).toEqual({ l: [1, [2]] });
      expect(applied({}, ["l"], "push", { a: 1 })).toEqual({ l: [{ a: 1 }] });
    });
    it("fails on a non-array", () => {
      expect(applyOutput({ l: {} }, ["l"], "push", 1).ok).toBe(false);
      expect(applyOutput({ l: null }, ["l"], "push", 1).ok).toBe(false);
    });
  });

  describe("concat", () => {
    it("appends the items of an array value", () => {
      expect(applied({ l: [1] }, ["l"], "concat", [2, 3])).toEqual({ l: [1, 2, 3] });
      const value = [4];
      const created = applied({}, ["l"], "concat", value) as { l: unknown };
      expect(created).toEqual({ l: [4] });
      expect(created.l).not.toBe(value);
    });
    it("fails on a non-array value or target", () => {
      expect(applyOutput({ l: [1] }, ["l"], "concat", 2).ok).toBe(false);
      expect(applyOutput({ l: "x" }, ["l"], "concat", [2]).ok).toBe(false);
    });
  });

  it("keeps a __proto__ key inside written values as an own data property", () => {
    const hostile = JSON.parse('{"__proto__": {"polluted": true}, "a": {"__proto__": {"polluted": 1}}}');
    const merged = applied({ s: { a: { b: 1 } } }, ["s"], "merge", hostile) as Record<
      string,
      Record<string, unknown>
    >;
    const s = merged.s as Record<string, unknown>;
    expect(Object.getPrototypeOf(s)).toBe(Object.prototype);
    expect(Object.hasOwn(s, "__proto__")).toBe(true);
    expect(Object.hasOwn(s.a as object, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((s as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
