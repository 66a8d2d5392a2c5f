import { createToolRegistry } from "@obelisk/compiler";
import { canonicalJson, DEFAULT_KINDS, sha256Hex, toJsonValue } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { hugeArray } from "./__fixtures__/huge-array.js";
import { freezePlan } from "./frozen-plan.js";
import { defineTool } from "./index.js";

const registry = createToolRegistry([defineTool({ name: "echo", run: (args: unknown) => args })]);
const freeze = (plan: unknown, limits?: { maxDocumentBytes?: number }) =>
  freezePlan(plan, registry, DEFAULT_KINDS, limits);

/** A plan that is not JSON (a Date) whose call counts the reads of its `x` in `reads`. */
function readCountingPlan(reads: { count: number }): unknown {
  const call = {
    _tool: "echo",
    when: new Date(0),
    get x(): number {
      reads.count++;
      return 1;
    },
  };
  return { type: "plan", plan: [call] };
}

describe("freezePlan", () => {
  it("refuses a plan its copy refuses from the copy's answer: the caller's object is not read again", () => {
    const copied = { count: 0 };
    toJsonValue(readCountingPlan(copied), { maxBytes: 1e6 });
    const frozen = { count: 0 };
    const { refused } = freeze(readCountingPlan(frozen));
    expect(refused?.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["JSON_SYNTAX", "/plan/0/when"]]);
    expect(frozen.count).toBe(copied.count);
  });

  it("refuses an array claiming a billion items at maxDocumentBytes, after reading none of its items", () => {
    const huge = hugeArray(1_000);
    const { refused } = freeze({ plan: [{ _tool: "echo", x: huge.value }] }, { maxDocumentBytes: 10_000 });
    expect(refused?.ok).toBe(false);
    expect(refused?.diagnostics).toEqual([
      {
        code: "PLAN_LIMIT",
        severity: "error",
        message: "the plan is larger than the limit of 10000 bytes of JSON",
        pointer: "",
        hint: "raise maxDocumentBytes",
      },
    ]);
    expect(refused?.planHash).toBe(`sha256:${sha256Hex(canonicalJson(refused?.diagnostics))}`);
    expect(huge.reads).toEqual({ reads: 0, over: false });
  });
});
