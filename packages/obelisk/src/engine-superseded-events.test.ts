import { createMemoryStore, type StateStore } from "@obelisk/state";
import { createSqliteStore } from "@obelisk/state/sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { Controller } from "./__fixtures__/controlled-tools.js";
import { crashable } from "./__fixtures__/crashable-store.js";
import { until } from "./__fixtures__/deferred.js";
import { steps } from "./__fixtures__/step-tool.js";
import { tempStoreFiles } from "./__fixtures__/temp-store-file.js";
import { createEngine, type Engine, type RunEvent, type ToolDefinition } from "./index.js";

// The s35 embedder review (M2): a tracer fed only by run events could not link a resume to the run it
// continues, and a run a resume or a re-sent plan ended (`cancelled`) got no event, so its span stayed open.

type Superseded = Extract<RunEvent, { type: "run-superseded" }>;

const plan = [
  { _id: "a", _tool: "step", key: "a", _outputPath: "†state.a" },
  { _id: "b", _tool: "step", key: "b", hang: true, _outputPath: "†state.b" },
];

const T0 = Date.UTC(2026, 10, 27, 9);

/** An engine on `store` whose clock moves 10 ms at every reading. */
function clockedEngine(store: StateStore, tools = [steps().tool]): Engine {
  let time = T0;
  return createEngine({ tools, store, now: () => (time += 10) });
}

/** The events of a run, collected. */
function collect(): { readonly events: RunEvent[]; readonly onEvent: (event: RunEvent) => void } {
  const events: RunEvent[] = [];
  return { events, onEvent: (event) => events.push(event) };
}

const typesOf = (events: readonly RunEvent[]) => events.map((event) => event.type);

