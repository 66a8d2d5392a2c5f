import type { StateStore } from "@obelisk/state";
import { afterEach, describe, expect, it } from "vitest";
import { Controller } from "./__fixtures__/controlled-tools.js";
import { until } from "./__fixtures__/deferred.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type Engine, ObeliskError } from "./index.js";

/** Makes the store's `nth` call of `reserveCallNumbers` throw STORE_ERROR. */
function failReservation(store: StateStore, nth: number): StateStore {
  const reserve = store.reserveCallNumbers.bind(store);
  let calls = 0;
  Object.assign(store, {
    reserveCallNumbers: (...args: Parameters<StateStore["reserveCallNumbers"]>) => {
      calls++;
      if (calls === nth) throw new ObeliskError("STORE_ERROR", "disk full");
      return reserve(...args);
    },
  });
  return store;
}

describe.each(storeKinds())("closing a streaming run on the $name store", (kind) => {
  let engine: Engine;
  afterEach(async () => {
    await engine.close();
    kind.cleanup();
  });

  it("a call holding a value that is not JSON (a BigInt) is refused at add; close succeeds", async () => {
    engine = createEngine({ tools: [{ name: "val", run: (args: unknown) => args }], store: kind.open() });
    const run = await engine.open({ threadId: "big" });
    const added = run.add({ _tool: "val", v: 1n });
    expect(added.ok).toBe(false);
    expect(added.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["JSON_SYNTAX", "/plan/0/v"]]);
    expect((await run.close()).status).toBe("succeeded");
    expect((await engine.runs.list({ threadId: "big" })).map((r) => r.status)).toEqual(["succeeded"]);
  });

  it("when close throws, the run record ends `failed`, calls in flight settle and the thread is unlocked", async () => {
    const control = new Controller();
    engine = createEngine({ tools: [control.tool("wait")], store: failReservation(kind.open(), 2) });
    const run = await engine.open({ threadId: "s" });
    expect(run.add({ _tool: "wait", key: "a", _outputPath: "†state.a" }).ok).toBe(true);
    expect(run.add({ _tool: "wait", key: "b", _outputPath: "†state.b" }).ok).toBe(true);
    await until(() => control.started.length === 2);
    let closed: string | undefined;
    const closing = run.close().then(
      () => "resolved",
      (error: unknown) => (ObeliskError.is(error) ? error.code : "not an ObeliskError"),
    );
    void closing.then((outcome) => {
      closed = outcome;
    });
    for (let turn = 0; turn < 200; turn++) await Promise.resolve();
    expect(closed).toBeUndefined(); // (the reservation failed: close waits for the calls in flight)
    control.finish("a");
    control.finish("b");
    expect(await closing).toBe("STORE_ERROR");
    expect(control.inFlight).toBe(0);
    const [record] = await engine.runs.list({ threadId: "s" });
    expect(record).toMatchObject({ runId: run.runId, status: "failed" });
    expect(record?.endedAt).toEqual(expect.any(String));
    const later = await engine.open({ threadId: "s" });
    expect((await later.close()).status).toBe("succeeded");
  });
});
