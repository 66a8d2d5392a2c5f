import { asThreadId } from "@obelisk/core";
import type { StateStore } from "@obelisk/state";
import { afterEach, describe, expect, it } from "vitest";
import { crashable } from "./__fixtures__/crashable-store.js";
import { until } from "./__fixtures__/deferred.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { agentTools, createEngine, type Engine, type ToolDefinition } from "./index.js";

// Decision 0102 (review s40 r2 #15, 0099's open point): a plan re-sent on a thread numbers its calls without
// `_id` anew; such a call satisfied by the earlier run's record stored another copy of the output under
// its new id (`†calls.echo$2`, `echo$3`, … one more per re-send, against the thread's output retention).

/** `echo` returns its `v` and counts its runs (`keys`: each run's idempotency key); `hang` never returns. */
function echo(keys: string[], hangs = false): ToolDefinition {
  return {
    name: "echo",
    run: (args, ctx) => {
      const { v, hang } = args as { v: unknown; hang?: boolean };
      keys.push(ctx.idempotencyKey);
      return hangs && hang === true ? new Promise(() => {}) : v;
    },
  };
}

describe.each(storeKinds())("a re-sent plan's unnamed satisfied call, on the $name store", (kind) => {
  const engines: Engine[] = [];
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.close().catch(() => undefined);
    kind.cleanup();
  });

  function live(store: StateStore, keys: string[] = []): Engine {
    const engine = createEngine({ tools: [echo(keys)], store });
    engines.push(engine);
    return engine;
  }

  /** The stored outputs of thread "t" (`†calls.<id>`), as the variables summary lists them. */
  async function outputs(engine: Engine): Promise<string[]> {
    const { entries } = await engine.summarize("t", { format: "json" });
    return (entries ?? []).map((entry) => entry.reference).filter((ref) => ref.startsWith("†calls."));
  }

  it("stores no copy: sent four times, the thread holds one output, and each run says where it is", async () => {
    const keys: string[] = [];
    const engine = live(kind.open(), keys);
    const plan = [{ _tool: "echo", v: { answer: 42 } }];
    await engine.run(plan, { threadId: "t" });
    for (const id of ["echo$2", "echo$3", "echo$4"]) {
      const again = await engine.run(plan, { threadId: "t" });
      expect(again.calls[id]).toMatchObject({ status: "satisfied", wrote: [], outputId: "echo$1" });
    }
    expect(keys).toEqual(["t:echo$1"]);
    expect(await outputs(engine)).toEqual(["†calls.echo$1"]);
    expect(await engine.get("t", "†calls.echo$1")).toEqual({ found: true, value: { answer: 42 } });
  });

  it("a reader of the re-sent call's new id reads its value in the run (batch and stream)", async () => {
    const engine = live(kind.open());
    await engine.run([{ _tool: "echo", v: 7 }], { threadId: "t" });
    const batch = await engine.run(
      [
        { _tool: "echo", v: 7 },
        { _tool: "echo", v: "†calls.echo$2", _outputPath: "†state.batch" },
      ],
      { threadId: "t" },
    );
    expect(batch.calls.echo$2).toMatchObject({ status: "satisfied", outputId: "echo$1" });
    expect(batch.state).toEqual({ batch: 7 });
    const stream = await engine.open({ threadId: "t" });
    expect(stream.add({ _tool: "echo", v: 7 })).toMatchObject({ ok: true, callId: "echo$4" });
    expect(stream.add({ _tool: "echo", v: "†calls.echo$4", _outputPath: "†state.stream" })).toMatchObject({
      ok: true,
    });
    const streamed = await stream.close();
    expect(streamed.calls.echo$4).toMatchObject({ status: "satisfied", outputId: "echo$1" });
    expect(streamed.state).toEqual({ batch: 7, stream: 7 });
    expect(await outputs(engine)).toEqual(["†calls.echo$1"]);
  });

  it("a re-send that crashed after its satisfied call: resume and re-send store no copy either", async () => {
    const store = kind.open();
    await live(store).run([{ _tool: "echo", v: 1 }], { threadId: "t" });
    // the reader names the re-sent call by the id it gets (`echo$<first>`)
    const plan = (first: number) => [
      { _tool: "echo", v: 1 },
      { _tool: "echo", v: `†calls.echo$${first}`, hang: true, _outputPath: `†state.b${first}` },
    ];
    const crash = async (first: number): Promise<string> => {
      const dead: string[] = [];
      const dying = crashable(store);
      const engine = createEngine({ tools: [echo(dead, true)], store: dying.store });
      void engine.run(plan(first), { threadId: "t" });
      await until(() => dead.length === 1);
      dying.crash();
      expect(dead).toEqual([`t:echo$${first + 1}`]);
      const [newest] = await store.listRuns({ threadId: asThreadId("t"), status: "interrupted" });
      return newest?.runId as string;
    };
    const keys: string[] = [];
    const engine = live(store, keys);
    const resumed = await engine.resume(await crash(2));
    expect(resumed.calls).toMatchObject({
      echo$2: { status: "satisfied", outputId: "echo$1", wrote: [] },
      echo$3: { status: "succeeded" },
    });
    expect(resumed.state).toEqual({ b2: 1 });
    await crash(4);
    // the reader names echo$4, which only the crashed run's numbering gives this plan (the thread holds no
    // copy under it): validate and the re-send number it so
    const validation = await engine.validate(plan(4), { threadId: "t" });
    expect(validation.ok).toBe(true);
    expect(validation.compiled.calls.map((call) => call.id)).toEqual(["echo$4", "echo$5"]);
    const resent = await engine.run(plan(4), { threadId: "t" });
    expect(resent.calls).toMatchObject({
      echo$4: { status: "satisfied", outputId: "echo$1" },
      echo$5: { status: "succeeded" },
    });
    // the cut-off reader ran with the key it had (decision 0099), both times
    expect(keys).toEqual(["t:echo$3", "t:echo$5"]);
    expect(await outputs(engine)).toEqual(["†calls.echo$1"]);
  });
});

describe("run_plan of a re-sent plan with an unnamed call (agent tools)", () => {
  it("holds names the earlier id, and list_variables shows the output once", async () => {
    const engine = createEngine({ tools: [echo([])] });
    const [, runPlan, listVariables] = agentTools(engine, "t");
    const plan = { type: "plan", plan: [{ _tool: "echo", v: "found" }] };
    await runPlan.execute({ plan });
    await runPlan.execute({ plan });
    const answer = (await runPlan.execute({ plan })) as {
      calls: Record<string, unknown>;
      summary: string;
    };
    expect(answer.calls).toEqual({
      echo$3: expect.objectContaining({ status: "satisfied", wrote: [], holds: ["†calls.echo$1"] }),
    });
    expect(answer.summary).toContain("†calls.echo$1");
    const listed = (await listVariables.execute({})) as { text: string };
    expect(listed.text.match(/†calls\.echo\$\d/g)).toEqual(["†calls.echo$1"]);
    await engine.close();
  });
});
