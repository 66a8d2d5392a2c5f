import { asRunId, asThreadId } from "@obelisk/core";
import type { StateStore } from "@obelisk/state";
import { afterEach, describe, expect, it } from "vitest";
import { crashable } from "./__fixtures__/crashable-store.js";
import { until } from "./__fixtures__/deferred.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type Engine, type ToolDefinition } from "./index.js";

// Decision 0099 (review s40 r3 P15c/P15d/P2): the automatic ids of a run whose process died are its own —
// a later run never gets one of them, and `resume`, or the plan re-sent with `run`, keeps them (so a call the
// crash cut off runs again with the same `ctx.idempotencyKey` and `ctx.contentKey`).

/** What each call was given: its id, idempotency key and content key. */
interface Seen {
  readonly v: unknown;
  readonly key: string;
  readonly contentKey: string;
}

/** `echo` returns its `v`; in the engine that dies, a call with `hang: true` never returns. */
function echo(seen: Seen[], hangs: boolean): ToolDefinition {
  return {
    name: "echo",
    run: (args, ctx) => {
      const { v, hang } = args as { v: unknown; hang?: boolean };
      seen.push({ v, key: ctx.idempotencyKey, contentKey: ctx.contentKey });
      return hangs && hang === true ? new Promise(() => {}) : v;
    },
  };
}

