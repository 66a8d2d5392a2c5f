import { describe, expect, it } from "vitest";
import { ActiveRuns } from "./active-runs.js";

describe("a run's lease", () => {
  it("says what stopped it: the caller's signal", () => {
    const caller = new AbortController();
    const lease = new ActiveRuns().lease(caller.signal);
    expect(lease.stoppedBy).toBeUndefined();
    caller.abort(new Error("enough"));
    expect(lease.signal.aborted).toBe(true);
    expect(lease.stoppedBy).toBe("signal");
  });

  it("says what stopped it: engine.close(), and a later caller abort does not change that", async () => {
    const runs = new ActiveRuns();
    const caller = new AbortController();
    const lease = runs.lease(caller.signal);
    const closing = runs.closeAll();
    expect(lease.stoppedBy).toBe("engine-close");
    caller.abort();
    expect(lease.stoppedBy).toBe("engine-close");
    lease.release();
    await closing;
  });

  it("starts stopped when the caller's signal is already aborted", () => {
    const lease = new ActiveRuns().lease(AbortSignal.abort());
    expect(lease.signal.aborted).toBe(true);
    expect(lease.stoppedBy).toBe("signal");
  });

  // An own getter closure is kept by V8 in old-generation memory and keeps the run (its signal's listeners)
  // alive through scavenges after it ends (compiler.md, stop 35): `stoppedBy` is a plain field.
  it("holds stoppedBy as a plain field, not an accessor", () => {
    const lease = new ActiveRuns().lease(undefined);
    expect(Object.getOwnPropertyDescriptor(lease, "stoppedBy")).toMatchObject({ value: undefined });
  });
});
