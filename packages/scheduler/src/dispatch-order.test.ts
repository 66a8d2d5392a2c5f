import { createToolRegistry } from "@obelisk/compiler";
import { describe, expect, it } from "vitest";
import { recordEvents } from "./__fixtures__/run-events.js";
import { runPlan } from "./__fixtures__/run-plan.js";
import type { CoreEffect } from "./decision-types.js";
import { orderDispatches } from "./dispatch-order.js";

const registry = createToolRegistry([{ name: "give", run: (args: { v?: unknown }) => args.v ?? null }]);

/** The ids of the `call-start` events, in the order they were emitted (no concurrency limit). */
async function startOrder(plan: unknown[]): Promise<string[]> {
  const { hub, events } = recordEvents();
  await runPlan(registry, plan, { events: hub });
  return events.flatMap((event) => (event.type === "call-start" ? [event.callId] : []));
}

describe("calls made ready together start critical path first, with no limit too", () => {
  it("the reader with the longer path after it starts before its sibling", async () => {
    expect(
      await startOrder([
        { _tool: "give", _id: "a", v: 1, _outputPath: "†state.a" },
        { _tool: "give", _id: "short", v: "†state.a", _outputPath: "†state.s" },
        { _tool: "give", _id: "long", v: "†state.a", _outputPath: "†state.l" },
        { _tool: "give", _id: "after", v: "†state.l", _outputPath: "†state.z" },
      ]),
    ).toEqual(["a", "long", "short", "after"]);
  });

  it("calls ready at the start too; equal paths keep plan order", async () => {
    expect(
      await startOrder([
        { _tool: "give", _id: "x", v: 1, _outputPath: "†state.x" },
        { _tool: "give", _id: "y", v: 2, _outputPath: "†state.y" },
        { _tool: "give", _id: "z", v: 3, _outputPath: "†state.z" },
        { _tool: "give", _id: "reads-z", v: "†state.z", _outputPath: "†state.w" },
      ]),
    ).toEqual(["z", "x", "y", "reads-z"]);
  });
});

describe("orderDispatches", () => {
  const dispatch = (index: number): CoreEffect => ({ type: "dispatch", index });
  const rankOf = (index: number): number => index % 3;

  it("orders the dispatches after `from` by rank, stable; other effects keep their places", () => {
    for (const size of [5, 40]) {
      const effects: CoreEffect[] = [dispatch(0)];
      for (let index = 1; index <= size; index++)
        effects.push(index % 4 === 0 ? { type: "commit", index } : dispatch(index));
      effects.push({ type: "finish" });
      const before = effects.map((effect) => effect.type);
      const expected = effects
        .slice(1)
        .flatMap((effect) => (effect.type === "dispatch" ? [effect.index] : []))
        .sort((a, b) => rankOf(b) - rankOf(a) || a - b);
      orderDispatches(effects, 1, rankOf);
      expect(effects.map((effect) => effect.type)).toEqual(before);
      expect(effects[0]).toEqual(dispatch(0));
      expect(
        effects.slice(1).flatMap((effect) => (effect.type === "dispatch" ? [effect.index] : [])),
      ).toEqual(expected);
      expect(
        effects
          .filter((effect) => effect.type === "commit")
          .map((effect) => "index" in effect && effect.index),
      ).toEqual(Array.from({ length: Math.floor(size / 4) }, (_, at) => 4 * (at + 1)));
    }
  });
});
