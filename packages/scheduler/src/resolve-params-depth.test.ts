import type { CompiledCall } from "@obelisk/compiler";
import { type JsonValue, ObeliskError } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { callWith, contextOf } from "./__fixtures__/val-call.js";
import { resolveParams } from "./resolve-params.js";
import type { WorkingContext } from "./working-context.js";

/** `levels` nested arrays around `inner` (`[[1]]` is 2 levels high). */
function nested(levels: number, inner: JsonValue = 1): JsonValue {
  let value = inner;
  for (let level = 0; level < levels; level++) value = [value];
  return value;
}

/** "ok", or the code, pointer and maxDepth resolveParams throws. */
function outcome(call: CompiledCall, context: WorkingContext): string {
  try {
    resolveParams(call, context);
    return "ok";
  } catch (error) {
    if (!ObeliskError.is(error)) throw error;
    const data = error.data as { pointer: string; maxDepth?: number };
    return `${error.code} ${data.pointer} ${data.maxDepth}`;
  }
}

describe("resolved parameters are held to MAX_VALUE_DEPTH (decision 0094)", () => {
  it("a value read at a location of n segments may be 1000 - n levels high", () => {
    const context = contextOf({ a: nested(999), b: nested(998) });
    expect(outcome(callWith("†state.a"), context)).toBe("ok");
    expect(outcome(callWith(["†state.b"]), context)).toBe("ok");
    expect(outcome(callWith(["†state.a"]), context)).toBe("OUTPUT_TOO_LARGE /0/v/0 1000");
    expect(outcome(callWith({ x: ["†state.b"] }), context)).toBe("OUTPUT_TOO_LARGE /0/v/x/0 1000");
    // a template inserts text: never too deep
    expect(outcome(callWith({ x: ["{†state.a}"] }), context)).toBe("ok");
  });

  it("the message says how deep, what was read where, and that the tool did not run", () => {
    try {
      resolveParams(callWith(["†state.a"]), contextOf({ a: nested(999) }));
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toBe(
        "the resolved parameters would nest 1001 levels deep (999 levels of the value read at /0/v/0), deeper than 1000 levels, the most a value may nest (MAX_VALUE_DEPTH): the tool was not run",
      );
    }
  });

  it("a large value's remembered height refuses it on every read", () => {
    // 300 strings at the bottom: the walk remembers the value (256 nodes or more), the second read uses that
    const wide = nested(
      999,
      Array.from({ length: 300 }, (_, index) => `s${index}`),
    );
    const context = contextOf({ a: wide });
    for (let read = 0; read < 2; read++) {
      expect(outcome(callWith("†state.a"), context)).toBe("OUTPUT_TOO_LARGE /0/v 1000");
      expect(outcome(callWith("†state.a.0"), context)).toBe("ok");
    }
  });

  it("the deepest member counts, wherever it is (beyond the walk's recursion too)", () => {
    const context = contextOf({ a: { x: [1, { y: nested(500) }, nested(997)], z: "s" } });
    expect(outcome(callWith("†state.a"), context)).toBe("ok");
    expect(outcome(callWith(["†state.a"]), context)).toBe("OUTPUT_TOO_LARGE /0/v/0 1000");
  });
});
