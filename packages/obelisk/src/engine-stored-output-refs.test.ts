import type { StateStore } from "@obelisk/state";
import { afterEach, describe, expect, it } from "vitest";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type Engine, ObeliskError, type ToolDefinition } from "./index.js";

const tools: ToolDefinition[] = [
  {
    name: "mk",
    input: { type: "object" },
    output: { type: "object", properties: { a: { type: "string" } } },
    run: () => ({ a: "x" }),
  },
  {
    name: "pNum",
    input: { type: "object", properties: { p: { type: "number" } }, required: ["p"] },
    run: () => 1,
  },
  {
    name: "pStr",
    input: { type: "object", properties: { p: { type: "string" } }, required: ["p"] },
    run: () => 1,
  },
];
const shape = (diagnostics: readonly { code: string; pointer: string }[]) =>
  diagnostics.map((d) => [d.code, d.pointer]);

/** The store, counting the ids `getCallOutput` is asked for. */
function counting(store: StateStore, asked: string[]): StateStore {
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key === "getCallOutput")
        return (threadId: never, id: string) => {
          asked.push(id);
          return target.getCallOutput(threadId, id);
        };
      const value = Reflect.get(target, key, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe.each(storeKinds())("references below a stored call output are checked ($name store)", (kind) => {
  let engine: Engine;
  afterEach(async () => {
    await engine.close();
    kind.cleanup();
  });

  it("validate, run and streaming judge the stored value's paths and types; only read outputs load", async () => {
    const asked: string[] = [];
    engine = createEngine({ tools, store: counting(kind.open(), asked) });
    await engine.run(
      [
        { _tool: "mk", _id: "named" },
        { _tool: "mk", _id: "unread" },
      ],
      { threadId: "t" },
    );
    asked.length = 0;
    const missing = [{ _tool: "pStr", p: "†calls.named.zz" }];
    const mistyped = [{ _tool: "pNum", p: "†calls.named.a" }];
    const validated = await engine.validate(missing, { threadId: "t" });
    expect(shape(validated.diagnostics)).toEqual([["REF_UNRESOLVED", "/0/p"]]);
    expect(validated.diagnostics[0]?.hint).toContain('the output stored for call "named"');
    expect(shape((await engine.validate(mistyped, { threadId: "t" })).diagnostics)).toEqual([
      ["REF_TYPE_MISMATCH", "/0/p"],
    ]);
    expect((await engine.validate([{ _tool: "pStr", p: "†calls.named.a" }], { threadId: "t" })).ok).toBe(
      true,
    );
    // one load per compile, of the output the plan reads ("unread" is never loaded)
    expect(asked).toEqual(["named", "named", "named"]);
    await expect(engine.run(mistyped, { threadId: "t" })).rejects.toSatisfy(
      (error) => ObeliskError.is(error) && error.code === "PLAN_INVALID",
    );
    const run = await engine.open({ threadId: "t" });
    expect(shape(run.add(mistyped[0]).diagnostics)).toEqual([["REF_TYPE_MISMATCH", "/plan/0/p"]]);
    await run.close();
    await engine.keepLastN("t", 0);
    const evicted = await engine.validate([{ _tool: "pStr", p: "†calls.named.a" }], { threadId: "t" });
    expect(shape(evicted.diagnostics)).toEqual([["REF_UNRESOLVED", "/0/p"]]);
    expect(evicted.diagnostics[0]?.hint).toMatch(/^REF_EVICTED: †calls\.named was evicted/);
  });

  it("†calls.<id> of an earlier run's call with an _outputPath names what it wrote (SPEC §3)", async () => {
    engine = createEngine({ tools, store: kind.open() });
    await engine.run([{ _tool: "mk", _id: "w", _outputPath: "†state.made && †state.copy" }], {
      threadId: "t",
    });
    const hint = 'call "w" of an earlier run has an _outputPath: read †state.copy.a or †state.made.a instead';
    const validated = await engine.validate([{ _tool: "pStr", _id: "r", p: "†calls.w.a" }], {
      threadId: "t",
    });
    expect(shape(validated.diagnostics)).toEqual([["REF_UNRESOLVED", "/0/p"]]);
    expect(validated.diagnostics[0]?.hint).toBe(hint);
    // the thread's variables are listed once per compile, however many such references the plan has
    let listed = 0;
    const store = kind.open();
    const listing = new Proxy(store, {
      get(target, key, receiver) {
        if (key === "listVariables")
          return (threadId: never) => {
            listed++;
            return target.listVariables(threadId);
          };
        const value = Reflect.get(target, key, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const readers = ["w", "x", "y", "w"].map((id, index) => ({
      _tool: "pStr",
      _id: `r${index}`,
      p: `†calls.${id}`,
    }));
    const counted = createEngine({ tools, store: listing });
    await counted.run([{ _tool: "mk", _id: "w", _outputPath: "†state.made" }], { threadId: "t2" });
    listed = 0;
    const many = await counted.validate(readers, { threadId: "t2" });
    expect(many.diagnostics.map((d) => d.code)).toEqual(Array(4).fill("REF_UNRESOLVED"));
    expect(listed).toBe(1);
    await counted.close();
    // streamed, the call fails when the run closes, with the same hint
    const run = await engine.open({ threadId: "t" });
    run.add({ _tool: "pStr", _id: "r", p: "†calls.w.a" });
    const closed = await run.close();
    expect(closed.errors.map(({ callId, error }) => [callId, error.code, error.message])).toEqual([
      ["r", "REF_UNRESOLVED", `†calls.w.a does not exist (${hint})`],
    ]);
    // the engine's own reader says the same
    await expect(engine.get("t", "†calls.w.a")).rejects.toSatisfy(
      (error) => ObeliskError.is(error) && error.hint === "read †state.copy.a instead",
    );
  });
});
