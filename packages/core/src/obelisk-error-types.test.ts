import { describe, expect, expectTypeOf, it } from "vitest";
import { ObeliskError } from "./obelisk-error.js";

// The checks that matter are the types: this file must compile (the package's typecheck includes tests).
describe("ObeliskError.is(error, code) types data by code", () => {
  it("THREAD_BUSY: started narrows to the run that had started (runId a string), else no runId", () => {
    const errors: unknown[] = [
      new ObeliskError("THREAD_BUSY", "locked", { data: { threadId: "t", waitMs: 0 } }),
      new ObeliskError("THREAD_BUSY", "taken over", { data: { threadId: "t", runId: "r1", started: true } }),
    ];
    const seen: string[] = [];
    for (const error of errors) {
      if (!ObeliskError.is(error, "THREAD_BUSY")) throw new Error("not THREAD_BUSY");
      expectTypeOf(error.data.threadId).toEqualTypeOf<string>();
      if (error.data.started) {
        expectTypeOf(error.data.runId).toEqualTypeOf<string>();
        seen.push(`started ${error.data.runId}`);
      } else {
        expectTypeOf(error.data.runId).toEqualTypeOf<undefined>();
        seen.push(`not started ${error.data.threadId}`);
      }
    }
    expect(seen).toEqual(["not started t", "started r1"]);
  });

  it("a code without typed data keeps unknown", () => {
    const error: unknown = new ObeliskError("USAGE", "bad");
    if (ObeliskError.is(error, "USAGE")) expectTypeOf(error.data).toEqualTypeOf<unknown>();
  });
});
