import { afterEach, describe, expect, it } from "vitest";
import { crashable } from "./__fixtures__/crashable-store.js";
import { until } from "./__fixtures__/deferred.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type Engine, type RunEvent, type ToolDefinition } from "./index.js";

describe.each(storeKinds())("a streamed run whose process died, on the $name store", (kind) => {
  let engine: Engine | undefined;
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
    kind.cleanup();
  });

  it("gets the hash of its stored plan when resume marks it cancelled (it kept sha256: with no digest)", async () => {
    const started: string[] = [];
    const step = (hang: boolean): ToolDefinition => ({
      name: "step",
      run: (args) => {
        const key = String((args as { key: unknown }).key);
        started.push(key);
        return hang && key === "b" ? new Promise(() => {}) : key;
      },
    });
    const store = kind.open();
    const dying = crashable(store);
    const events: RunEvent[] = [];
    const first = createEngine({ tools: [step(true)], store: dying.store, onEvent: (e) => events.push(e) });
    const run = await first.open({ threadId: "c", input: { v: 7 } });
    expect(run.add({ _tool: "step", key: "a", _outputPath: "†state.a" }).ok).toBe(true);
    expect(run.add({ _tool: "step", key: "b", _outputPath: "†state.b" }).ok).toBe(true);
    expect(run.add({ _tool: "step", _id: "named", key: "†state.a" }).ok).toBe(true);
    await until(() => started.includes("b") && started.includes("a"));
    // a stream's run-start is sent before any call is added: no plan, so no hash yet
    expect(events.find((e) => e.type === "run-start")).toMatchObject({ planHash: "sha256:", calls: 0 });
    dying.crash();

    engine = createEngine({ tools: [step(false)], store });
    const [crashed] = await engine.runs.list({ threadId: "c" });
    // its process is gone (no run holds the thread): listed interrupted, still without a digest
    expect(crashed).toMatchObject({ runId: run.runId, status: "interrupted", planHash: "sha256:" });
    const resumed = await engine.resume(run.runId);
    expect(resumed.status).toBe("succeeded");
    const record = (await engine.runs.show(run.runId)).run;
    const expected = (await engine.validate(record.plan, { threadId: "other", input: { v: 7 } })).planHash;
    expect(expected).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(record).toMatchObject({ status: "cancelled", planHash: expected });
    expect(record.plan).toEqual({
      type: "plan",
      plan: [
        { _tool: "step", key: "a", _outputPath: "†state.a" },
        { _tool: "step", key: "b", _outputPath: "†state.b" },
        { _tool: "step", _id: "named", key: "†state.a" },
      ],
    });
    // the resume ran the same plan: its hash is the one the crashed run now has
    expect(resumed.planHash).toBe(expected);
  });
});