describe("run events of a resume and of the runs it ends", () => {
  const engines: Engine[] = [];
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.close().catch(() => undefined);
  });

  /** A store where a run of `plan` on thread `t` died with `b` in flight (its engine crashed). */
  async function afterCrash(
    store: StateStore = createMemoryStore(),
  ): Promise<{ store: StateStore; crashedId: string }> {
    const dying = crashable(store);
    const first = steps(true);
    void createEngine({ tools: [first.tool], store: dying.store }).run(plan, { threadId: "t" });
    await until(() => first.ran.length === 2);
    const [crashed] = await store.listRuns({ threadId: "t" as never, limit: 1 });
    dying.crash();
    return { store, crashedId: crashed?.runId as string };
  }

  function live(store: StateStore): Engine {
    const engine = clockedEngine(store);
    engines.push(engine);
    return engine;
  }

  it("a resume after a crash: run-start names the run it resumes; run-superseded ends it before run-end", async () => {
    const { store, crashedId } = await afterCrash();
    const engine = live(store);
    const { events, onEvent } = collect();
    const result = await engine.resume(crashedId, { onEvent });
    expect(result.status).toBe("succeeded");

    const start = events[0];
    expect(start).toMatchObject({ type: "run-start", runId: result.runId, resumeOf: crashedId });
    expect(typesOf(events).slice(-2)).toEqual(["run-superseded", "run-end"]);
    // a completed before the crash: satisfied by the crashed run's record; b ran now
    const ends = events.filter((event) => event.type === "call-end");
    expect(ends.map((event) => [event.callId, event.status, event.satisfiedBy])).toEqual([
      ["a", "satisfied", crashedId],
      ["b", "succeeded", undefined],
    ]);
    // after every call-end: the calls of the resume come first
    expect(typesOf(events).lastIndexOf("call-end")).toBeLessThan(typesOf(events).indexOf("run-superseded"));
    const { run } = await engine.runs.show(crashedId);
    expect(run.status).toBe("cancelled");
    expect(events.at(-2)).toEqual({
      type: "run-superseded",
      runId: result.runId,
      threadId: "t",
      at: Date.parse(run.endedAt as string),
      supersededRunId: crashedId,
      status: "cancelled",
      resumed: true,
      ...(run.reason === undefined ? {} : { reason: run.reason }),
    } satisfies Superseded);
  });

  it("a resume of a crashed resume ends both runs of the chain, each with its own event", async () => {
    const { store, crashedId } = await afterCrash();
    // the resume dies too, with b in flight again
    const dying = crashable(store);
    const second = steps(true);
    void createEngine({ tools: [second.tool], store: dying.store }).resume(crashedId);
    await until(() => second.ran.length === 1);
    const [resume] = await store.listRuns({ threadId: "t" as never, limit: 1 });
    dying.crash();
    const resumeId = resume?.runId as string;
    expect(resume?.resumeOf).toBe(crashedId);

    const engine = live(store);
    const { events, onEvent } = collect();
    const result = await engine.resume(resumeId, { onEvent });
    expect(result.status).toBe("succeeded");
    expect(events[0]).toMatchObject({ type: "run-start", resumeOf: resumeId });
    const superseded = events.filter((event): event is Superseded => event.type === "run-superseded");
    expect(superseded.map((event) => [event.supersededRunId, event.resumed, event.runId])).toEqual([
      [resumeId, true, result.runId],
      [crashedId, true, result.runId],
    ]);
    expect(typesOf(events).slice(-3)).toEqual(["run-superseded", "run-superseded", "run-end"]);
  });

  it("the plan re-sent with run: run-superseded (resumed: false) with the reason the record now has", async () => {
    const { store, crashedId } = await afterCrash();
    const engine = live(store);
    const { events, onEvent } = collect();
    const result = await engine.run(plan, { threadId: "t", onEvent });
    expect(result.status).toBe("succeeded");
    expect(events[0]?.type).toBe("run-start");
    expect(events[0]).not.toHaveProperty("resumeOf");
    const { run } = await engine.runs.show(crashedId);
    expect(run.reason).toMatch(/^superseded by run /);
    expect(events.find((event) => event.type === "call-end" && event.callId === "a")).toMatchObject({
      status: "satisfied",
      satisfiedBy: crashedId,
    });
    expect(typesOf(events).slice(-2)).toEqual(["run-superseded", "run-end"]);
    expect(events.at(-2)).toEqual({
      type: "run-superseded",
      runId: result.runId,
      threadId: "t",
      at: Date.parse(run.endedAt as string),
      supersededRunId: crashedId,
      status: "cancelled",
      resumed: false,
      reason: run.reason as string,
    } satisfies Superseded);

    // a later run of the plan finds nothing left to end: no event
    const again = collect();
    await engine.run(plan, { threadId: "t", onEvent: again.onEvent });
    expect(typesOf(again.events)).not.toContain("run-superseded");
  });

  it("an observer that throws on run-superseded breaks nothing: the others get observer-error before run-end", async () => {
    const { store, crashedId } = await afterCrash();
    const seen = collect();
    let time = T0;
    const engine = createEngine({
      tools: [steps().tool],
      store,
      now: () => (time += 10),
      onEvent: seen.onEvent,
    });
    engines.push(engine);
    const result = await engine.resume(crashedId, {
      onEvent: (event) => {
        if (event.type === "run-superseded") throw new Error("exporter down");
      },
    });
    expect(result.status).toBe("succeeded");
    expect((await engine.runs.show(crashedId)).run.status).toBe("cancelled");
    expect(typesOf(seen.events).slice(-3)).toEqual(["run-superseded", "observer-error", "run-end"]);
    expect(seen.events.at(-2)).toMatchObject({
      type: "observer-error",
      runId: result.runId,
      threadId: "t",
      eventType: "run-superseded",
      error: { message: "exporter down" },
    });
  });

  describe("after engine.close()", () => {
    const newFile = tempStoreFiles("obelisk-superseded-");

    it("the resume names the closed run in run-start and ends it with run-superseded, its reason kept", async () => {
      const file = newFile();
      const control = new Controller();
      const closing = createEngine({ tools: [control.tool("wait")], store: createSqliteStore(file) });
      const waits = [
        { _tool: "wait", _id: "a", key: "a", _outputPath: "†state.a" },
        { _tool: "wait", _id: "b", key: "b", value: "†state.a", _outputPath: "†state.b" },
      ];
      const running = closing.run(waits, { threadId: "t" });
      await until(() => control.started.length === 1);
      control.finish("a");
      await until(() => control.started.length === 2);
      await closing.close();
      const closed = await running;

      const wait: ToolDefinition = { name: "wait", run: (args) => (args as { key: string }).key };
      const engine = clockedEngine(createSqliteStore(file), [wait]);
      engines.push(engine);
      const { events, onEvent } = collect();
      const result = await engine.resume(closed.runId, { onEvent });
      expect(result.status).toBe("succeeded");
      expect(events[0]).toMatchObject({ type: "run-start", resumeOf: closed.runId });
      const { run } = await engine.runs.show(closed.runId);
      expect(run.status).toBe("cancelled");
      expect(typesOf(events).slice(-2)).toEqual(["run-superseded", "run-end"]);
      expect(events.at(-2)).toEqual({
        type: "run-superseded",
        runId: result.runId,
        threadId: "t",
        at: Date.parse(run.endedAt as string),
        supersededRunId: closed.runId,
        status: "cancelled",
        resumed: true,
        reason: "the engine was closed (engine.close()) while this run was in progress",
      } satisfies Superseded);
    });
  });
});
