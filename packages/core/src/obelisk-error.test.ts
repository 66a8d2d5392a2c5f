import { describe, expect, it } from "vitest";
import { ObeliskError } from "./obelisk-error.js";

describe("ObeliskError", () => {
  it("carries a stable code and is recognised by is()", () => {
    const error = new ObeliskError("THREAD_BUSY", "busy", { hint: "wait" });
    expect(ObeliskError.is(error)).toBe(true);
    expect(error.code).toBe("THREAD_BUSY");
    expect(error.hint).toBe("wait");
  });

  it("does not recognise other errors", () => {
    expect(ObeliskError.is(new Error("x"))).toBe(false);
    expect(ObeliskError.is({ code: "THREAD_BUSY" })).toBe(false);
  });

  it("is(value, code) is true only for an ObeliskError of that code", () => {
    const error = new ObeliskError("THREAD_BUSY", "busy");
    expect(ObeliskError.is(error, "THREAD_BUSY")).toBe(true);
    expect(ObeliskError.is(error, "USAGE")).toBe(false);
    expect(ObeliskError.is({ code: "THREAD_BUSY" }, "THREAD_BUSY")).toBe(false);
  });
});
