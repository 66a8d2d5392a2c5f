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
  return json.ok
    ? { ok: true, alternative: 0, value: json.value }
    : { ok: false, error: { name: "ObeliskError", code: json.code, message: json.message } };
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
