import type { Diagnostic } from "@obelisk/core";
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
