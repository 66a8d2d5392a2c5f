import type { StateStore } from "@obelisk/state";
import { afterEach, describe, expect, it } from "vitest";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type Engine, ObeliskError } from "./index.js";

// Review s40 r3 P1 (decision 0099): a run whose end the store refused to record (another program held
// SQLite's write lock past busyTimeoutMs) is left `running` with its thread released; it was then listed
// `interrupted` as if its process had stopped, although the process was alive and had thrown STORE_ERROR.

describe.each(storeKinds())("a run whose end could not be recorded, on the $name store", (kind) => {
  let engine: Engine | undefined;
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
    kind.cleanup();
  });

  it("is interrupted with a reason that covers it, not only a stopped process", async () => {
    const store: StateStore = kind.open();
    const finish = store.finishRun.bind(store);
    let refuse = true;
    Object.assign(store, {
      finishRun: (...args: Parameters<StateStore["finishRun"]>) => {
        if (refuse) throw new ObeliskError("STORE_ERROR", "database is locked");
        return finish(...args);
      },
    });
    engine = createEngine({ tools: [{ name: "t", run: () => 1 }], store });
    await expect(engine.run([{ _tool: "t", _id: "a" }], { threadId: "x" })).rejects.toMatchObject({
      code: "STORE_ERROR",
    });
    refuse = false;
    const [run] = await engine.runs.list({ threadId: "x" });
    expect(run?.status).toBe("interrupted");
    expect(run?.reason).toBe(
      'no run holds thread "x": the run was left running: its process stopped, or could not record its end',
    );
  });
});
