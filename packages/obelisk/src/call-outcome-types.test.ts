import { describe, expect, expectTypeOf, it } from "vitest";
import { createEngine } from "./create-engine.js";
import type { CallError, CallOutcome } from "./engine-types.js";

// Type-level tests: `pnpm lint` type-checks this file, so a regression of the narrowing fails there; the
// runtime part checks that a real run's outcomes have the fields their status promises.

/** What a host writes against a run result: `status` narrows the outcome. */
function describeOutcome(outcome: CallOutcome): string {
  switch (outcome.status) {
    case "failed":
      expectTypeOf(outcome.error).toEqualTypeOf<CallError>();
      expectTypeOf(outcome.branch).toEqualTypeOf<undefined>();
      return `failed: ${outcome.error.code}`;
    case "succeeded":
      expectTypeOf(outcome.reason).toEqualTypeOf<undefined>();
      expectTypeOf(outcome.branch).toEqualTypeOf<number | undefined>();
      return outcome.error === undefined ? "ok" : `routed to ${outcome.branch}: ${outcome.error.code}`;
    case "satisfied":
      // a resume that left a target a later write changed says which (decision 0043)
      expectTypeOf(outcome.reason).toEqualTypeOf<string | undefined>();
      expectTypeOf(outcome.branch).toEqualTypeOf<number | undefined>();
      return outcome.error === undefined ? "ok" : `routed to ${outcome.branch}: ${outcome.error.code}`;
    default:
      expectTypeOf(outcome.reason).toEqualTypeOf<string>();
      expectTypeOf(outcome.error).toEqualTypeOf<undefined>();
      return `${outcome.status}: ${outcome.reason.slice(0, 40)}`;
  }
}

/** Narrowing by excluding statuses works too (each status is its own member of the union). */
function reasonUnlessRan(outcome: CallOutcome): string | undefined {
  if (outcome.status !== "failed" && outcome.status !== "succeeded" && outcome.status !== "satisfied") {
    expectTypeOf(outcome.reason).toEqualTypeOf<string>();
    return outcome.reason;
  }
  return undefined;
}

describe("CallOutcome", () => {
  it("has the fields its status promises, so narrowing on status is safe", async () => {
    const engine = createEngine({
      tools: [
        { name: "ok", run: () => 1 },
        {
          name: "boom",
          run: () => {
            throw Object.assign(new Error("no"), { code: "E_BOOM" });
          },
        },
      ],
    });
    const result = await engine.run(
      [
        { _tool: "ok", _id: "fine", _outputPath: "†state.fine" },
        { _tool: "boom", _id: "failing", _outputPath: "†state.lost" },
        { _tool: "boom", _id: "routed", _outputPath: "†state.good || †state.bad" },
        { _tool: "ok", _id: "after", x: "†state.lost", _outputPath: "†state.after" },
      ],
      { threadId: "t" },
    );
    const described = Object.fromEntries(
      Object.entries(result.calls).map(([id, outcome]) => [id, describeOutcome(outcome)]),
    );
    expect(reasonUnlessRan(result.calls.after as CallOutcome)).toMatch(/failing/);
    expect(described).toEqual({
      fine: "ok",
      failing: "failed: E_BOOM",
      routed: "routed to 1: E_BOOM",
      after: expect.stringMatching(/^blocked: .*failing/),
    });
  });
});
