import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createEngine, defineTool, type RunResult } from "./index.js";

/**
 * A deterministic tool: its output depends on its arguments only, and it answers on a later turn of the
 * event loop, so a stream's writers are still running when it closes (what a late claim must wait for).
 */
const step = defineTool({
  name: "step",
  input: { type: "object" },
  run: (args: unknown) =>
    new Promise<unknown>((resolve) => setImmediate(() => resolve({ x: JSON.stringify(args).length, n: 1 }))),
});

/** What a call reads: whole references, fallbacks, indexes (negative too), templates, call outputs. */
const READS = [
  "†state.a",
  "†state.a.x",
  "†state.b || †state.c",
  "†state.c.x || †state.a.x",
  "†state.list.0",
  "†state.list.-1",
  "†state.list.-1.x",
  "†state.d",
  "sum {†state.a.x} and {†state.d.x}",
  "†calls.c0.x",
  "$tool_output.c1",
];

/** Where a call writes (a push onto a list; alternatives; fan-out; nothing: its output is †calls.<id>). */
const WRITES: readonly (Record<string, string> | undefined)[] = [
  { _outputPath: "†state.a" },
  { _outputPath: "†state.b" },
  { _outputPath: "†state.c || †state.b" },
  { _outputPath: "†state.a && †state.d" },
  { _outputPath: "†state.list", _outputMethod: "push" },
  { _outputPath: "†state.list.0" },
  { _outputPath: "†state.d" },
  undefined,
];

const callArbitrary = fc.record({
  reads: fc.array(fc.constantFrom(...READS), { maxLength: 2 }),
  writes: fc.constantFrom(...WRITES),
});

/** The plan's calls, `c0` … in order. */
function toPlan(calls: readonly { reads: readonly string[]; writes?: Record<string, string> | undefined }[]) {
  return calls.map((call, index) => ({
    _tool: "step",
    _id: `c${index}`,
    ...Object.fromEntries(call.reads.map((read, at) => [`in${at}`, read])),
    ...(call.writes ?? {}),
  }));
}

/** What both runs must agree on: each call's status and what it wrote, and the state. */
function outcome(result: RunResult) {
  const calls = Object.fromEntries(
    Object.entries(result.calls).map(([id, call]) => [id, { status: call.status, wrote: call.wrote }]),
  );
  return { calls, state: result.state };
}

describe("a plan streamed call by call ends as the same plan run at once", () => {
  it("same outcomes and state (random plans of references, fallbacks, indexes, pushes, call outputs)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(callArbitrary, { minLength: 1, maxLength: 7 }), async (calls) => {
        const plan = toPlan(calls);
        const engine = createEngine({ tools: [step] });
        try {
          const checked = await engine.validate({ type: "plan", plan }, { threadId: "batch" });
          // a plan refused at once (conflicts, cycles, unresolved references) has nothing to compare:
          // streaming refuses or fails its calls one by one
          fc.pre(checked.ok);
          const stream = await engine.open({ threadId: "streamed" });
          const added = plan.map((call) => stream.add(call));
          const accepted = added.every((answer) => answer.ok);
          // a writer an earlier reader will not wait for (STREAM_ORDER) is streaming's own order, by design
          const reordered = added.some((answer) => answer.diagnostics.some((d) => d.code === "STREAM_ORDER"));
          const streamed = await stream.close();
          fc.pre(accepted && !reordered);
          const batch = await engine.run({ type: "plan", plan }, { threadId: "batch" });
          expect(outcome(streamed)).toEqual(outcome(batch));
        } finally {
          await engine.close();
        }
      }),
      { numRuns: 300 },
    );
  });
});
