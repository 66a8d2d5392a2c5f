import { branch, createToolRegistry } from "@obelisk/compiler";
import { describe, expect, it } from "vitest";
import { recordEvents } from "./__fixtures__/run-events.js";
import { runPlan } from "./__fixtures__/run-plan.js";

const registry = createToolRegistry([
  { name: "give", run: (args: { v?: unknown }) => args.v ?? null },
  { name: "other", run: (args: { v?: unknown }) => branch(1, args.v ?? null) },
]);

/** `waitedFor` of each call's `call-ready`, by call id (calls that never became ready are absent). */
async function waitedFor(plan: unknown[]): Promise<Record<string, readonly string[]>> {
  const { hub, events } = recordEvents();
  await runPlan(registry, plan, { events: hub, input: { x: 1 } });
  const found: Record<string, readonly string[]> = {};
  for (const event of events) if (event.type === "call-ready") found[event.callId] = event.waitedFor;
  return found;
}

describe("call-ready says which calls the call waited for", () => {
  it("the writers of every reference it read, each once; none for a call that read nothing of the run", async () => {
    expect(
      await waitedFor([
        { _tool: "give", _id: "a", v: 1, _outputPath: "†state.a" },
        { _tool: "give", _id: "b", v: 2, _outputPath: "†state.b" },
        { _tool: "give", _id: "both", v: ["†state.a", "†state.b", "†state.a"], _outputPath: "†state.c" },
        { _tool: "give", _id: "text", v: "a is {†state.a}", _outputPath: "†state.t" },
        { _tool: "give", _id: "input", v: "†input.x" },
      ]),
    ).toEqual({ a: [], b: [], both: ["a", "b"], text: ["a"], input: [] });
  });

  it("every writer of a path several calls write, and the producer of a †calls reference", async () => {
    expect(
      await waitedFor([
        { _tool: "give", _id: "w1", v: [1], _outputPath: "†state.list", _outputMethod: "concat" },
        { _tool: "give", _id: "w2", v: [2], _outputPath: "†state.list", _outputMethod: "concat" },
        { _tool: "give", _id: "p", v: { x: 1 } },
        { _tool: "give", _id: "r", v: ["†state.list", "†calls.p.x"], _outputPath: "†state.r" },
      ]),
    ).toMatchObject({ r: ["w1", "w2", "p"] });
  });

  it("with a || b: only a's writers when a was there; a's and b's when a was not", async () => {
    expect(
      await waitedFor([
        { _tool: "give", _id: "wx", v: 1, _outputPath: "†state.x" },
        { _tool: "give", _id: "wy", v: 2, _outputPath: "†state.y" },
        { _tool: "give", _id: "first", v: "†state.x || †state.y", _outputPath: "†state.f" },
        // `other` takes its second alternative: †state.p is not written, so the reader falls back to †state.y
        { _tool: "other", _id: "wp", _outputPath: "†state.p || †state.q" },
        { _tool: "give", _id: "second", v: "†state.p || †state.y", _outputPath: "†state.s" },
      ]),
    ).toMatchObject({ first: ["wx"], second: ["wp", "wy"] });
  });
});
