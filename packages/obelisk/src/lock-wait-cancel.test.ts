import { asThreadId } from "@obelisk/core";
import { createSqliteStore } from "@obelisk/state/sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { Controller } from "./__fixtures__/controlled-tools.js";
import { until } from "./__fixtures__/deferred.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { tempStoreFiles } from "./__fixtures__/temp-store-file.js";
import { createEngine, ObeliskError } from "./index.js";

const call = (key: string) => [{ _tool: "wait", _id: key, key, _outputPath: `†state.${key}` }];

describe.each(storeKinds())("a run cancelled while it waits for the thread lock ($name)", (kind) => {
  afterEach(() => kind.cleanup());

  it("gives up the wait at once (THREAD_BUSY, cancelled): no record, no automatic ids used", async () => {
    const control = new Controller();
    // a lock wait far longer than the test: only the abort can end it
    const engine = createEngine({ tools: [control.tool("wait")], store: kind.open(), lockWaitMs: 600_000 });
    const first = engine.run(call("a"), { threadId: "t" });
    await until(() => control.started.length === 1);
    const abort = new AbortController();
    const waiting = engine.run([{ _tool: "wait", key: "b" }], { threadId: "t", signal: abort.signal });
    abort.abort();
    const error = await waiting.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(ObeliskError.is(error) && error.code).toBe("THREAD_BUSY");
    expect((error as ObeliskError).data).toMatchObject({ cancelled: true });
    // an already aborted signal does not wait either
    expect(await engine.run(call("c"), { threadId: "t", signal: abort.signal }).catch((e) => e.code)).toBe(
      "THREAD_BUSY",
    );
    control.pending.get("a")?.resolve(1);
    expect((await first).status).toBe("succeeded");
    expect(await engine.runs.list({ threadId: "t" })).toHaveLength(1);
    expect(await engine.store.nextCallNumber?.(asThreadId("t"))).toBe(1);
    await engine.close();
  });
});

describe("a run cancelled while another connection to the SQLite file holds the thread", () => {
  const newFile = tempStoreFiles("obelisk-test-");

  it("gives up the cross-process wait at once (THREAD_BUSY, cancelled)", async () => {
    const file = newFile();
    const control = new Controller();
    // two engines, two connections: the second waits on the file's lock row, not the in-process lock
    const holder = createEngine({ tools: [control.tool("wait")], store: createSqliteStore(file) });
    const waiter = createEngine({
      tools: [control.tool("wait")],
      store: createSqliteStore(file),
      lockWaitMs: 600_000,
    });
    const first = holder.run(call("a"), { threadId: "t" });
    await until(() => control.started.length === 1);
    const abort = new AbortController();
    const waiting = waiter.run(call("b"), { threadId: "t", signal: abort.signal });
    abort.abort();
    const error = await waiting.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect((error as ObeliskError).code).toBe("THREAD_BUSY");
    expect((error as ObeliskError).data).toMatchObject({ cancelled: true });
    control.pending.get("a")?.resolve(1);
    expect((await first).status).toBe("succeeded");
    expect(await waiter.runs.list({ threadId: "t" })).toHaveLength(1);
    await waiter.close();
    await holder.close();
  });
});
