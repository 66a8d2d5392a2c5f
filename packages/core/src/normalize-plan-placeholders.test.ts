import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "./limits.js";
import { normalizePlan } from "./normalize-plan.js";
import { isValueLimitDiagnostic, withLimitPlaceholders } from "./plan-limit-diagnostics.js";

const codes = (value: unknown, limits = {}) =>
  normalizePlan(value, { limits }).diagnostics.map((d) => [d.code, d.pointer]);

describe("normalizePlan over per-value limits: placeholders for the rest, no document", () => {
  it('replaces a long string by "", a member with a long key by nothing, a too-deep container by null', () => {
    const limits = { maxStringLength: 5, maxDepth: 4 };
    const value = { plan: [{ _tool: "a", s: "abcdef", keep: { k: [1] }, longkey: 1, d: { e: [1] } }] };
    const result = normalizePlan(value, { limits });
    expect(result.document).toBeUndefined();
    expect(result.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ["PLAN_LIMIT", "/plan/0/s"],
      ["PLAN_LIMIT", "/plan/0/longkey"],
      ["PLAN_LIMIT", "/plan/0/d/e"],
      ["PLAN_LIMIT", "/plan/0/keep/k"],
    ]);
    const placeholders = result.placeholders;
    expect(placeholders?.pointers).toEqual(["/plan/0/s", "/plan/0/keep/k", "/plan/0/longkey", "/plan/0/d/e"]);
    expect(placeholders?.document.calls[0]?.value).toEqual({
      _tool: "a",
      s: "",
      keep: { k: null },
      d: { e: null },
    });
    expect(placeholders?.document.source).toEqual({
      plan: [{ _tool: "a", s: "", keep: { k: null }, d: { e: null } }],
    });
    expect(Object.keys(placeholders?.document.calls[0]?.value as object)).toEqual([
      "_tool",
      "s",
      "keep",
      "d",
    ]);
    expect(Object.isFrozen(placeholders?.document.calls[0]?.value)).toBe(true);
    // the submitted value is not changed
    expect(value.plan[0]?.s).toBe("abcdef");
  });

  it("reports the rest's shape problems, but none at or below a replaced value", () => {
    const limits = { maxStringLength: 5 };
    expect(codes({ type: "plan", plan: [{ _tool: "a", s: "abcdef" }], extra: 1 }, limits)).toEqual([
      ["PLAN_LIMIT", "/plan/0/s"],
      ["PLAN_SHAPE", "/extra"],
    ]);
    // "id" must be a string: the "" standing for a long one is not reported
    const id = normalizePlan({ plan: [], id: "abcdefgh" }, { limits });
    expect(id.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["PLAN_LIMIT", "/id"]]);
    expect(id.placeholders?.pointers).toEqual(["/id"]);
    // the document itself too long or too deep: nothing left to analyse
    const whole = normalizePlan("abcdefgh", { limits });
    expect(whole.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["PLAN_LIMIT", ""]]);
    expect(whole.placeholders).toBeUndefined();
  });

  it("whole-document limits and values that are not JSON stay early exits", () => {
    const value = [{ _tool: "a", s: "abcdefgh" }, {}, {}];
    expect(codes(value, { maxStringLength: 5, maxCalls: 2 })).toEqual([["PLAN_LIMIT", ""]]);
    expect(codes(value, { maxStringLength: 5, maxDocumentBytes: 20 })).toEqual([["PLAN_LIMIT", ""]]);
    expect(
      normalizePlan(value, { limits: { maxStringLength: 5, maxCalls: 2 } }).placeholders,
    ).toBeUndefined();
    // not JSON: that alone, from the copy's answer (the value is not read again for its other limits)
    const cyclic: Record<string, unknown> = { _tool: "a", s: "abcdefgh" };
    cyclic.self = cyclic;
    const result = normalizePlan([cyclic], { limits: { maxStringLength: 5 } });
    expect(result.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["JSON_SYNTAX", "/0/self"]]);
    expect(result.uncopied).toBe(true);
    expect(result.document).toBeUndefined();
    expect(result.placeholders).toBeUndefined();
  });

  it("a shared container reported once (or more problems than reported) is an early exit: limits only", () => {
    const leaf = { text: "abcdefgh" };
    // shared in the copy: the careful copy (made for the undefined member it drops) shares what is shared
    const shared = normalizePlan(
      { plan: [{ _tool: "a", p: leaf, q: leaf, u: undefined }], extra: 1 },
      { limits: { maxStringLength: 6 } },
    );
    expect(shared.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["PLAN_LIMIT", "/plan/0/p/text"]]);
    expect(shared.placeholders).toBeUndefined();
    const many = [{ _tool: "a", list: Array.from({ length: 150 }, () => "abcdefgh") }];
    const capped = normalizePlan(many, { limits: { maxStringLength: 6 } });
    expect(capped.diagnostics).toHaveLength(100);
    expect(capped.placeholders).toBeUndefined();
  });

  it("shares what has no replacement below it", () => {
    const value = Object.freeze({ a: Object.freeze({ b: 1 }), c: "abcdefgh" });
    const replaced = withLimitPlaceholders(value, { ...DEFAULT_LIMITS, maxStringLength: 5 });
    expect(replaced.value).toEqual({ a: { b: 1 }, c: "" });
    expect(replaced.value.a).toBe(value.a);
    expect(withLimitPlaceholders(value, DEFAULT_LIMITS)).toEqual({ value, pointers: [] });
    const proto = JSON.parse(`{"__proto__":{"x":1},"s":"${"s".repeat(20)}"}`);
    const safe = withLimitPlaceholders(proto, { ...DEFAULT_LIMITS, maxStringLength: 10 }).value;
    expect(Object.getPrototypeOf(safe)).toBe(Object.prototype);
    expect(Object.keys(safe)).toEqual(["__proto__", "s"]);
  });
});

describe("isValueLimitDiagnostic: the limits a plan can be checked around", () => {
  const limits = { ...DEFAULT_LIMITS, maxStringLength: 5, maxDepth: 3, maxCalls: 1 };
  const codesOf = (value: unknown) =>
    normalizePlan(value, { limits }).diagnostics.map((d) => [d.pointer, isValueLimitDiagnostic(d)]);

  it("true for a string, a key and nesting over their limits", () => {
    expect(codesOf([{ _tool: "t", text: "longer" }])).toEqual([["/0/text", true]]);
    expect(codesOf([{ _tool: "t", longer: 1 }])).toEqual([["/0/longer", true]]);
    expect(codesOf([{ _tool: "t", a: { b: { c: 1 } } }])).toEqual([["/0/a/b", true]]);
  });

  it("false for the document's limits (maxCalls, its size) and for other codes", () => {
    expect(codesOf([{ _tool: "t" }, { _tool: "t" }])).toEqual([["", false]]);
    const size = normalizePlan([{ _tool: "t" }], { limits: { ...DEFAULT_LIMITS, maxDocumentBytes: 4 } });
    expect(size.diagnostics.map((d) => [d.code, isValueLimitDiagnostic(d)])).toEqual([["PLAN_LIMIT", false]]);
    expect(codesOf(42).map(([, value]) => value)).toEqual([false]);
  });
});
