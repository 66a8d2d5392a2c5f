import { afterEach, describe, expect, it } from "vitest";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type Engine } from "./index.js";

// Decision 0104 (review s41 r3 #5): a run refused THREAD_BUSY names the run that holds the thread.

/** A tool that waits until `release` is called; `entered` resolves once it runs. */
function holding() {
  let release: () => void = () => undefined;
  let entered: () => void = () => undefined;
  const started = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const tool = {
    name: "hold",
    run: () =>
      new Promise<number>((resolve) => {
        release = () => resolve(1);
        entered();
      }),
  };
  return { tool, started, release: () => release() };
}

describe.each(storeKinds())("THREAD_BUSY names the holder's run ($name store)", (kind) => {
  const engines: Engine[] = [];
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.close().catch(() => undefined);
    kind.cleanup();
  });

  it("data.holderRunId is the run holding the thread, with a hint to show it", async () => {
    const hold = holding();
    const engine = createEngine({ tools: [hold.tool], store: kind.open() });
    engines.push(engine);
    const first = engine.start([{ _tool: "hold", _id: "h" }], { threadId: "t" });
    await hold.started;
    const [holder] = await engine.runs.list({ threadId: "t" });
    const refused = engine.run([{ _tool: "hold", _id: "h2" }], { threadId: "t" });
    await expect(refused).rejects.toMatchObject({
      code: "THREAD_BUSY",
      data: { threadId: "t", holderRunId: holder?.runId },
      hint: expect.stringContaining(`run "${holder?.runId}" holds it`),
    });
    hold.release();
    expect((await first.result).status).toBe("succeeded");
  });

  it("a thread a host edit holds (no run recorded) answers THREAD_BUSY without holderRunId", async () => {
    const engine = createEngine({ tools: [], store: kind.open() });
    engines.push(engine);
    const lock = await engine.store.lockThread("t" as never);
    const refused = await engine.run([], { threadId: "t" }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "THREAD_BUSY" });
    expect((refused as { data: object }).data).not.toHaveProperty("holderRunId");
    await lock.release();
  });
});
