import { createToolRegistry } from "@obelisk/compiler";
import { ObeliskError } from "@obelisk/core";
import type { CallCommit } from "@obelisk/state";
import { describe, expect, it } from "vitest";
import { type Deferred, deferred, flush } from "./__fixtures__/deferred.js";
import { failingStore, recordEvents } from "./__fixtures__/run-events.js";
import { type RunPlanOptions, runPlan } from "./__fixtures__/run-plan.js";
import type { RunEvent } from "./run-event.js";

/** Tools: `work` answers when the test settles its gate (by the `id` parameter); `now` answers at once. */
function gatedTools(): {
  registry: ReturnType<typeof createToolRegistry>;
  gate: (id: string) => Deferred<unknown>;
} {
  const gates = new Map<string, Deferred<unknown>>();
  const gate = (id: string): Deferred<unknown> => {
    let found = gates.get(id);
    if (found === undefined) {
      found = deferred<unknown>();
      gates.set(id, found);
    }
    return found;
  };
  const registry = createToolRegistry([
    { name: "work", run: (args: { id: string }) => gate(args.id).promise },
    { name: "now", run: (args: { v?: unknown }) => args.v ?? null },
  ]);
  return { registry, gate };
}

/** a, b and c run at once; d waits for b's output. */
const PLAN = [
  { _tool: "work", _id: "a", id: "a", _outputPath: "†state.a" },
  { _tool: "work", _id: "b", id: "b", _outputPath: "†state.b" },
  { _tool: "work", _id: "c", id: "c", _outputPath: "†state.c" },
  { _tool: "now", _id: "d", v: "†state.b", _outputPath: "†state.d" },
];

/** Starts PLAN with a recording hub; `outcome` settles with the result or the rejection. */
async function startRun(options: RunPlanOptions = {}) {
  const tools = gatedTools();
  const recorded = recordEvents();
  const running = runPlan(tools.registry, PLAN, { ...options, events: recorded.hub });
  const outcome = running.then(
    ({ result }) => ({ result, error: undefined }),
    (error: unknown) => ({ result: undefined, error }),
  );
  await flush();
  return { ...tools, ...recorded, outcome };
}

/** The events from the first `call-end` on. */
const tailOf = (names: string[]): string[] =>
  names.slice(names.findIndex((name) => name.startsWith("call-end")));

/** How many `call-end` events each call got. */
function callEnds(events: readonly RunEvent[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const event of events)
    if (event.type === "call-end") counts[event.callId] = (counts[event.callId] ?? 0) + 1;
  return counts;
}

const ONE_EACH = { a: 1, b: 1, c: 1, d: 1 };

describe("run-end is the last event of a run, after one call-end per call", () => {
  it("a run that completes", async () => {
    const run = await startRun();
    for (const id of ["a", "b", "c"]) run.gate(id).resolve(id);
    const { result } = await run.outcome;
    expect(result?.status).toBe("succeeded");
    expect(run.names().at(-1)).toBe("run-end=succeeded");
    expect(run.events.at(-1)).not.toHaveProperty("error");
    expect(callEnds(run.events)).toEqual(ONE_EACH);
  });

  it("a run cancelled by its signal, even when its tools answer afterwards", async () => {
    const controller = new AbortController();
    const run = await startRun({ signal: controller.signal });
    run.gate("a").resolve("a");
    await flush();
    controller.abort("stop");
    const { result } = await run.outcome;
    for (const id of ["b", "c"]) run.gate(id).resolve(id);
    await flush();
    expect(result?.status).toBe("cancelled");
    expect(tailOf(run.names())).toEqual([
      "call-end:a=succeeded",
      "call-end:d=cancelled",
      "call-end:b=cancelled",
      "call-end:c=cancelled",
      "run-end=cancelled",
    ]);
  });

  it("failFast: the failure, the calls it cancelled, then run-end", async () => {
    const run = await startRun({ failFast: true });
    run.gate("a").reject(new Error("a broke"));
    const { result } = await run.outcome;
    run.gate("b").resolve("b");
    await flush();
    expect(result?.status).toBe("failed");
    expect(tailOf(run.names())).toEqual([
      "call-end:a=failed",
      "call-end:d=cancelled",
      "call-end:b=cancelled",
      "call-end:c=cancelled",
      "run-end=failed",
    ]);
    expect(run.events.at(-1)).not.toHaveProperty("error");
  });
});

