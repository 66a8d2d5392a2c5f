import { afterEach, describe, expect, it } from "vitest";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type Engine, type RunResult, type ToolDefinition } from "./index.js";

const tools: ToolDefinition[] = [
  { name: "latent", input: { type: "object" }, output: { type: "object" } },
  {
    name: "echo",
    input: { type: "object", properties: { v: {} } },
    run: (args) => (args as { v?: unknown }).v ?? null,
  },
];

/**
 * `close()`, or "still pending" when it has not settled after `turns` turns of the event loop. The tools
 * are synchronous and the stores answer without timers, so a run that can end has ended by then: no real
 * waiting, and a hang fails the test instead of the test timing out.
 */
async function closeWithin(close: Promise<RunResult>, turns = 500): Promise<RunResult | "still pending"> {
  let settled: { readonly result: RunResult } | undefined;
  let failure: { readonly error: unknown } | undefined;
  close.then(
    (result) => {
      settled = { result };
    },
    (error: unknown) => {
      failure = { error };
    },
  );
  for (let turn = 0; turn < turns && settled === undefined && failure === undefined; turn++)
    await new Promise((resolve) => setImmediate(resolve));
  if (failure !== undefined) throw failure.error;
  return settled?.result ?? "still pending";
}

describe.each(storeKinds())("a call refused by add on the $name store did not happen", (kind) => {
  let engine: Engine | undefined;
  const setup = (): Engine => {
    engine = createEngine({ tools, store: kind.open() });
    return engine;
  };
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
    kind.cleanup();
  });

  it("its automatic id goes to the next call, so resume gives the accepted calls the ids they had", async () => {
    const keys: string[] = [];
    let hold: (() => void) | undefined;
    engine = createEngine({
      store: kind.open(),
      tools: [
        {
          name: "echo",
          input: { type: "object", properties: { v: {} } },
          run: (args, ctx) => {
            keys.push(`${ctx.idempotencyKey}=${String((args as { v: unknown }).v)}`);
            if ((args as { v: unknown }).v !== "b" || hold === undefined) return (args as { v: unknown }).v;
            return new Promise((resolve) => {
              hold = () => resolve("b");
            });
          },
        },
      ],
    });
    hold = () => {};
    const abort = new AbortController();
    const run = await engine.open({ threadId: "s", signal: abort.signal });
    expect(run.add({ _tool: "echo", v: "a", _outputPath: "†state.a" })).toMatchObject({
      ok: true,
      callId: "echo$1",
    });
    expect(run.add({ _tool: "echo", v: "bad", _outputPath: "†input.q" }).ok).toBe(false);
    expect(run.add({ _tool: "echo", v: "b", _outputPath: "†state.b" })).toMatchObject({
      ok: true,
      callId: "echo$2",
    });
    expect(run.add({ _tool: "echo", v: "c", _outputPath: "†state.c" })).toMatchObject({
      ok: true,
      callId: "echo$3",
    });
    abort.abort();
    const interrupted = await closeWithin(run.close());
    expect(interrupted).not.toBe("still pending");
    hold = undefined;
    const resumed = await engine.resume(run.runId);
    expect(resumed.status).toBe("succeeded");
    expect(Object.fromEntries(Object.entries(resumed.calls).map(([id, call]) => [id, call.status]))).toEqual({
      echo$1: "satisfied",
      echo$2: "succeeded",
      echo$3: "satisfied",
    });
    expect(keys).toEqual(["s:echo$1=a", "s:echo$2=b", "s:echo$3=c", "s:echo$2=b"]);
  });

  it("a reader of its path is not wired to it: close ends the reader REF_UNRESOLVED instead of hanging", async () => {
    const run = await setup().open({ threadId: "t", input: { amount: 5 } });
    const refused = run.add({ _tool: "latent", _id: "w", _output: 5, _outputPath: "†state.w" });
    expect(refused.ok).toBe(false);
    expect(refused.diagnostics.map((d) => d.code)).toEqual(["PARAM_INVALID"]);
    expect(run.add({ _tool: "echo", _id: "pay", v: "†state.w", _outputPath: "†state.paid" }).ok).toBe(true);
    const result = await closeWithin(run.close());
    if (result === "still pending") throw new Error("close() never returned");
    expect(result.status).toBe("failed");
    expect(Object.keys(result.calls)).toEqual(["pay"]);
    expect(result.calls.pay).toMatchObject({ status: "failed", error: { code: "REF_UNRESOLVED" } });
    expect(result.state).toEqual({});
  });

  it("the reader waits for another writer of the path: the corrected call, sent with the same _id", async () => {
    const run = await setup().open({ threadId: "t" });
    expect(run.add({ _tool: "latent", _id: "w", _output: 5, _outputPath: "†state.w" }).ok).toBe(false);
    run.add({ _tool: "echo", _id: "pay", v: "†state.w", _outputPath: "†state.paid" });
    const again = run.add({ _tool: "latent", _id: "w", _output: { amount: 5 }, _outputPath: "†state.w" });
    expect(again).toEqual({ ok: true, callId: "w", diagnostics: [] });
    const result = await closeWithin(run.close());
    if (result === "still pending") throw new Error("close() never returned");
    expect(result.status).toBe("succeeded");
    expect(result.state).toEqual({ w: { amount: 5 }, paid: { amount: 5 } });
    // the run record holds the accepted calls only: the refused one is not re-run by a resume
    expect((await engine?.runs.show(run.runId))?.run.plan).toEqual({
      type: "plan",
      plan: [
        { _tool: "echo", _id: "pay", v: "†state.w", _outputPath: "†state.paid" },
        { _tool: "latent", _id: "w", _output: { amount: 5 }, _outputPath: "†state.w" },
      ],
    });
  });

  it("a refused write under †state.approvals (OUTPUT_PATH_READONLY) leaves the gate's reader waiting", async () => {
    const run = await setup().open({ threadId: "t" });
    const refused = run.add({
      _tool: "latent",
      _id: "a",
      _output: { approved: true },
      _outputPath: "†state.approvals.pay",
    });
    expect(refused.diagnostics.map((d) => d.code)).toEqual(["OUTPUT_PATH_READONLY"]);
    run.add({ _tool: "echo", _id: "pay", v: "†state.approvals.pay", _outputPath: "†state.paid" });
    const result = await closeWithin(run.close());
    if (result === "still pending") throw new Error("close() never returned");
    expect(result.calls.pay?.status).toBe("waiting");
    expect(result.state).toEqual({});
  });
});
