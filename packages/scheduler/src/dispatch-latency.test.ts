import { createToolRegistry, type ToolContext } from "@obelisk/compiler";
import { describe, expect, it } from "vitest";
import { type Deferred, deferred, flush } from "./__fixtures__/deferred.js";
import { runPlan } from "./__fixtures__/run-plan.js";

/**
 * Microtask turns between a tool's promise resolving and its dependent's tool being invoked, on the memory
 * store (it answers at once). Each turn is a promise reaction run before the event loop may fire the next
 * timer or read the next socket, so each one delays every dependent of every call; a macrotask (a timer,
 * `setImmediate`) would never end within the turns counted here.
 */
async function turnsToDependent(returned: (promise: Promise<number>) => unknown): Promise<number> {
  const pending = new Map<string, Deferred<number>>();
  const started: string[] = [];
  const registry = createToolRegistry([
    {
      name: "t",
      input: { type: "object", properties: { v: {} } },
      run: (_args: unknown, context: ToolContext) => {
        started.push(context.callId);
        const next = deferred<number>();
        pending.set(context.callId, next);
        return returned(next.promise);
      },
    },
  ]);
  const plan = [
    { _tool: "t", _id: "a", v: 1, _outputPath: "†state.a" },
    { _tool: "t", _id: "b", v: "†state.a", _outputPath: "†state.b" },
  ];
  const running = runPlan(registry, plan);
  await flush();
  expect(started).toEqual(["a"]);
  pending.get("a")?.resolve(1);
  let turns = 0;
  while (!started.includes("b") && turns < 50) {
    await Promise.resolve();
    turns++;
  }
  pending.get("b")?.resolve(2);
  const { result } = await running;
  expect(result.status).toBe("succeeded");
  return turns;
}

describe("a completed call's dependent is invoked in the same turn of the event loop, few reactions later", () => {
  it("the tool's own promise reaction settles the call: no promise of its outcome in between", async () => {
    // The tool's promise resolves; the attempt's reaction to it settles the call, commits it (the memory
    // store answers at once) and invokes the dependent, all in one turn. Before, the outcome went through
    // a promise of the attempt and the runner's `then` on `invokeTool`'s promise: 3 turns.
    const plain = await turnsToDependent((promise) => promise);
    // a thenable that is no native promise takes the same path
    const thenable = await turnsToDependent((promise) => ({
      // biome-ignore lint/suspicious/noThenProperty: a hand-made thenable is the case under test
      then: (resolve: (v: number) => void, reject: (e: unknown) => void) => promise.then(resolve, reject),
    }));
    expect(plain).toBeLessThanOrEqual(1);
    expect(thenable).toBeLessThanOrEqual(1);
  });
});
