import { createToolRegistry, type RegisteredTool } from "@obelisk/compiler";
import { toJsonValue } from "@obelisk/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fakeCall } from "./__fixtures__/fake-call.js";
import { interpretResult } from "./interpret-result.js";

const tool = createToolRegistry([{ name: "t", run: () => null }]).get("t") as RegisteredTool;
const call = fakeCall("c", 0, { writes: [["†state.a"]] });

/** What the result is when every value goes through toJsonValue (the reference behaviour). */
function expected(raw: unknown, maxBytes: number | undefined) {
  const json = toJsonValue(raw === undefined ? null : raw, maxBytes === undefined ? {} : { maxBytes });
  // a failure's code is toJsonValue's; its message names the tool and destination (tested below)
  return json.ok
    ? { ok: true, alternative: 0, value: json.value }
    : { ok: false, error: expect.objectContaining({ name: "ObeliskError", code: json.code }) };
}

describe("interpretResult", () => {
  it("gives primitives (numbers, -0, booleans, null, undefined) exactly what toJsonValue gives", () => {
    const primitive = fc.oneof(
      fc.double(),
      fc.integer(),
      fc.constantFrom(-0, 0, Number.NaN, Number.POSITIVE_INFINITY, -1.7976931348623157e308, 5e-324),
      fc.boolean(),
      fc.constantFrom(null, undefined),
    );
    const limit = fc.option(fc.integer({ min: -1, max: 40 }), { nil: undefined });
    fc.assert(
      fc.property(primitive, limit, (raw, maxBytes) => {
        const got = interpretResult(call, tool, raw, maxBytes);
        expect(got).toEqual(expected(raw, maxBytes));
        if (got.ok) expect(Object.is(got.value, -0)).toBe(false);
      }),
    );
  });
});

describe("OUTPUT_INVALID's message (decision 0101)", () => {
  // zod's .email() as JSON Schema: a format and a long regex; the message names the format, as PARAM_INVALID does
  const pattern =
    "^(?!\\.)(?!.*\\.\\.)([A-Za-z0-9_'+\\-\\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$";
  const outputSchema = {
    type: "object",
    properties: { to: { type: "string", format: "email", pattern }, n: { enum: [1, 2] } },
  };
  const checked = createToolRegistry([{ name: "mail", run: () => null, output: outputSchema }]).get(
    "mail",
  ) as RegisteredTool;

  it.each([
    [{ to: "not an address" }, 'output at /to: must be an email address (format "email")'],
    [{ to: "a@b.co", n: 3 }, "output at /n: must be one of 1, 2"],
  ])("%j", (returned, message) => {
    expect(interpretResult(call, checked, returned, undefined)).toEqual({
      ok: false,
      error: { name: "ObeliskError", code: "OUTPUT_INVALID", message },
    });
  });
});

describe("an output the value limits refuse (review s42 q2 #4, decision 0113)", () => {
  const nest = (levels: number): unknown => {
    let value: unknown = 1;
    for (let level = 0; level < levels; level++) value = { a: value };
    return value;
  };
  const limit =
    "(limits.maxValueBytes bounds each value a call writes): return less (a page, a summary, or parts written by several calls), or raise the limit";

  it("over maxValueBytes: OUTPUT_TOO_LARGE naming the tool, the destination, the limit, with data", () => {
    expect(interpretResult(call, tool, "x".repeat(20), 10)).toEqual({
      ok: false,
      error: {
        name: "ObeliskError",
        code: "OUTPUT_TOO_LARGE",
        message: `tool "t"'s output for †state.a is larger than 10 bytes of JSON ${limit}`,
        data: { pointer: "", maxBytes: 10 },
      },
    });
    // where the limit was passed; a call without _outputPath stores its output at †calls.<id>
    const stored = fakeCall("fetch", 0);
    expect(interpretResult(stored, tool, { rows: [{ n: "x".repeat(20) }] }, 20)).toEqual({
      ok: false,
      error: {
        name: "ObeliskError",
        code: "OUTPUT_TOO_LARGE",
        message: `tool "t"'s output for †calls.fetch is larger than 20 bytes of JSON ${limit}`,
        data: { pointer: "/rows/0/n", maxBytes: 20 },
      },
    });
  });

  it("nested deeper than MAX_VALUE_DEPTH, by one level or thousands: OUTPUT_WRITE_FAILED, as a write too deep is", () => {
    for (const levels of [1001, 5000]) {
      const result = interpretResult(call, tool, nest(levels), undefined);
      expect(result).toEqual({
        ok: false,
        error: {
          name: "ObeliskError",
          code: "OUTPUT_WRITE_FAILED",
          message: `tool "t"'s output for †state.a is nested deeper than 1000 levels (at /a/a/a/a/a/a/a/a/a/a/…(987 more)/a/a/a), the most a stored value may nest (MAX_VALUE_DEPTH): a reader could not take it; return it less nested`,
          data: { pointer: "/a".repeat(1000), maxDepth: 1000 },
        },
      });
    }
    // 1000 levels is a value: whether its destination can hold it is the store's write check (decision 0094)
    expect(interpretResult(call, tool, nest(1000), undefined).ok).toBe(true);
  });
});