describe("a run a fatal error ends still ends its calls and emits run-end (SRE review 1)", () => {
  it("a commit that throws: that call fails with the store's error, the others end cancelled", async () => {
    const run = await startRun({ store: failingStore(2, new Error("disk full")) });
    run.gate("a").resolve("a");
    await flush();
    run.gate("b").resolve("b");
    const { error } = await run.outcome;
    expect(ObeliskError.is(error, "STORE_ERROR")).toBe(true);
    expect(tailOf(run.names())).toEqual([
      "call-end:a=succeeded",
      "call-end:b=failed",
      "call-end:c=cancelled",
      "call-end:d=cancelled",
      "run-end=failed",
    ]);
    const end = run.events.at(-1);
    expect(end).toMatchObject({ type: "run-end", error: { code: "STORE_ERROR", message: "disk full" } });
    expect(run.events.at(-4)).toMatchObject({ error: { code: "STORE_ERROR", message: "disk full" } });
    expect(run.events.at(-3)).toMatchObject({ reason: "run failed (STORE_ERROR): disk full" });
    // c's tool answers after the run died: nothing follows run-end
    run.gate("c").resolve("c");
    await flush();
    expect(run.events.at(-1)).toBe(end);
    expect(callEnds(run.events)).toEqual(ONE_EACH);
  });

  it("a commit that rejects (lock taken over): run-end carries THREAD_BUSY", async () => {
    const busy = new ObeliskError("THREAD_BUSY", "the thread's lock was taken over");
    const run = await startRun({ store: failingStore(1, busy, "async") });
    run.gate("b").resolve("b");
    const { error } = await run.outcome;
    expect(error).toBe(busy);
    expect(tailOf(run.names())).toEqual([
      "call-end:a=cancelled",
      "call-end:b=failed",
      "call-end:c=cancelled",
      "call-end:d=cancelled",
      "run-end=failed",
    ]);
    expect(run.events.at(-1)).toMatchObject({ error: { code: "THREAD_BUSY" } });
    expect(run.events.at(-4)).toMatchObject({ attempts: 1, error: { code: "THREAD_BUSY" } });
    run.gate("a").resolve("a");
    run.gate("c").resolve("c");
    await flush();
    expect(run.names().at(-1)).toBe("run-end=failed");
  });

  it("nothing more reaches the store after it: calls answering later leave no record (their host moved on)", async () => {
    const busy = new ObeliskError("THREAD_BUSY", "the thread's lock was taken over");
    const inner = failingStore(1, busy, "async");
    const committed: string[] = [];
    const store = new Proxy(inner, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (property !== "commitCall" || typeof value !== "function") return value;
        return (commit: CallCommit) => {
          committed.push(`${commit.record.callId}=${commit.record.status}`);
          return value.call(target, commit);
        };
      },
    });
    const run = await startRun({ store });
    run.gate("b").resolve("b");
    const { error } = await run.outcome;
    expect(error).toBe(busy);
    // the run is over for its host (which finishes its record and releases the thread): a and c answer now
    run.gate("a").resolve("a");
    run.gate("c").resolve("c");
    await flush();
    expect(committed).toEqual(["b=succeeded"]);
  });

  it("a group commit that throws: every call of the group fails", async () => {
    const registry = gatedTools().registry;
    const { hub, events, names } = recordEvents();
    const plan = ["x", "y"].map((id) => ({ _tool: "now", _id: id, v: id, _outputPath: `†state.${id}` }));
    const store = failingStore(1, new Error("disk full"), "sync", true);
    await expect(runPlan(registry, plan, { store, events: hub })).rejects.toMatchObject({
      code: "STORE_ERROR",
    });
    expect(tailOf(names())).toEqual(["call-end:x=failed", "call-end:y=failed", "run-end=failed"]);
    expect(events.at(-1)).toMatchObject({ error: { code: "STORE_ERROR" } });
  });

  it("a clock that throws during the fatal end too: the events carry the run's start time", async () => {
    let broken = false;
    const now = (): number => {
      if (broken) throw new Error("clock broke");
      return 1_000;
    };
    const run = await startRun({ now });
    broken = true;
    run.gate("a").resolve("a");
    const { error } = await run.outcome;
    expect(ObeliskError.is(error, "STORE_ERROR")).toBe(true);
    expect(tailOf(run.names())).toEqual([
      "call-end:a=failed",
      "call-end:b=cancelled",
      "call-end:c=cancelled",
      "call-end:d=cancelled",
      "run-end=failed",
    ]);
    expect(run.events.at(-1)).toMatchObject({ at: 1_000, durationMs: 0, error: { message: "clock broke" } });
  });
});
