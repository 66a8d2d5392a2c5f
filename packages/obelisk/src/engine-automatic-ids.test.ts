import * as compiler from "@obelisk/compiler";
import type { StateStore } from "@obelisk/state";
import { afterEach, describe, expect, it, vi } from "vitest";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, defineTool, type Engine } from "./index.js";

vi.mock("@obelisk/compiler", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@obelisk/compiler")>();
  return { ...actual, compile: vi.fn(actual.compile) };
});

const echo = defineTool({ name: "echo", run: (args: unknown) => (args as { text: string }).text });
/** Two calls without `_id`: both get automatic ids `echo$<n>`. */
const plan = {
  type: "plan",
  plan: [
    { _tool: "echo", text: "a", _outputPath: "†state.a" },
    { _tool: "echo", text: "†state.a", _outputPath: "†state.b" },
  ],
};
const compileCount = () => vi.mocked(compiler.compile).mock.calls.length;
const callIds = (calls: Record<string, unknown>) => Object.keys(calls);

/** The store without `nextCallNumber` (a custom store written before it existed). */
function withoutNextCallNumber(store: StateStore): StateStore {
  return new Proxy(store, {
    get: (target, key) => {
      if (key === "nextCallNumber") return undefined;
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe.each(storeKinds())("automatic call ids ($name store)", (kind) => {
  let engine: Engine | undefined;
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
    kind.cleanup();
  });

  it("continue the thread's counter run after run, and a later run compiles its plan once", async () => {
    engine = createEngine({ tools: [echo], store: kind.open() });
    const first = await engine.run(plan, { threadId: "t" });
    expect(callIds(first.calls)).toEqual(["echo$1", "echo$2"]);
    const before = compileCount();
    const second = await engine.run(plan, { threadId: "t" });
    expect(callIds(second.calls)).toEqual(["echo$3", "echo$4"]);
    expect(second.status).toBe("succeeded");
    expect(compileCount() - before).toBe(1);
  });

  it("validate numbers them as the next run will, and reserves nothing", async () => {
    engine = createEngine({ tools: [echo], store: kind.open() });
    await engine.run(plan, { threadId: "t" });
    const validation = await engine.validate(plan, { threadId: "t" });
    expect(validation.compiled?.calls.map((call) => call.id)).toEqual(["echo$3", "echo$4"]);
    const run = await engine.run(plan, { threadId: "t" });
    expect(callIds(run.calls)).toEqual(["echo$3", "echo$4"]);
  });

  it("an invalid plan reserves no number", async () => {
    engine = createEngine({ tools: [echo], store: kind.open() });
    const broken = { type: "plan", plan: [{ _tool: "echo", text: "†state.nowhere" }] };
    await expect(engine.run(broken, { threadId: "t" })).rejects.toMatchObject({ code: "PLAN_INVALID" });
    const run = await engine.run(plan, { threadId: "t" });
    expect(callIds(run.calls)).toEqual(["echo$1", "echo$2"]);
  });

  it("a store that cannot tell the next number still gets the right ids (compiled again)", async () => {
    engine = createEngine({ tools: [echo], store: withoutNextCallNumber(kind.open()) });
    await engine.run(plan, { threadId: "t" });
    const before = compileCount();
    const second = await engine.run(plan, { threadId: "t" });
    expect(callIds(second.calls)).toEqual(["echo$3", "echo$4"]);
    expect(compileCount() - before).toBe(2);
  });
});
