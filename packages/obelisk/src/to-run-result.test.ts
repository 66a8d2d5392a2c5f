import type { PlanHash } from "@obelisk/core";
import type { CallReport } from "@obelisk/scheduler";
import { describe, expect, it } from "vitest";
import { toRunResult } from "./to-run-result.js";

const report = (callId: string): CallReport => ({
  callId,
  tool: "echo",
  call: { _tool: "echo" },
  status: "succeeded",
  attempts: 1,
  durationMs: 0,
  wrote: [],
});

describe("toRunResult", () => {
  it("keeps every call id, even a forbidden segment, as an own key of a plain object", () => {
    const ids = ["__proto__", "constructor", "toString", "a"];
    const execution = { status: "succeeded" as const, calls: ids.map(report), state: {}, durationMs: 0 };
    const result = toRunResult("r", "t", "sha256:" as PlanHash, execution, {});
    expect(Object.getPrototypeOf(result.calls)).toBe(Object.prototype);
    expect(Object.keys(result.calls)).toEqual(ids);
    expect(Object.hasOwn(result.calls, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(result.calls, "__proto__")?.value).toMatchObject({
      status: "succeeded",
    });
    expect(({} as Record<string, unknown>).status).toBeUndefined();
  });
});
