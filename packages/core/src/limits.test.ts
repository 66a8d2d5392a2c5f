import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, resolveLimits } from "./limits.js";
import { parseOutputPath } from "./parse-output-path.js";
import { parsePlanText } from "./parse-plan-text.js";
import { parseReference } from "./parse-reference.js";

const MIB = 1024 * 1024;
const limitPointers = (text: string) =>
  parsePlanText(text)
    .diagnostics.filter((d) => d.code === "PLAN_LIMIT")
    .map((d) => d.pointer);

/** The defaults are enforced when no limits are given (SPEC §11: every limit has a safe default). */
describe("limits: safe defaults", () => {
  it("has the documented defaults", () => {
    expect(DEFAULT_LIMITS).toEqual({
      maxDocumentBytes: 16 * MIB,
      maxCalls: 100_000,
      maxDepth: 64,
      maxStringLength: 1_000_000,
      maxPathDepth: 32,
      maxValueBytes: 64 * MIB,
      maxRetryAttempts: 10,
      maxRetryDelayMs: 60_000,
      maxOutputTargets: 1_000,
      maxWriterLinks: 1_000_000,
    });
  });

  it("fills only the limits left out", () => {
    expect(resolveLimits({ maxCalls: 3 })).toEqual({ ...DEFAULT_LIMITS, maxCalls: 3 });
    expect(resolveLimits()).toEqual(DEFAULT_LIMITS);
  });

  it("refuses a document over 16 MiB by default, before parsing it", () => {
    // One byte over: refused on size alone (the exact boundary is tested with small limits in parse-plan-text).
    const result = parsePlanText(`[${" ".repeat(16 * MIB - 1)}]`);
    expect(result.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["PLAN_LIMIT", ""]]);
    expect(result.document).toBeUndefined();
  });

  it("refuses more than 100,000 calls by default, at the calls array", () => {
    const calls = (count: number) => `{"calls":[${Array(count).fill("{}").join(",")}]}`;
    expect(limitPointers(calls(100_000))).toEqual([]);
    expect(limitPointers(calls(100_001))).toEqual(["/calls"]);
  });

  it("refuses nesting deeper than 64 by default, at the first container too deep", () => {
    const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
    expect(limitPointers(nested(64))).toEqual([]);
    expect(limitPointers(nested(65))).toEqual([`/${Array(64).fill("0").join("/")}`]);
  });

  it("refuses strings and keys longer than 1,000,000 characters by default, at their pointer", () => {
    const long = "s".repeat(1_000_000);
    expect(limitPointers(`[{"_tool":"${long}"}]`)).toEqual([]);
    expect(limitPointers(`[{"_tool":"a","p":"${long}s"}]`)).toEqual(["/0/p"]);
    expect(limitPointers(`[{"_tool":"a","${long}s":1}]`)).toEqual([`/0/${long}s`]);
  });

  it("refuses reference and output paths deeper than 32 segments by default", () => {
    const path = (depth: number) => `†state${".a".repeat(depth)}`;
    expect(parseReference(path(32)).ok).toBe(true);
    expect(parseOutputPath(path(32)).ok).toBe(true);
    expect(parseReference(path(33))).toMatchObject({ ok: false, issue: { code: "PLAN_LIMIT" } });
    expect(parseOutputPath(path(33))).toMatchObject({ ok: false, issue: { code: "PLAN_LIMIT" } });
  });
});
