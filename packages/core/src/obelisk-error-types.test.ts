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
    const error: unknown = new ObeliskError("REF_SYNTAX", "bad");
    if (ObeliskError.is(error, "REF_SYNTAX")) expectTypeOf(error.data).toEqualTypeOf<unknown>();
  });

  it("types the data the code puts there: THREAD_BUSY's holder, STORE_ERROR, RUN_NOT_FOUND, USAGE, OUTPUT_TOO_LARGE", () => {
    const holder = { host: "h", pid: 7, workerThreadId: 0, sameProcess: true };
    const errors: unknown[] = [
      new ObeliskError("THREAD_BUSY", "locked", { data: { threadId: "t", waitMs: 0, holder } }),
      new ObeliskError("STORE_ERROR", "not a store", { data: { reason: "not-a-store", file: "x.db" } }),
      new ObeliskError("RUN_NOT_FOUND", "no run", { data: { runId: "r-404" } }),
      new ObeliskError("USAGE", "stopped", { data: { runId: "r1", stoppedBy: "failFast", callId: "c" } }),
      new ObeliskError("OUTPUT_TOO_LARGE", "deep", { data: { pointer: "/plan/0/v", maxDepth: 64 } }),
    ];
    const seen: unknown[] = [];
    for (const error of errors) {
      if (ObeliskError.is(error, "THREAD_BUSY") && !error.data.started) {
        expectTypeOf(error.data.holder?.sameProcess).toEqualTypeOf<boolean | undefined>();
        seen.push(error.data.holder?.pid);
      }
      if (ObeliskError.is(error, "STORE_ERROR")) {
        expectTypeOf(error.data?.file).toEqualTypeOf<string | undefined>();
        seen.push(error.data?.reason);
      }
      if (ObeliskError.is(error, "RUN_NOT_FOUND")) {
        expectTypeOf(error.data.runId).toEqualTypeOf<string>();
        seen.push(error.data.runId);
      }
      if (ObeliskError.is(error, "USAGE")) {
        expectTypeOf(error.data?.callId).toEqualTypeOf<string | undefined>();
        seen.push(error.data?.stoppedBy);
      }
      if (ObeliskError.is(error, "OUTPUT_TOO_LARGE")) {
        expectTypeOf(error.data?.pointer).toEqualTypeOf<string | undefined>();
        seen.push(error.data?.maxDepth);
      }
    }
    expect(seen).toEqual([7, "not-a-store", "r-404", "failFast", 64]);
  });
});
