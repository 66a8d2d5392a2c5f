import { afterEach, describe, expect, it } from "vitest";
import { storeKinds } from "./__fixtures__/stores.js";
import { asThreadId, createEngine, defineTool, type Engine, type StateStore } from "./index.js";

const echo = defineTool({
  name: "echo",
  input: { type: "object", properties: { value: {} } },
  run: (args) => (args as { value: unknown }).value,
});
/** A plan with an automatic id and one reading the state: the context and the next number are both needed. */
const plan = [
  { _tool: "echo", value: 1, _outputPath: "†state.a" },
  { _tool: "echo", _id: "b", value: "†state.a", _outputPath: "†state.b" },
];

/** `store`, counting its `getThread` calls in `reads`. */
function countingReads(store: StateStore, reads: { count: number }): StateStore {
  return new Proxy(store, {
    get: (target, key) => {
      const value = Reflect.get(target, key, target);
      if (key !== "getThread" || typeof value !== "function") {
        return typeof value === "function" ? value.bind(target) : value;
      }
      return (...args: Parameters<StateStore["getThread"]>) => {
        reads.count++;
        return target.getThread(...args);
      };
    },
  });
}

describe.each(storeKinds())("validate and run read the thread once ($name store)", (kind) => {
  let engine: Engine;
  afterEach(async () => {
    await engine.close();
    kind.cleanup();
  });

  it("validate reads it once, on a new thread (creating none) and on a held one", async () => {
    const reads = { count: 0 };
    engine = createEngine({ tools: [echo], store: countingReads(kind.open(), reads) });
    expect((await engine.validate(plan, { threadId: "t" })).ok).toBe(true);
    expect(reads.count).toBe(1);
    expect(await engine.store.getThread(asThreadId("t"))).toBeUndefined();
    await engine.set("t", "†state.x", 1);
    reads.count = 0;
    const validation = await engine.validate(plan, { threadId: "t" });
    expect(validation.compiled.calls.map((call) => call.id)).toEqual(["echo$2", "b"]);
    expect(reads.count).toBe(1);
  });

  it("run reads it once and numbers its automatic ids as before", async () => {
    const reads = { count: 0 };
    engine = createEngine({ tools: [echo], store: countingReads(kind.open(), reads) });
    expect(Object.keys((await engine.run(plan, { threadId: "t" })).calls)).toEqual(["echo$1", "b"]);
    expect(reads.count).toBe(1);
    reads.count = 0;
    expect(Object.keys((await engine.run(plan, { threadId: "t" })).calls)).toEqual(["echo$2", "b"]);
    expect(reads.count).toBe(1);
  });
});
