import { describe, expect, it } from "vitest";
import { createEngine } from "./create-engine.js";
import { runShapesPlan, shapesKeepingScheduled, shapesKept } from "./keep-run-shapes.js";

describe("keepRunShapesSoon", () => {
  it("is scheduled by a validation, not only by a run (a host may only validate between full GCs)", async () => {
    const engine = createEngine({ tools: [{ name: "t", run: () => 1 }] });
    expect(shapesKeepingScheduled()).toBe(false);
    const validation = await engine.validate([{ _tool: "t", _outputPath: "†state.x" }]);
    expect(validation.ok).toBe(true);
    expect(shapesKeepingScheduled()).toBe(true);
    await engine.close();
    // not on the next turns of the loop, where a CLI command is still closing its store and writing its
    // output: it would pay the shapes plan's cold code before exiting
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(shapesKept()).toBe(false);
  });
});

describe("runShapesPlan", () => {
  it("compiles and runs its calls, each reading earlier results, on a store of its own", async () => {
    const { objects, result } = runShapesPlan();
    const execution = await result;
    expect(execution.status).toBe("succeeded");
    expect(execution.calls.map((call) => [call.callId, call.status])).toEqual([
      ["a", "succeeded"],
      ["b", "succeeded"],
      ["c", "succeeded"],
      ["e", "succeeded"],
      ["g", "succeeded"],
    ]);
    // c takes its first alternative, so e's fallback reads †state.c; e fans out; g pushes
    expect(execution.state).toEqual({ a: 1, b: 2, c: 1, e: 2, f: 2, list: [1] });
    expect(objects.length).toBeGreaterThanOrEqual(4);
  });
});
