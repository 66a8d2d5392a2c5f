import { describe, expect, it } from "vitest";
import { runShapesPlan } from "./keep-run-shapes.js";

describe("runShapesPlan", () => {
  it("compiles and runs its two calls, the second reading the first, on a store of its own", async () => {
    const { objects, result } = runShapesPlan();
    const execution = await result;
    expect(execution.status).toBe("succeeded");
    expect(execution.calls.map((call) => [call.callId, call.status])).toEqual([
      ["a", "succeeded"],
      ["b", "succeeded"],
    ]);
    expect(execution.state).toEqual({ a: 1, b: 2 });
    expect(objects.length).toBeGreaterThanOrEqual(4);
  });
});
