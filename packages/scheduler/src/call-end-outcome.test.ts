import { branch, createToolRegistry } from "@obelisk/compiler";
import { createMemoryStore } from "@obelisk/state";
import { describe, expect, it } from "vitest";
import { recordEvents } from "./__fixtures__/run-events.js";
import { runPlan } from "./__fixtures__/run-plan.js";
import type { RunEvent } from "./run-event.js";

const registry = createToolRegistry([
  {
    name: "verify",
    outcomes: ["verified", "rejected", "failed"],
    run: (args: { v: string }) => {
      if (args.v === "throw") throw new Error("down");
      return args.v === "bad" ? branch("rejected", { v: args.v }) : args.v;
    },
  },
  { name: "pick", run: (args: { to: number }) => branch(args.to, args.to) },
]);

/** The `call-end` events by call id, without `runId`, `at` and `durationMs`. */
function callEnds(events: readonly RunEvent[]): Record<string, Record<string, unknown>> {
  const ends: Record<string, Record<string, unknown>> = {};
  for (const event of events) {
    if (event.type !== "call-end") continue;
    const { runId: _run, at: _at, durationMs: _duration, ...rest } = event;
    ends[event.callId] = rest;
  }
  return ends;
}

const PLAN = [
  { _tool: "verify", _id: "ok", v: "fine", _outputPath: "†state.ok || †state.no || †state.err" },
  { _tool: "verify", _id: "no", v: "bad", _outputPath: "†state.a || †state.b || †state.c" },
  { _tool: "verify", _id: "err", v: "throw", _outputPath: "†state.x || †state.y || †state.z" },
  { _tool: "pick", _id: "fan", to: 1, _outputPath: "†state.p || †state.q && †state.r" },
  { _tool: "pick", _id: "one", to: 0, _outputPath: "†state.only" },
];

describe("call-end names the alternative taken", () => {
  it("carries the tool's outcome name and the alternative's targets beside the index", async () => {
    const { hub, events } = recordEvents();
    await runPlan(registry, PLAN, { events: hub });
    const ends = callEnds(events);
    expect(ends.ok).toMatchObject({
      status: "succeeded",
      branch: 0,
      outcome: "verified",
      branchPath: "†state.ok",
    });
    expect(ends.no).toMatchObject({
      status: "succeeded",
      branch: 1,
      outcome: "rejected",
      branchPath: "†state.b",
    });
    // a thrown error routed to the last alternative
    expect(ends.err).toMatchObject({
      status: "succeeded",
      branch: 2,
      outcome: "failed",
      branchPath: "†state.z",
      error: { message: "down" },
    });
    // a tool without outcomes: the targets only (`&&` fan-out as written)
    expect(ends.fan).toMatchObject({ branch: 1, branchPath: "†state.q && †state.r" });
    expect(ends.fan).not.toHaveProperty("outcome");
    // one alternative: no branch, so neither
    expect(Object.keys(ends.one ?? {})).not.toContain("branchPath");
    expect(Object.keys(ends.one ?? {})).not.toContain("outcome");
  });

  it("a satisfied call's call-end names the recorded alternative too", async () => {
    const store = createMemoryStore();
    await runPlan(registry, PLAN.slice(1, 2), { store });
    const { hub, events } = recordEvents();
    await runPlan(registry, PLAN.slice(1, 2), { store, events: hub });
    expect(callEnds(events).no).toMatchObject({
      status: "satisfied",
      branch: 1,
      outcome: "rejected",
      branchPath: "†state.b",
    });
  });
});