describe.each(storeKinds())("automatic ids after a crash, on the $name store", (kind) => {
  const engines: Engine[] = [];
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.close().catch(() => undefined);
    kind.cleanup();
  });

  /** A live engine on `store` (seeing into `seen`). */
  function live(store: StateStore, seen: Seen[]): Engine {
    const engine = createEngine({ tools: [echo(seen, false)], store });
    engines.push(engine);
    return engine;
  }

  /**
   * A stream on thread "t" whose process died: `echo$1` completed, its writer `echo$2` in flight, and the
   * writer's reader `echo$3` naming it by the id `add` gave it.
   */
  async function crashedStream(store: StateStore): Promise<{ runId: string; dead: Seen[] }> {
    const dead: Seen[] = [];
    const dying = crashable(store);
    const stream = await createEngine({ tools: [echo(dead, true)], store: dying.store }).open({
      threadId: "t",
    });
    expect(stream.add({ _tool: "echo", v: "s1" })).toMatchObject({ ok: true, callId: "echo$1" });
    const [first] = await store.listRuns({ threadId: asThreadId("t") });
    // echo$1 completes (its record committed) before the writer comes
    while ((await store.listCallRecords(asRunId(first?.runId as string))).length === 0)
      await new Promise((resolve) => setImmediate(resolve));
    expect(stream.add({ _tool: "echo", v: "s2", hang: true })).toMatchObject({ callId: "echo$2" });
    const reader = { _tool: "echo", v: "†calls.echo$2", _outputPath: "†state.reader" };
    expect(stream.add(reader)).toMatchObject({ ok: true, callId: "echo$3" });
    await until(() => dead.length === 2);
    dying.crash();
    return { runId: stream.runId, dead };
  }

  const later = [
    { _tool: "echo", v: "later-1" },
    { _tool: "echo", v: "later-2" },
  ];

  it("a later run does not get the ids of a stream whose process died", async () => {
    const store = kind.open();
    await crashedStream(store);
    const result = await live(store, []).run(later, { threadId: "t" });
    expect(Object.keys(result.calls)).toEqual(["echo$4", "echo$5"]);
  });

  it("resume keeps the stream's ids: its writer runs with its key, its reader reads it, not a later run's", async () => {
    const store = kind.open();
    const { runId, dead } = await crashedStream(store);
    const seen: Seen[] = [];
    const engine = live(store, seen);
    await engine.run(later, { threadId: "t" });
    const resumed = await engine.resume(runId);
    expect(resumed.status).toBe("succeeded");
    expect(Object.keys(resumed.calls)).toEqual(["echo$1", "echo$2", "echo$3"]);
    expect(resumed.state).toEqual({ reader: "s2" });
    const writer = seen.find((call) => call.v === "s2");
    expect(writer).toEqual(dead.find((call) => call.v === "s2"));
    expect(writer?.key).toBe("t:echo$2");
  });

  it("a run after the stream's resume does not get the ids the resume used", async () => {
    const store = kind.open();
    const { runId } = await crashedStream(store);
    const engine = live(store, []);
    expect((await engine.resume(runId)).status).toBe("succeeded");
    const result = await engine.run(later, { threadId: "t" });
    expect(Object.keys(result.calls)).toEqual(["echo$4", "echo$5"]);
  });

  it("a resume moves the counter past the ids it keeps when the crashed run had not reserved them", async () => {
    // a stream recorded before decision 0099: one number reserved at open, the rest left to a close that
    // the crash never reached
    const store = kind.open();
    const thread = asThreadId("t");
    await store.openThread(thread);
    expect(await store.reserveCallNumbers(thread, 1)).toBe(1);
    // (written to †state: the thread holds no †calls.echo$<n> that later automatic ids would skip)
    const calls = ["a", "b", "c"].map((v) => ({ _tool: "echo", v, _outputPath: `†state.${v}` }));
    await store.createRun({
      runId: asRunId("old-stream"),
      threadId: thread,
      planHash: "sha256:",
      plan: { type: "plan", plan: calls },
      input: {},
      firstAutoIdNumber: 1,
      streamed: true,
      status: "running",
      startedAt: "2026-11-27T00:00:00.000Z",
    });
    const engine = live(store, []);
    const resumed = await engine.resume("old-stream");
    expect(Object.keys(resumed.calls)).toEqual(["echo$1", "echo$2", "echo$3"]);
    const result = await engine.run(later, { threadId: "t" });
    expect(Object.keys(result.calls)).toEqual(["echo$4", "echo$5"]);
  });

  describe("a plan re-sent with run after a crash", () => {
    const plan = [
      { _tool: "echo", v: 1, _outputPath: "†state.a" },
      { _tool: "echo", v: "†state.a", hang: true, _outputPath: "†state.b" },
    ];

    /** Thread "t" after a run of `plan` died with `echo$2` in flight, numbered from 3 (two runs before). */
    async function crashedRun(store: StateStore): Promise<Seen[]> {
      const before = live(store, []);
      await before.run(
        [
          { _tool: "echo", v: 0 },
          { _tool: "echo", v: 0 },
        ],
        { threadId: "t" },
      );
      const dead: Seen[] = [];
      const dying = crashable(store);
      void createEngine({ tools: [echo(dead, true)], store: dying.store }).run(plan, { threadId: "t" });
      await until(() => dead.length === 2);
      dying.crash();
      return dead;
    }

    it("runs the call the crash cut off with the ids and keys it had", async () => {
      const store = kind.open();
      const dead = await crashedRun(store);
      expect(dead.map((call) => call.key)).toEqual(["t:echo$3", "t:echo$4"]);
      const seen: Seen[] = [];
      const resent = await live(store, seen).run(plan, { threadId: "t" });
      expect(resent.status).toBe("succeeded");
      expect(resent.calls).toMatchObject({
        echo$3: { status: "satisfied" },
        echo$4: { status: "succeeded" },
      });
      expect(seen).toEqual([dead[1]]);
    });

    it("takes no number again: the next run continues after the crashed run's", async () => {
      const store = kind.open();
      await crashedRun(store);
      const engine = live(store, []);
      await engine.run(plan, { threadId: "t" });
      const result = await engine.run(later, { threadId: "t" });
      expect(Object.keys(result.calls)).toEqual(["echo$5", "echo$6"]);
    });

    it("a re-send with another input is another run: fresh ids and keys, the cut-off call's key untouched", async () => {
      const store = kind.open();
      const dead = await crashedRun(store);
      const seen: Seen[] = [];
      // the hash binds the plan, not its input: the same plan for another amount is not the crashed run
      const other = await live(store, seen).run(plan, { threadId: "t", input: { amount: 20 } });
      expect(Object.keys(other.calls)).toEqual(["echo$5", "echo$6"]);
      expect(seen.map((call) => call.key)).not.toContain(dead[1]?.key);
      const validation = await live(store, []).validate(plan, { threadId: "t", input: { amount: 30 } });
      expect(validation.compiled?.calls.map((call) => call.id)).toEqual(["echo$7", "echo$8"]);
    });

    it("validate numbers it as the run will: as the crashed run", async () => {
      const store = kind.open();
      await crashedRun(store);
      const validation = await live(store, []).validate(plan, { threadId: "t" });
      expect(validation.compiled?.calls.map((call) => call.id)).toEqual(["echo$3", "echo$4"]);
    });
  });
});
