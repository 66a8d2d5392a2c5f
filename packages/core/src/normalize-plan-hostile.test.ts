import { describe, expect, it } from "vitest";
import { hugeArray, manyKeys } from "./__fixtures__/counting-proxies.js";
import { resolveLimits } from "./limits.js";
import { normalizePlan } from "./normalize-plan.js";
import { planLimitDiagnostics } from "./plan-limit-diagnostics.js";
import { toJsonValue } from "./value-to-json-value.js";

const pairs = (diagnostics: readonly { code: string; pointer: string }[]) =>
  diagnostics.map((d) => [d.code, d.pointer]);

/** Nested one-member objects, `levels` deep (the root is level 1). */
function nest(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 1; level < levels; level++) value = { n: value };
  return value;
}

describe("the limit walk charges each item it visits, within maxDocumentBytes", () => {
  it("stops in an array claiming a billion items: the size PLAN_LIMIT after about one read per byte", () => {
    const huge = hugeArray(5_000);
    const limits = resolveLimits({ maxDocumentBytes: 1_000 });
    const found = planLimitDiagnostics({ plan: [{ _tool: "a", x: huge.value }] }, limits);
    expect(pairs(found)).toEqual([["PLAN_LIMIT", ""]]);
    expect(found[0]?.message).toBe("the plan is larger than the limit of 1000 bytes of JSON");
    expect(huge.count.over).toBe(false);
    expect(huge.count.reads).toBeLessThanOrEqual(2_000);
  });

  it("stops in items that are each a new container (a tree without end)", () => {
    const huge = hugeArray(5_000, () => ({ leaf: [1] }));
    const found = planLimitDiagnostics([huge.value], resolveLimits({ maxDocumentBytes: 1_000 }));
    expect(pairs(found)).toEqual([["PLAN_LIMIT", ""]]);
    expect(huge.count.over).toBe(false);
  });

  it("stops in an object with more keys than the limit has bytes", () => {
    const keys = manyKeys(20_000, 50_000);
    const found = planLimitDiagnostics({ x: keys.value }, resolveLimits({ maxDocumentBytes: 1_000 }));
    expect(pairs(found)).toEqual([["PLAN_LIMIT", ""]]);
    expect(keys.count.over).toBe(false);
    expect(keys.count.reads).toBeLessThanOrEqual(2_000);
  });

  it("a document within maxDocumentBytes is walked whole, as before", () => {
    const value = { plan: Array.from({ length: 200 }, () => ({ _tool: "a", s: "abcdefgh" })) };
    const bytes = JSON.stringify(value).length;
    const found = planLimitDiagnostics(value, resolveLimits({ maxDocumentBytes: bytes, maxStringLength: 5 }));
    expect(found).toHaveLength(100);
    expect(found.every((d) => d.code === "PLAN_LIMIT" && d.pointer.endsWith("/s"))).toBe(true);
  });
});

describe("normalizePlan reads the value once, by its copy", () => {
  it("refuses a plan holding an array claiming a billion items from the copy's answer", () => {
    const huge = hugeArray(100);
    const result = normalizePlan({ plan: [{ _tool: "a", x: huge.value }] });
    expect(pairs(result.diagnostics)).toEqual([["PLAN_LIMIT", ""]]);
    expect(result.uncopied).toBe(true);
    expect(result.document).toBeUndefined();
    expect(huge.count).toEqual({ reads: 0, over: false });
  });

  it("answers from a refused copy it is given without reading the value at all", () => {
    let traps = 0;
    const value = new Proxy(
      {},
      {
        get: () => ++traps,
        ownKeys: () => {
          traps++;
          return [];
        },
      },
    );
    const copy = toJsonValue({ when: new Date(0) });
    const result = normalizePlan(value, { copy });
    expect(pairs(result.diagnostics)).toEqual([["JSON_SYNTAX", "/when"]]);
    expect(result.uncopied).toBe(true);
    expect(traps).toBe(0);
  });

  it("a value nested past what a copy holds is the depth PLAN_LIMIT at the first container over maxDepth", () => {
    const result = normalizePlan({ plan: [{ _tool: "a", deep: nest(1_200) }] }, { limits: { maxDepth: 5 } });
    expect(pairs(result.diagnostics)).toEqual([["PLAN_LIMIT", "/plan/0/deep/n/n"]]);
    expect(result.diagnostics[0]?.hint).toBe("flatten the structure, or raise maxDepth");
    // the limit raised past the copy's depth: not JSON, where the copy stopped
    const raised = normalizePlan({ plan: [nest(1_200)] }, { limits: { maxDepth: 2_000 } });
    expect(raised.diagnostics.map((d) => d.code)).toEqual(["JSON_SYNTAX"]);
    expect(raised.diagnostics[0]?.pointer.split("/")).toHaveLength(1_001);
  });
});
