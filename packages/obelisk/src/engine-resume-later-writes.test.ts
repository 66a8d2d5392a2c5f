import type { StateStore } from "@obelisk/state";
import { afterEach, describe, expect, it } from "vitest";
import { crashable } from "./__fixtures__/crashable-store.js";
import { until } from "./__fixtures__/deferred.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type Engine, type RunEvent, type ToolDefinition } from "./index.js";

// Decision 0043: a resume never reverts a value a write after the interrupted run changed; a run that
// cannot be resumed can be given up (runs.cancel).

/**
 * `setStatus` returns its `status`; `publish` returns `published <s>` and records what it read — in the
 * engine that dies, a call with `hang: true` never returns (the process is killed in it).
 */
function tools(hangs = false): { readonly tools: ToolDefinition[]; readonly published: unknown[] } {
  const published: unknown[] = [];
  const setStatus: ToolDefinition = { name: "setStatus", run: (args) => (args as { status: string }).status };
  const publish: ToolDefinition = {
    name: "publish",
    run: (args) => {
      const { s, hang } = args as { s: unknown; hang?: boolean };
      published.push(s);
      return hangs && hang === true ? new Promise(() => {}) : `published ${JSON.stringify(s)}`;
    },
  };
  return { tools: [setStatus, publish], published };
}

/** The review's plan: `a` writes the status, `b` (killed in flight) publishes what it reads. */
const plan = [
  { _id: "a", _tool: "setStatus", status: "draft", _outputPath: "†state.status" },
  { _id: "b", _tool: "publish", s: "†state.status", hang: true, _outputPath: "†state.done" },
];

/** Two writers the killed call reads. */
const pairPlan = [
  plan[0] as object,
  { _id: "c", _tool: "setStatus", status: "T", _outputPath: "†state.title" },
  {
    _id: "b",
    _tool: "publish",
    s: { status: "†state.status", title: "†state.title" },
    hang: true,
    _outputPath: "†state.done",
  },
];

/** Two lists (`push`) the killed call reads. */
const listPlan = [
  { _id: "p", _tool: "setStatus", status: "a", _outputPath: "†state.log", _outputMethod: "push" },
  { _id: "q", _tool: "setStatus", status: "b", _outputPath: "†state.tags", _outputMethod: "push" },
  {
    _id: "b",
    _tool: "publish",
    s: { log: "†state.log", tags: "†state.tags" },
    hang: true,
    _outputPath: "†state.done",
  },
];

