import type { Diagnostic, JsonValue } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { checkCallMeta } from "./call-meta.js";

const MAX = 2 ** 31 - 1;

describe("checkCallMeta: _timeoutMs (bug B11)", () => {
  it.each([1, 0.5, 30_000, MAX])("accepts %s", (value) => {
    const out: Diagnostic[] = [];
    expect(checkCallMeta({ _tool: "t", _timeoutMs: value }, "/plan/0", "c", out).timeoutMs).toBe(value);
    expect(out).toEqual([]);
  });

  it.each([MAX + 1, 2 ** 31, 1e300, 0, -1, "5"])("refuses %s with CALL_SHAPE at the key", (value) => {
    const out: Diagnostic[] = [];
    const meta = checkCallMeta({ _tool: "t", _timeoutMs: value }, "/plan/0", "c", out);
    expect(meta.timeoutMs).toBeUndefined();
    expect(out.map((d) => [d.code, d.pointer])).toEqual([["CALL_SHAPE", "/plan/0/_timeoutMs"]]);
  });
});

describe("checkCallMeta: _retry is bounded (a plan cannot hold a run and its thread for days)", () => {
  const check = (retry: JsonValue, limits?: { maxRetryAttempts: number; maxRetryDelayMs: number }) => {
    const out: Diagnostic[] = [];
    const meta = checkCallMeta({ _tool: "t", _retry: retry }, "/plan/0", "c", out, limits);
    return { retry: meta.retry, codes: out.map((d) => [d.code, d.pointer]) };
  };

  it("accepts a policy within the default limits (10 attempts, 60 s delays)", () => {
    const policy = { attempts: 10, backoffMs: 60_000, maxDelayMs: 60_000, factor: 3, jitter: true };
    expect(check(policy)).toEqual({ retry: policy, codes: [] });
  });

  it("refuses more attempts or longer delays with PLAN_LIMIT at the field", () => {
    expect(check({ attempts: 1e9, backoffMs: 0 }).codes).toEqual([["PLAN_LIMIT", "/plan/0/_retry/attempts"]]);
    expect(check({ attempts: 2, backoffMs: 2_147_483_647 }).codes).toEqual([
      ["PLAN_LIMIT", "/plan/0/_retry/backoffMs"],
    ]);
    expect(check({ maxDelayMs: 1e300 }).codes).toEqual([["PLAN_LIMIT", "/plan/0/_retry/maxDelayMs"]]);
    expect(check({ attempts: 11 }).retry).toBeUndefined();
  });

  it("follows the configured limits", () => {
    const limits = { maxRetryAttempts: 100, maxRetryDelayMs: 5 };
    expect(check({ attempts: 100, backoffMs: 5 }, limits).codes).toEqual([]);
    expect(check({ backoffMs: 6 }, limits).codes).toEqual([["PLAN_LIMIT", "/plan/0/_retry/backoffMs"]]);
  });
});

describe("checkCallMeta: _retry fields are the policy's own names", () => {
  it.each(["constructor", "toString", "__proto__"])("an inherited name (%s) is CALL_SHAPE", (field) => {
    const out: Diagnostic[] = [];
    const retry = JSON.parse(`{"${field}": 3}`) as JsonValue;
    checkCallMeta({ _tool: "t", _retry: retry }, "/plan/0", "c", out);
    expect(out.map((d) => [d.code, d.message])).toEqual([["CALL_SHAPE", `unknown _retry field "${field}"`]]);
  });
});
