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
