import { createToolRegistry } from "@obelisk/compiler";
import { describe, expect, it } from "vitest";
import { failingStore } from "./__fixtures__/run-events.js";
import { runPlan } from "./__fixtures__/run-plan.js";
import { EventHub } from "./event-hub.js";
import type { RunEvent } from "./run-event.js";

const registry = createToolRegistry([
  { name: "give", run: (args: { v?: unknown }) => args.v ?? null },
  {
    name: "flaky",
    retry: { attempts: 2, backoffMs: 0 },
    run: (_args: unknown, ctx: { readonly attempt: number }) => {
      if (ctx.attempt === 1) throw new Error("first attempt fails");
      return "ok";
    },
  },
]);

const PLAN = [
  { _tool: "give", _id: "a", v: 1, _outputPath: "†state.a" },
  { _tool: "flaky", _id: "b", _outputPath: "†state.b" },
  { _tool: "give", _id: "c", v: "†state.a", _outputPath: "†state.c" },
];

/** A hub with a recording observer and one that throws on `run-start` (so `observer-error` is emitted). */
function hubWithFailingObserver(): { hub: EventHub; events: RunEvent[] } {
  const hub = new EventHub();
  const events: RunEvent[] = [];
  hub.subscribe((event) => {
    events.push(event);
  });
  hub.subscribe((event) => {
    if (event.type === "run-start") throw new Error("observer broken");
  });
  return { hub, events };
}

/** The event types seen whose `threadId` is not `threadId`. */
const without = (events: readonly RunEvent[], threadId: string): string[] =>
  events.filter((event) => event.threadId !== threadId).map((event) => event.type);

describe("every run event carries the run's threadId", () => {
  it("on every kind a completed run emits, observer-error included", async () => {
    const { hub, events } = hubWithFailingObserver();
    await runPlan(registry, PLAN, { events: hub });
    expect(new Set(events.map((event) => event.type))).toEqual(
      new Set([
        "run-start",
        "observer-error",
        "call-ready",
        "call-start",
        "call-retry",
        "call-end",
        "state-write",
        "run-end",
      ]),
    );
    expect(without(events, "t")).toEqual([]);
  });

  it("on the call-end and run-end events of a run a fatal error ended", async () => {
    const { hub, events } = hubWithFailingObserver();
    await runPlan(registry, PLAN, { events: hub, store: failingStore(1, new Error("disk full")) }).catch(
      () => undefined,
    );
    expect(events.at(-1)).toMatchObject({ type: "run-end", status: "failed", threadId: "t" });
    expect(events.filter((event) => event.type === "call-end").length).toBe(3);
    expect(without(events, "t")).toEqual([]);
  });
});
