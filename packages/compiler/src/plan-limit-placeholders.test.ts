import type { Diagnostic } from "@obelisk/core";
import { canonicalJson, normalizePlan, planHash, sha256Hex } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const plan = (...calls: unknown[]) => ({ type: "plan", plan: calls });
const codes = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => [d.code, d.pointer]);
const LONG = "9".repeat(1_000_001);
/** Arrays nested `levels` deep around 1. */
const nested = (levels: number): unknown => (levels === 0 ? 1 : [nested(levels - 1)]);

/** TOOL_UNKNOWN at /plan/0, META_UNKNOWN at /plan/1, and `third` at /plan/2. */
const threeMistakes = (third: unknown) =>
  plan({ _tool: "fetchUsr", userId: "u1" }, { _tool: "log", message: "hi", _bogus: true }, third);

describe("a plan over per-value limits reports every diagnostic at once (SPEC §6)", () => {
  it("an over-long string: TOOL_UNKNOWN, META_UNKNOWN and PLAN_LIMIT, in document order", () => {
    const result = compile(threeMistakes({ _tool: "log", message: LONG }), registry);
    expect(codes(result.diagnostics)).toEqual([
      ["TOOL_UNKNOWN", "/plan/0/_tool"],
      ["META_UNKNOWN", "/plan/1/_bogus"],
      ["PLAN_LIMIT", "/plan/2/message"],
    ]);
    expect(result.diagnostics[2]?.message).toContain("1000001 characters");
  });

  it("a too-deep value: the same, with the PLAN_LIMIT at the first container too deep", () => {
    // root 1, plan 2, call 3, receipt 4, x 5: x's 60th nested array is at depth 65 (maxDepth 64)
    const result = compile(
      threeMistakes({ _tool: "confirmOrder", receipt: { id: "r", x: nested(70) } }),
      registry,
    );
    expect(codes(result.diagnostics)).toEqual([
      ["TOOL_UNKNOWN", "/plan/0/_tool"],
      ["META_UNKNOWN", "/plan/1/_bogus"],
      // receipt is a z.object({ id }): its x would be dropped (decision 0023 §1)
      ["PARAM_UNKNOWN", "/plan/2/receipt/x"],
      ["PLAN_LIMIT", `/plan/2/receipt/x${"/0".repeat(60)}`],
    ]);
  });

  it("the same plan as text reports the same, in the text's order", () => {
    for (const third of [
      { _tool: "log", message: LONG },
      { _tool: "confirmOrder", receipt: { x: nested(70) } },
    ]) {
      const value = threeMistakes(third);
      expect(codes(compile(JSON.stringify(value), registry).diagnostics)).toEqual(
        codes(compile(value, registry).diagnostics),
      );
    }
    const text = `{"type":"plan","plan":[{"_tool":"log","message":"${LONG}"},{"_tool":"fetchUsr","userId":"u1"}]}`;
    const result = compile(text, registry);
    expect(codes(result.diagnostics)).toEqual([
      ["PLAN_LIMIT", "/plan/0/message"],
      ["TOOL_UNKNOWN", "/plan/1/_tool"],
    ]);
    expect(result.sourceMap?.positionOf("/plan/1/_tool")?.offset).toBe(text.indexOf('"fetchUsr"'));
    // a depth refusal's map held only the too-deep value's place: every other diagnostic sorted before it
    const deep = `{"type":"plan","plan":[{"_tool":"confirmOrder","receipt":{"id":"r","x":${JSON.stringify(nested(70))}}},{"_tool":"fetchUsr","userId":"u1"}]}`;
    expect(codes(compile(deep, registry).diagnostics)).toEqual([
      ["PARAM_UNKNOWN", "/plan/0/receipt/x"],
      ["PLAN_LIMIT", `/plan/0/receipt/x${"/0".repeat(60)}`],
      ["TOOL_UNKNOWN", "/plan/1/_tool"],
    ]);
  });

  it("no diagnostic at or below a placeholder, even where the parameter's schema wants a number", () => {
    // processPayment's amount is a number: the "" that stands for the long string is not PARAM_INVALID
    const long = compile(plan({ _tool: "processPayment", amount: LONG }), registry);
    expect(codes(long.diagnostics)).toEqual([["PLAN_LIMIT", "/plan/0/amount"]]);
    // add's a is a number: the null that stands for the too-deep container is not PARAM_INVALID either
    const deep = compile(plan({ _tool: "add", a: [[1]], b: "two" }), registry, { limits: { maxDepth: 3 } });
    expect(codes(deep.diagnostics)).toEqual([
      ["PLAN_LIMIT", "/plan/0/a"],
      ["PARAM_INVALID", "/plan/0/b"],
    ]);
    // a member whose key is too long is left out: no PARAM_UNKNOWN for it in add's closed schema
    const key = compile(plan({ _tool: "add", a: 1, b: 2, [LONG]: 3 }), registry);
    expect(codes(key.diagnostics)).toEqual([["PLAN_LIMIT", `/plan/0/${LONG}`]]);
    // the plan's own shape problems are reported too
    const shape = compile({ ...plan({ _tool: "log", message: LONG }), extra: 1 }, registry);
    expect(codes(shape.diagnostics)).toEqual([
      ["PLAN_LIMIT", "/plan/0/message"],
      ["PLAN_SHAPE", "/extra"],
    ]);
  });

  it("is never ok, and hands out no document, calls, graph or hash of the copy with placeholders", () => {
    const value = threeMistakes({ _tool: "processPayment", amount: LONG });
    const result = compile(value, registry);
    expect(result.ok).toBe(false);
    expect(result.document).toBeUndefined();
    expect(result.calls).toEqual([]);
    expect(result.graph.order).toBe(0);
    expect(result.criticalPaths?.size ?? 0).toBe(0);
    const placeholders = normalizePlan(value).placeholders;
    expect(placeholders?.pointers).toEqual(["/plan/2/amount"]);
    // the hash names what was submitted (as for any refused document), never the copy
    expect(result.planHash).toBe(`sha256:${sha256Hex(canonicalJson(value))}`);
    expect(result.planHash).not.toBe(planHash(placeholders!.document));
    const text = compile(JSON.stringify(value), registry);
    expect(text).toMatchObject({ ok: false, calls: [] });
    expect(text.document).toBeUndefined();
    expect(text.graph.order).toBe(0);
  });

  it("whole-document limits stay early exits: over maxCalls or maxDocumentBytes, only that limit", () => {
    const value = threeMistakes({ _tool: "log", message: LONG });
    expect(codes(compile(value, registry, { limits: { maxCalls: 2 } }).diagnostics)).toEqual([
      ["PLAN_LIMIT", "/plan"],
    ]);
    expect(codes(compile(value, registry, { limits: { maxDocumentBytes: 1_000_000 } }).diagnostics)).toEqual([
      ["PLAN_LIMIT", ""],
    ]);
    const text = JSON.stringify(value);
    expect(codes(compile(text, registry, { limits: { maxCalls: 2 } }).diagnostics)).toEqual([
      ["PLAN_LIMIT", "/plan"],
    ]);
    expect(codes(compile(text, registry, { limits: { maxDocumentBytes: 1_000_000 } }).diagnostics)).toEqual([
      ["PLAN_LIMIT", ""],
    ]);
  });

  it("a container the limits walk once but that occurs twice (shared) reports the limits only, as before", () => {
    const shared = { message: LONG };
    // the careful copy (made for the undefined member it drops) keeps it shared, and the limits walk the copy
    const call = { _tool: "log", message: "a", p: shared, q: shared, u: undefined };
    const container = plan({ _tool: "fetchUsr" }, call);
    expect(codes(compile(container, registry).diagnostics)).toEqual([["PLAN_LIMIT", "/plan/1/p/message"]]);
  });

  it("a container shared in the value but written out at each place by its copy is reported as its text is", () => {
    const shared = { message: LONG };
    const container = plan({ _tool: "fetchUsr" }, { _tool: "log", message: "a", p: shared, q: shared });
    const asText = codes(compile(JSON.stringify(container), registry).diagnostics);
    expect(asText).toContainEqual(["PLAN_LIMIT", "/plan/1/q/message"]);
    expect(codes(compile(container, registry).diagnostics)).toEqual(asText);
  });
});