describe.each(storeKinds())("resume after later writes, on the $name store", (kind) => {
  const engines: Engine[] = [];
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.close().catch(() => undefined);
    kind.cleanup();
  });

  /**
   * Runs `runPlan` on thread `t` in an engine that dies with `b` in flight (its run stays `running`, then
   * reads `interrupted`); answers the run id and a live engine on the same store (with `liveTools`).
   */
  async function crashed(
    runPlan: readonly object[],
    before?: (engine: Engine) => Promise<unknown>,
    liveTools = tools(),
  ): Promise<{ runId: string; engine: Engine; published: unknown[]; store: StateStore }> {
    const store = kind.open();
    const live = createEngine({ tools: liveTools.tools, store });
    engines.push(live);
    if (before !== undefined) await before(live);
    const dying = crashable(store);
    const first = tools(true);
    void createEngine({ tools: first.tools, store: dying.store }).run(runPlan, { threadId: "t" });
    await until(() => first.published.length > 0);
    const running = (await store.listRuns({ threadId: "t" as never }))[0];
    dying.crash();
    return { runId: running?.runId as string, engine: live, published: liveTools.published, store };
  }

  it("leaves a value a later run wrote, and the unfinished call reads it; the outcome says so", async () => {
    const { runId, engine, published } = await crashed(plan);
    const turn = await engine.run([{ _tool: "setStatus", status: "final", _outputPath: "†state.status" }], {
      threadId: "t",
    });
    expect(turn.state).toEqual({ status: "final" });
    const events: RunEvent[] = [];
    const [interrupted] = await engine.runs.list({ status: "interrupted" });
    expect(interrupted?.runId).toBe(runId);
    const resumed = await engine.resume(runId, { onEvent: (event) => events.push(event) });
    expect(resumed.status).toBe("succeeded");
    expect(resumed.calls.a).toMatchObject({ status: "satisfied", wrote: [] });
    expect(resumed.calls.a?.reason).toContain("†state.status");
    expect(resumed.calls.a?.reason).toContain(runId);
    expect(published).toEqual(["final"]);
    expect(resumed.state).toEqual({ status: "final", done: 'published "final"' });
    expect(await engine.get("t", "†state")).toEqual({ found: true, value: resumed.state });
    const end = events.find((event) => event.type === "call-end" && event.callId === "a");
    expect(end).toMatchObject({ status: "satisfied", reason: resumed.calls.a?.reason });
    // the record keeps it too (run history), and the old run is ended
    const { calls } = await engine.runs.show(resumed.runId);
    expect(calls.find((call) => call.callId === "a")?.reason).toBe(resumed.calls.a?.reason);
    expect((await engine.runs.show(runId)).run.status).toBe("cancelled");
    // sending the plan again is a new intent: its recorded outcome stands again (SPEC §7)
    const again = await engine.run(plan, { threadId: "t" });
    expect(again.calls.a).toMatchObject({ status: "satisfied", wrote: ["†state.status"] });
    expect(again.state).toEqual({ status: "draft", done: 'published "draft"' });
  });

  it("leaves a value engine.set changed, and one a call the crashed run satisfied from an older record", async () => {
    // `a` completed in an earlier run: the crashed run's `a` was satisfied by that record
    const { runId, engine, published } = await crashed(plan, (live) =>
      live.run([plan[0] as object], { threadId: "t" }),
    );
    await engine.set("t", "†state.status", "final");
    const resumed = await engine.resume(runId);
    expect(resumed.calls.a).toMatchObject({ status: "satisfied", wrote: [] });
    expect(resumed.calls.a?.reason).toContain("†state.status");
    expect(published).toEqual(["final"]);
    expect(resumed.state).toEqual({ status: "final", done: 'published "final"' });
  });

  it("restores a target that is missing now (unset: decision 0017) and leaves one changed, in one resume", async () => {
    const { runId, engine, published } = await crashed(pairPlan);
    expect(await engine.unset("t", "†state.status")).toMatchObject({ removed: true });
    await engine.set("t", "†state.title", "T2");
    const resumed = await engine.resume(runId);
    expect(resumed.calls.a).toEqual({
      tool: "setStatus",
      status: "satisfied",
      attempts: 0,
      durationMs: 0,
      wrote: ["†state.status"],
    });
    expect(resumed.calls.c).toMatchObject({ status: "satisfied", wrote: [] });
    expect(resumed.calls.c?.reason).toContain("†state.title");
    expect(resumed.calls.c?.reason).not.toContain("†state.status");
    expect(published).toEqual([{ status: "draft", title: "T2" }]);
    expect(resumed.state).toMatchObject({ status: "draft", title: "T2" });
  });

  it("leaves a list a later write replaced without the recorded item, and rebuilds one evicted", async () => {
    const { runId, engine, published } = await crashed(listPlan);
    await engine.set("t", "†state.tags", ["x"]);
    await engine.set("t", "†state.other", 1);
    await engine.keepLastN("t", 2);
    expect(await engine.get("t", "†state")).toEqual({ found: true, value: { tags: ["x"], other: 1 } });
    const resumed = await engine.resume(runId);
    expect(resumed.calls.p).toMatchObject({ status: "satisfied", wrote: ["†state.log"] });
    expect(resumed.calls.p?.reason).toBeUndefined();
    expect(resumed.calls.q).toMatchObject({ status: "satisfied", wrote: [] });
    expect(resumed.calls.q?.reason).toContain("†state.tags");
    expect(published).toEqual([{ log: ["a"], tags: ["x"] }]);
    expect(resumed.state).toMatchObject({ log: ["a"], tags: ["x"] });
  });

  it("gives up a run that cannot be resumed: runs.cancel ends it, the start-up loop does not throw again", async () => {
    // the next version renamed `publish`: the interrupted run's plan no longer compiles
    const renamed: ToolDefinition[] = [
      { name: "setStatus", run: () => "x" },
      { name: "publishDoc", run: () => 1 },
    ];
    const { runId, engine } = await crashed(plan, undefined, { tools: renamed, published: [] });
    await expect(engine.resume(runId)).rejects.toMatchObject({ code: "PLAN_INVALID" });
    expect((await engine.runs.show(runId)).run.status).toBe("interrupted");
    const given = await engine.runs.cancel(runId, { reason: "PLAN_INVALID after the deploy" });
    expect(given.cancelled).toEqual([runId]);
    expect(given.run).toMatchObject({ runId, status: "cancelled", endedAt: expect.any(String) });
    expect(given.run.reason).toMatch(/^PLAN_INVALID after the deploy \(.+\)$/);
    expect(await engine.runs.list({ status: "interrupted" })).toEqual([]);
    // nothing ran and nothing was written
    expect(await engine.get("t", "†state")).toEqual({ found: true, value: { status: "draft" } });
    // a run that has ended is answered as it is
    const twice = await engine.runs.cancel(runId);
    expect(twice).toEqual({ cancelled: [], run: given.run });
  });

  it("runs.cancel ends the crashed resumes of a chain with it, and waits for no one while a run holds the thread", async () => {
    const { runId, engine, store } = await crashed(plan);
    // a resume that dies in turn: the chain is runId ← resumeId, both open
    const dying = crashable(store);
    const second = tools(true);
    void createEngine({ tools: second.tools, store: dying.store }).resume(runId);
    await until(() => second.published.length > 0);
    const resumeId = (await store.listRuns({ threadId: "t" as never }))[0]?.runId as string;
    dying.crash();
    expect(resumeId).not.toBe(runId);
    // while another run holds the thread: THREAD_BUSY, nothing ended
    const held = await engine.open({ threadId: "t" });
    await expect(engine.runs.cancel(resumeId)).rejects.toMatchObject({ code: "THREAD_BUSY" });
    await held.close();
    expect((await engine.runs.show(resumeId)).run.status).toBe("interrupted");
    const given = await engine.runs.cancel(resumeId);
    expect(given.cancelled).toEqual([resumeId, runId]);
    expect(given.run.reason).toMatch(/^given up without resuming \(engine\.runs\.cancel\)/);
    expect((await engine.runs.show(runId)).run.status).toBe("cancelled");
    expect(await engine.runs.list({ status: "interrupted" })).toEqual([]);
  });

  it("runs.cancel checks its arguments", async () => {
    const engine = createEngine({ tools: tools().tools, store: kind.open() });
    engines.push(engine);
    await expect(engine.runs.cancel("nope")).rejects.toMatchObject({ code: "RUN_NOT_FOUND" });
    await expect(engine.runs.cancel(1 as never)).rejects.toMatchObject({ code: "USAGE" });
    await expect(engine.runs.cancel("nope", { reasn: "x" } as never)).rejects.toMatchObject({
      code: "USAGE",
      hint: expect.stringContaining("reason"),
    });
    await expect(engine.runs.cancel("nope", { reason: 1 } as never)).rejects.toMatchObject({ code: "USAGE" });
  });
});
