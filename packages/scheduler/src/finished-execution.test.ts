import { createToolRegistry } from "@obelisk/compiler";
import { asThreadId } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { runPlan } from "./__fixtures__/run-plan.js";

const registry = createToolRegistry([
  {
    name: "echo",
    input: { type: "object", properties: { v: {} } },
    run: (args: { v?: unknown }) => (args.v ?? null) as number | null,
  },
]);
const plan = [
  { _tool: "echo", _id: "a", v: 1, _outputPath: "†state.a" },
  { _tool: "echo", _id: "b", v: "†state.a", _outputPath: "†state.b" },
];

describe("an execution's result", () => {
  it("gives the final state, copied once on first read", async () => {
    const { result, store } = await runPlan(registry, plan);
    expect(result.status).toBe("succeeded");
    expect(result.state).toEqual({ a: 1, b: 1 });
    expect(result.state).toBe(result.state);
    expect(Object.isFrozen(result.state)).toBe(true);
    expect(result.state).toEqual(await store.readState(asThreadId("t")));
  });

  // An own getter closure per result is kept by V8 in old-generation memory and keeps the working state
  // alive through scavenges after the run (compiler.md, stop 35): the getter is the class's, one for all.
  it("reads state through one getter shared by every result, not an own accessor", async () => {
    const first = (await runPlan(registry, plan)).result;
    const second = (await runPlan(registry, plan.slice(0, 1))).result;
    expect(Object.getOwnPropertyDescriptor(first, "state")).toBeUndefined();
    expect(Object.getPrototypeOf(first)).toBe(Object.getPrototypeOf(second));
    expect(second.state).toEqual({ a: 1 });
    expect(Object.keys(first).sort()).toEqual(["calls", "durationMs", "status"]);
  });
});
