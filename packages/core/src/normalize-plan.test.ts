import { describe, expect, it } from "vitest";
import { normalizePlan } from "./normalize-plan.js";

const codes = (value: unknown, limits = {}) =>
  normalizePlan(value, { limits }).diagnostics.map((d) => [d.code, d.pointer]);

describe("normalizePlan", () => {
  it("accepts every form and keeps the source", () => {
    const call = { _tool: "a" };
    const plan = { type: "plan", plan: [call], id: "p", description: "d", inputSchema: { type: "object" } };
    const result = normalizePlan(plan);
    expect(result.diagnostics).toEqual([]);
    expect(result.document).toMatchObject({ form: "plan", id: "p", description: "d", source: plan });
    expect(result.document?.inputSchema).toEqual({ type: "object" });
    expect(result.document?.calls[0]?.value).toEqual(call);
    expect(normalizePlan({ calls: [call] }).document?.form).toBe("calls");
    expect(normalizePlan([call]).document?.form).toBe("array");
    expect(normalizePlan(call).document?.form).toBe("call");
    expect(normalizePlan({ plan: [call] }).document?.form).toBe("plan");
    expect(normalizePlan({ $schema: "x", calls: [] }).diagnostics).toEqual([]);
  });

  it("treats an object with _tool as a call, even with a calls parameter", () => {
    const call = { _tool: "batch", calls: [1], plan: "x", type: "job" };
    expect(normalizePlan(call).document?.form).toBe("call");
  });

  it("rejects what is not a plan", () => {
    expect(codes(undefined)).toEqual([["PLAN_SHAPE", ""]]);
    expect(codes(true)).toEqual([["PLAN_SHAPE", ""]]);
    expect(codes({})).toEqual([["PLAN_SHAPE", ""]]);
    expect(codes({ type: "plan", plan: "x" })).toEqual([["PLAN_SHAPE", "/plan"]]);
    expect(codes({ type: 1, plan: [] })).toEqual([["PLAN_SHAPE", "/type"]]);
    expect(codes({ plan: [], "a/b": 1 })).toEqual([["PLAN_SHAPE", "/a~1b"]]);
  });

  it("an inputSchema that is not an object is PLAN_SHAPE, true and false with a hint saying what they mean", () => {
    const shape = (inputSchema: unknown) =>
      normalizePlan({ plan: [], inputSchema }).diagnostics.map((d) => [d.code, d.pointer, d.hint]);
    expect(shape(true)).toEqual([
      ["PLAN_SHAPE", "/inputSchema", "true admits any input: leave inputSchema out"],
    ]);
    expect(shape(false)).toEqual([
      [
        "PLAN_SHAPE",
        "/inputSchema",
        "false admits no input at all: give an object schema of the input the plan reads",
      ],
    ]);
    expect(shape("string")[0]?.[2]).toContain('give an object schema, e.g. { "type": "object"');
  });

  it("enforces limits on an already-parsed value", () => {
    expect(codes({ plan: [{ _tool: "a", x: { y: [[1]] } }] }, { maxDepth: 5 })).toEqual([
      ["PLAN_LIMIT", "/plan/0/x/y/0"],
    ]);
    expect(codes([{ _tool: "abcdef" }], { maxStringLength: 5 })).toEqual([["PLAN_LIMIT", "/0/_tool"]]);
    expect(codes([{}, {}], { maxCalls: 1 })).toEqual([["PLAN_LIMIT", ""]]);
  });

  it("terminates on cycles and shared sub-objects", () => {
    const cyclic: Record<string, unknown> = { _tool: "a" };
    cyclic.self = cyclic;
    // a cycle is not JSON (the walk of the limits does not follow it, whatever maxDepth is)
    expect(codes(cyclic)).toEqual([["JSON_SYNTAX", "/self"]]);
    expect(
      normalizePlan(cyclic, { limits: { maxDepth: Number.POSITIVE_INFINITY } }).diagnostics,
    ).toMatchObject([{ code: "JSON_SYNTAX", pointer: "/self" }]);
    let shared: unknown[] = [];
    for (let level = 0; level < 60; level++) shared = [shared, shared];
    expect(codes([{ _tool: "a", shared }])).toEqual([["PLAN_LIMIT", ""]]);
    let small: unknown[] = [];
    for (let level = 0; level < 10; level++) small = [small, small];
    expect(codes([{ _tool: "a", small }])).toEqual([]);
  });

  it("works on a frozen JSON copy: later changes to the value change nothing", () => {
    const call = { _tool: "a", x: { y: 1 } };
    const result = normalizePlan([call]);
    call.x.y = 2;
    const copied = result.document?.calls[0]?.value as { x: { y: number } };
    expect(copied.x.y).toBe(1);
    expect(Object.isFrozen(copied.x)).toBe(true);
    expect(result.document?.source).toEqual([{ _tool: "a", x: { y: 1 } }]);
  });

  it("refuses values that are not JSON with JSON_SYNTAX at their pointer", () => {
    const date = Object.assign(new Date(0), { path: "/etc" });
    expect(codes([{ _tool: "a", when: date }])).toEqual([["JSON_SYNTAX", "/0/when"]]);
    expect(codes([{ _tool: "a", n: Number.NaN }])).toEqual([["JSON_SYNTAX", "/0/n"]]);
    expect(codes([{ _tool: "a", n: Number.POSITIVE_INFINITY }])).toEqual([["JSON_SYNTAX", "/0/n"]]);
    expect(codes([{ _tool: "a", m: new Map([["k", 1]]) }])).toEqual([["JSON_SYNTAX", "/0/m"]]);
    expect(codes([{ _tool: "a", b: 1n }])).toEqual([["JSON_SYNTAX", "/0/b"]]);
    expect(codes([{ _tool: "a", f: () => 1 }])).toEqual([["JSON_SYNTAX", "/0/f"]]);
    // biome-ignore lint/suspicious/noSparseArray: a hole is what is tested
    expect(codes([{ _tool: "a", holes: [1, , 3] }])).toEqual([["JSON_SYNTAX", "/0/holes/1"]]);
    const hostile = {
      _tool: "a",
      get p(): never {
        throw new Error("no");
      },
    };
    expect(codes([hostile]).map(([code]) => code)).toEqual(["JSON_SYNTAX"]);
  });

  it("reads -0 as 0 and refuses a plan over maxDocumentBytes", () => {
    const copied = normalizePlan([{ _tool: "a", z: -0 }]).document?.calls[0]?.value as { z: number };
    expect(Object.is(copied.z, 0)).toBe(true);
    expect(codes([{ _tool: "a", text: "x".repeat(100) }], { maxDocumentBytes: 50 })).toEqual([
      ["PLAN_LIMIT", ""],
    ]);
  });

  it("checks the limits on the JSON copy: a shared sub-object where the copy has it, a deep one where it is deepest", () => {
    const leaf = { text: "abcdefgh" };
    // the common copy writes a shared sub-object out at each place, as its JSON text does: reported at each
    expect(codes([{ _tool: "a", p: leaf, q: leaf }], { maxStringLength: 6 })).toEqual([
      ["PLAN_LIMIT", "/0/q/text"],
      ["PLAN_LIMIT", "/0/p/text"],
    ]);
    // the careful copy (here for the undefined member it drops) shares it: reported once
    expect(codes([{ _tool: "a", p: leaf, q: leaf, u: undefined }], { maxStringLength: 6 })).toEqual([
      ["PLAN_LIMIT", "/0/p/text"],
    ]);
    const deep = { x: [1] };
    expect(codes([{ _tool: "a", p: deep, q: { r: deep } }], { maxDepth: 4 })).toEqual([
      ["PLAN_LIMIT", "/0/q/r/x"],
    ]);
  });
});
