import { afterEach, describe, expect, it } from "vitest";
import { codeOf } from "./__fixtures__/error-codes.js";
import { hugeArray } from "./__fixtures__/huge-array.js";
import { type SnapshotStore, snapshotStoreKinds } from "./__fixtures__/snapshot-stores.js";
import { agentTools, createEngine, defineTool, type Engine } from "./index.js";

const echo = defineTool({ name: "echo", run: (args: unknown) => args });
/** Item reads allowed of the hostile array: the engine reads none (the copy refuses it by its length). */
const BOUND = 1_000;
const SIZE_LIMIT = [["PLAN_LIMIT", ""]];
/** A plan object holding an array-like Proxy that claims a billion items. */
const hostilePlan = (value: unknown[]) => ({ type: "plan", plan: [{ _tool: "echo", x: value }] });
const pairs = (diagnostics: readonly { code: string; pointer: string }[]) =>
  diagnostics.map((d) => [d.code, d.pointer]);

/** An agent tool's answer to `args`. */
const answerOf = (engine: Engine, name: string, args: Record<string, unknown>) =>
  agentTools(engine, "t")
    .find((tool) => tool.name === name)
    ?.execute(args) as Promise<{
    ok: boolean;
    diagnostics?: { code: string; pointer: string }[];
    error?: { code: string };
  }>;

describe.each(snapshotStoreKinds())("a plan object holding a huge array-like Proxy ($name store)", (kind) => {
  let engine: Engine;
  let opened: SnapshotStore;
  afterEach(async () => {
    await engine.close();
  });

  const entries: readonly [string, (plan: unknown) => Promise<unknown>][] = [
    ["validate", async (plan) => pairs((await engine.validate(plan, { threadId: "t" })).diagnostics)],
    ["run", (plan) => codeOf(engine.run(plan, { threadId: "t" }))],
    ["start", (plan) => codeOf(engine.start(plan, { threadId: "t" }).result)],
    [
      "validate_plan",
      async (plan) => pairs((await answerOf(engine, "validate_plan", { plan })).diagnostics ?? []),
    ],
    ["run_plan", async (plan) => (await answerOf(engine, "run_plan", { plan })).error?.code],
  ];
  const expected: Record<string, unknown> = {
    validate: SIZE_LIMIT,
    run: "PLAN_INVALID",
    start: "PLAN_INVALID",
    validate_plan: SIZE_LIMIT,
    run_plan: "PLAN_INVALID",
  };

  it.each(entries)(
    "%s refuses it at maxDocumentBytes at once, reading none of its items, storing nothing",
    async (name, call) => {
      opened = kind.open();
      engine = createEngine({ tools: [echo], store: opened.store });
      await engine.run([{ _tool: "echo", x: 1, _outputPath: "†state.a" }], { threadId: "t" });
      const before = await opened.snapshot(["t"]);
      const huge = hugeArray(BOUND);
      expect(await call(hostilePlan(huge.value))).toEqual(expected[name]);
      expect(huge.reads).toEqual({ reads: 0, over: false });
      expect(await opened.snapshot(["t"])).toBe(before);
    },
  );

  it("rerun given as one is USAGE before any id is read, and a list within maxCalls still runs", async () => {
    opened = kind.open();
    engine = createEngine({ tools: [echo], store: opened.store, limits: { maxCalls: 3 } });
    const plan = [{ _tool: "echo", _id: "a", x: 1, _outputPath: "†state.a" }];
    await engine.run(plan, { threadId: "t" });
    const before = await opened.snapshot(["t"]);
    const huge = hugeArray(BOUND, () => "a");
    const rerun = huge.value as string[];
    for (const method of ["run", "validate"] as const) {
      const refused = await engine[method](plan, { threadId: "t", rerun }).catch((e: unknown) => e);
      expect(refused).toMatchObject({
        code: "USAGE",
        message: "rerun names 1000000000 ids, more than a plan has calls (maxCalls 3)",
      });
    }
    expect(huge.reads).toEqual({ reads: 0, over: false });
    expect(await opened.snapshot(["t"])).toBe(before);
    const again = await engine.run(plan, { threadId: "t", rerun: ["a", "a", "a"] });
    expect(again.calls.a?.status).toBe("succeeded");
  });

  it("a stream's add refuses a call holding one at its pointer, reading none of its items", async () => {
    opened = kind.open();
    engine = createEngine({ tools: [echo], store: opened.store });
    const stream = await engine.open({ threadId: "t" });
    const huge = hugeArray(BOUND);
    const added = stream.add({ _tool: "echo", x: huge.value });
    expect(pairs(added.diagnostics)).toEqual([["PLAN_LIMIT", "/plan/0"]]);
    expect(huge.reads).toEqual({ reads: 0, over: false });
    await stream.close();
  });
});
