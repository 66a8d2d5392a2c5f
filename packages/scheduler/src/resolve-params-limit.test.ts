import { type CompiledCall, createToolRegistry, type ToolContext } from "@obelisk/compiler";
import { asRunId, ObeliskError } from "@obelisk/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runPlan, statusOf } from "./__fixtures__/run-plan.js";
import { callWith, contextOf } from "./__fixtures__/val-call.js";
import { resolveParams } from "./resolve-params.js";
import type { WorkingContext } from "./working-context.js";

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), "utf8");

/** The code and pointer resolveParams throws, or "ok" with the size of the parameters. */
function outcome(call: CompiledCall, context: WorkingContext, maxBytes: number): string {
  try {
    return `ok ${jsonBytes(resolveParams(call, context, maxBytes))}`;
  } catch (error) {
    if (!ObeliskError.is(error)) throw error;
    return `${error.code} ${(error.data as { pointer: string }).pointer}`;
  }
}

describe("resolved parameters are held to the value limit (H6)", () => {
  it("whole-value references: exactly at the limit resolves, one byte less is OUTPUT_TOO_LARGE", () => {
    const call = callWith(["†state.s", "†state.s", "†state.s", "†state.s"]);
    const context = contextOf({ s: "x".repeat(20) });
    // {"v":[ + 4 × 22 + 3 commas + ]} = 99 bytes; the cheap bounds (4 × 122) straddle the limit
    expect(outcome(call, context, 99)).toBe("ok 99");
    expect(outcome(call, context, 98)).toBe("OUTPUT_TOO_LARGE /0/v/3");
    expect(outcome(call, context, 60)).toBe("OUTPUT_TOO_LARGE /0/v/2");
  });

  it("counts escapes and non-ASCII exactly", () => {
    const s = 'é"\n\u0001😀';
    const call = callWith({ a: "†state.s", b: "†state.s", t: "{†state.s}-{†state.n}" });
    const context = contextOf({ s, n: { k: [s, 1] } });
    const size = jsonBytes({ v: { a: s, b: s, t: `${s}-${JSON.stringify({ k: [s, 1] })}` } });
    expect(outcome(call, context, size)).toBe(`ok ${size}`);
    expect(outcome(call, context, size - 1)).toBe("OUTPUT_TOO_LARGE /0/v/t");
  });

  it("stops a template before its text passes the limit", () => {
    const call = callWith("{†state.s}".repeat(1000));
    const context = contextOf({ s: "y".repeat(10_000) });
    expect(outcome(call, context, 50_000)).toBe("OUTPUT_TOO_LARGE /0/v");
    expect(outcome(call, context, 10_000_100)).toBe("ok 10000008");
  });

  it("a limit beyond what a JavaScript string holds still stops references and templates (no RangeError)", () => {
    const context = contextOf({ big: "x".repeat(8 * 1024 * 1024) });
    const refs = callWith(Array.from({ length: 70 }, () => "†state.big"));
    expect(outcome(refs, context, 2 ** 40)).toBe("OUTPUT_TOO_LARGE /0/v/63");
    expect(outcome(callWith("{†state.big}".repeat(100)), context, 2 ** 40)).toBe("OUTPUT_TOO_LARGE /0/v");
  });

  it("measures stored containers, and copies of containers the runner owns stop at the limit", () => {
    const big = { list: Array.from({ length: 300 }, (_, index) => ({ index, text: "z".repeat(10) })) };
    const call = callWith(["†state.big", "†state.big", "†state.big"]);
    const context = contextOf({ big });
    const one = jsonBytes(big);
    expect(outcome(call, context, 3 * one + 10)).toBe(`ok ${3 * one + 10}`);
    expect(outcome(call, context, 2 * one)).toBe("OUTPUT_TOO_LARGE /0/v/1");
    // a write makes `state` a container the runner owns (not frozen): read whole, it is copied
    context.write([{ path: ["extra"], reference: "†state.extra", method: "set", value: 1 }]);
    const whole = callWith(["†state", "†state"]);
    expect(outcome(whole, context, one)).toBe("OUTPUT_TOO_LARGE /0/v/0");
    expect(outcome(whole, context, 1_000_000)).toMatch(/^ok /);
  });

  it("never refuses parameters that fit and always refuses ones whose references alone pass the limit", () => {
    const text = fc.string({ unit: "binary", maxLength: 12 });
    const stored = fc.oneof(text, fc.integer(), fc.constant(null), fc.array(text, { maxLength: 3 }));
    const slot = fc.constantFrom("†state.a", "†state.b", "{†state.a}+{†state.b}", "lit");
    fc.assert(
      fc.property(
        stored,
        stored,
        fc.array(slot, { minLength: 1, maxLength: 6 }),
        fc.nat(200),
        (a, b, slots, max) => {
          const call = callWith(slots);
          const context = contextOf({ a, b });
          const result = outcome(call, context, max);
          const values = slots.map((item) =>
            item === "†state.a" ? a : item === "†state.b" ? b : item === "lit" ? undefined : "t",
          );
          const full = jsonBytes(resolveParams(call, context, Number.MAX_SAFE_INTEGER));
          if (full <= max) expect(result).toBe(`ok ${full}`);
          const referenced = values.some((value) => value === "t")
            ? 0
            : values.reduce((sum: number, value) => sum + (value === undefined ? 0 : jsonBytes(value)), 0);
          if (referenced > max) expect(result).toMatch(/^OUTPUT_TOO_LARGE /);
        },
      ),
      { seed: 7, numRuns: 200 },
    );
    // 3–6 s alone; 34 s under the whole suite on a loaded 2-core machine (vitest's default is 30 s)
  }, 120_000);
});

describe("a call whose parameters would pass the limit (H6)", () => {
  it("fails OUTPUT_TOO_LARGE before its tool runs; independent calls go on; the record has no parameters", async () => {
    const ran: string[] = [];
    const tools = createToolRegistry([
      {
        name: "val",
        run: (args: { v?: unknown }, context: ToolContext) => {
          ran.push(context.callId);
          return Array.isArray(args.v) ? args.v.length : 0;
        },
      },
    ]);
    const big = "x".repeat(1000);
    const { result, store } = await runPlan(
      tools,
      [
        {
          _tool: "val",
          _id: "refs",
          v: Array.from({ length: 60 }, () => "†state.big"),
          _outputPath: "†state.n",
        },
        { _tool: "val", _id: "tpl", v: "{†state.big}".repeat(100), _outputPath: "†state.m" },
        { _tool: "val", _id: "ok", v: ["†state.big", "†state.big"], _outputPath: "†state.k" },
        { _tool: "val", _id: "after", v: "†state.n", _outputPath: "†state.after" },
      ],
      { state: { big }, maxValueBytes: 10_000 },
    );
    expect(statusOf(result)).toEqual({
      refs: ["failed", "OUTPUT_TOO_LARGE"],
      tpl: ["failed", "OUTPUT_TOO_LARGE"],
      ok: ["succeeded", undefined],
      after: ["blocked", undefined],
    });
    expect(ran).toEqual(["ok"]);
    expect(result.calls[0]?.error?.data).toEqual({ pointer: "/0/v/9", maxBytes: 10_000 });
    const records = await store.listCallRecords(asRunId("r"));
    const refs = records.find((record) => record.callId === "refs");
    expect(refs?.status).toBe("failed");
    expect(refs?.params).toBeUndefined();
  });
});
