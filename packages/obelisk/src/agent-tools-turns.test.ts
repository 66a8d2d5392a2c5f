import { describe, expect, it } from "vitest";
import { Controller } from "./__fixtures__/controlled-tools.js";
import { until } from "./__fixtures__/deferred.js";
import { agentTools, branch, createEngine, defineTool, type RunPlanAnswer } from "./index.js";

const give = defineTool({
  name: "give",
  input: { type: "object", properties: { value: {} }, required: ["value"] },
  run: (args: unknown) => (args as { value: unknown }).value,
});
const check = defineTool({
  name: "check",
  input: { type: "object", properties: { value: {} }, required: ["value"] },
  run: (args: unknown) => branch(1, { value: (args as { value: unknown }).value }),
});
const waitCall = (key: string) => ({ _tool: "wait", _id: key, key, _outputPath: `†state.${key}` });

describe("run_plan as a model's tool: parallel calls, a busy thread, re-sent plans", () => {
  it("two run_plan calls of one turn take turns: the second starts when the first ended, neither is THREAD_BUSY", async () => {
    const control = new Controller();
    const engine = createEngine({ tools: [control.tool("wait")] });
    const [, runPlan] = agentTools(engine, "t");
    const first = runPlan.execute({ plan: [waitCall("a")] });
    const second = runPlan.execute({ plan: [waitCall("b")] });
    await until(() => control.started.includes("a"));
    // the second waits for the first instead of answering THREAD_BUSY
    for (let turn = 0; turn < 50; turn++) await Promise.resolve();
    expect(control.started).toEqual(["a"]);
    control.finish("a");
    await until(() => control.started.includes("b"));
    control.finish("b");
    expect(await first).toMatchObject({ status: "succeeded", calls: { a: { status: "succeeded" } } });
    expect(await second).toMatchObject({ status: "succeeded", calls: { b: { status: "succeeded" } } });
    await engine.close();
  });

  it("get_variable and list_variables of the same turn as a run_plan answer once it wrote (s32 review L3)", async () => {
    const control = new Controller();
    const engine = createEngine({ tools: [control.tool("wait")] });
    const [, runPlan, listVariables, getVariable] = agentTools(engine, "t");
    const run = runPlan.execute({ plan: [waitCall("a")] });
    await until(() => control.started.includes("a"));
    // parallel tool calls: the reads are sent while the run is in flight
    const got = getVariable.execute({ reference: "†state.a" });
    const listed = listVariables.execute({});
    let answered = false;
    void Promise.race([got, listed]).then(() => {
      answered = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    control.finish("a", "written");
    expect(await run).toMatchObject({ status: "succeeded" });
    expect(await got).toMatchObject({ found: true, value: "written" });
    expect(await listed).toMatchObject({ text: expect.stringContaining("†state.a") });
    // a read with no run_plan before it answers at once
    expect(await getVariable.execute({ reference: "†state.a" })).toMatchObject({ found: true });
    // a read waits at most runWaitMs (a tool of the run reading its own thread), then reads what is there
    const [, runOnce, , getNow] = agentTools(engine, "t", { runWaitMs: 0 });
    const again = runOnce.execute({ plan: [waitCall("b")] });
    await until(() => control.started.includes("b"));
    expect(await getNow.execute({ reference: "†state.b" })).toMatchObject({ found: false });
    control.finish("b");
    expect(await again).toMatchObject({ status: "succeeded" });
    await engine.close();
  });

  it("a run_plan that waited runWaitMs for the one before it answers THREAD_BUSY and never runs", async () => {
    const control = new Controller();
    const engine = createEngine({ tools: [control.tool("wait")] });
    const [, runPlan] = agentTools(engine, "t", { runWaitMs: 0 });
    const first = runPlan.execute({ plan: [waitCall("a")] });
    await until(() => control.started.includes("a"));
    const second = await runPlan.execute({ plan: [waitCall("b")] });
    expect(second).toMatchObject({
      ok: false,
      error: {
        code: "THREAD_BUSY",
        message: 'an earlier run_plan on thread "t" is still running after 0 ms: this plan did not run',
        data: { threadId: "t", waitMs: 0 },
        hint: "call run_plan again with the same plan once the earlier run has ended",
      },
    });
    control.finish("a");
    expect(await first).toMatchObject({ status: "succeeded" });
    // the one that gave up is not run later, and the queue goes on
    const third = runPlan.execute({ plan: [waitCall("c")] });
    await until(() => control.started.includes("c"));
    control.finish("c");
    expect(await third).toMatchObject({ status: "succeeded" });
    expect(control.started).toEqual(["a", "c"]);
    await engine.close();
  });

  it("a tool that calls run_plan of its own agent tools gets THREAD_BUSY after runWaitMs instead of waiting for itself", async () => {
    let inner: unknown;
    const engine = createEngine({
      tools: [
        defineTool({
          name: "nested",
          run: async () => {
            inner = await runPlan.execute({ plan: [{ _tool: "give", _id: "inner", value: 1 }] });
            return "outer done";
          },
        }),
        give,
      ],
    });
    const [, runPlan] = agentTools(engine, "t", { runWaitMs: 0 });
    expect(await runPlan.execute({ plan: [{ _tool: "nested", _id: "outer" }] })).toMatchObject({
      status: "succeeded",
    });
    expect(inner).toMatchObject({ ok: false, error: { code: "THREAD_BUSY" } });
    expect(await engine.get("t", "†calls.inner")).toEqual({ found: false });
    await engine.close();
  });

  it("the framework's cancel signal: a waiting run_plan never runs, a running one is cancelled", async () => {
    const control = new Controller();
    const engine = createEngine({ tools: [control.tool("wait")] });
    const [, runPlan] = agentTools(engine, "t");
    const first = new AbortController();
    const running = runPlan.execute({ plan: [waitCall("a")] }, { abortSignal: first.signal });
    await until(() => control.started.includes("a"));
    // LangChain passes `signal`, the AI SDK `abortSignal`: either is read
    const second = new AbortController();
    const waiting = runPlan.execute({ plan: [waitCall("b")] }, { signal: second.signal });
    second.abort();
    expect(await waiting).toMatchObject({ ok: false, error: { code: "CANCELLED" } });
    first.abort();
    expect(control.signals.get("a")?.aborted).toBe(true);
    expect(await running).toMatchObject({ status: "cancelled", calls: { a: { status: "cancelled" } } });
    expect(control.started).toEqual(["a"]);
    await engine.close();
  });

  it.each([-1, Number.NaN, "5", 2 ** 31])("runWaitMs %s is USAGE", (runWaitMs) => {
    const engine = createEngine({ tools: [give] });
    expect(() => agentTools(engine, "t", { runWaitMs } as never)).toThrow(
      expect.objectContaining({
        code: "USAGE",
        message: expect.stringContaining("runWaitMs must be a number of ms"),
      }),
    );
  });

  it("a thread another run holds answers THREAD_BUSY with a hint the model can follow: call run_plan again", async () => {
    const control = new Controller();
    const engine = createEngine({ tools: [control.tool("wait")] });
    const [, runPlan] = agentTools(engine, "t");
    const host = engine.run([waitCall("host")], { threadId: "t" });
    await until(() => control.started.includes("host"));
    const answer = await runPlan.execute({ plan: [waitCall("a")] });
    expect(answer).toMatchObject({ ok: false, error: { code: "THREAD_BUSY", data: { threadId: "t" } } });
    const hint = "error" in answer ? answer.error.hint : undefined;
    expect(hint).toContain("call run_plan again");
    // the library's own error keeps the library's hint
    expect(hint).not.toContain("lock wait time");
    control.finish("host");
    await host;
    expect(control.started).toEqual(["host"]);
    await engine.close();
  });

  it("a re-sent plan's satisfied calls say where their values are, and the summary lists them", async () => {
    const engine = createEngine({ tools: [give, check] });
    const [, runPlan] = agentTools(engine, "t");
    const plan = {
      plan: [
        { _tool: "give", _id: "user", value: { name: "Ada" }, _outputPath: "†state.user" },
        { _tool: "give", _id: "both", value: 1, _outputPath: "†state.x && †state.y" },
        { _tool: "give", _id: "kept", value: 2 },
        { _tool: "check", _id: "verdict", value: 3, _outputPath: "†state.ok || †state.rejected" },
      ],
    };
    const once = (await runPlan.execute(plan)) as RunPlanAnswer;
    expect(once.calls.user).not.toHaveProperty("holds");
    const again = (await runPlan.execute(plan)) as RunPlanAnswer;
    expect(again.calls).toEqual({
      user: expect.objectContaining({ status: "satisfied", wrote: [], holds: ["†state.user"] }),
      both: expect.objectContaining({ status: "satisfied", holds: ["†state.x", "†state.y"] }),
      kept: expect.objectContaining({ status: "satisfied", holds: ["†calls.kept"] }),
      verdict: expect.objectContaining({ status: "satisfied", branch: 1, holds: ["†state.rejected"] }),
    });
    // before, the summary said "No variables written." and the model learnt nothing of where they were
    for (const reference of ["†state.user", "†state.x", "†state.y", "†calls.kept", "†state.rejected"])
      expect(again.summary).toContain(reference);
    expect(again.summary).not.toContain("†state.ok");
    await engine.close();
  });

  it("says satisfied calls did not run again and how to run one again (_rerun)", async () => {
    const engine = createEngine({ tools: [give] });
    const [, runPlan] = agentTools(engine, "t");
    const add = {
      _tool: "give",
      _id: "apple",
      value: "apple",
      _outputPath: "†state.cart",
      _outputMethod: "push",
    };
    const first = (await runPlan.execute({ plan: [add] })) as RunPlanAnswer;
    expect(first).not.toHaveProperty("note");
    const again = (await runPlan.execute({ plan: [add] })) as RunPlanAnswer;
    expect(again.calls.apple?.status).toBe("satisfied");
    expect(again.note).toMatch(/^1 call \(apple\) did not run again: .*"_rerun": true/);
    const rerun = (await runPlan.execute({ plan: [{ ...add, _rerun: true }] })) as RunPlanAnswer;
    expect(rerun.calls.apple?.status).toBe("succeeded");
    expect(rerun).not.toHaveProperty("note");
    expect(await engine.get("t", "†state.cart")).toEqual({ found: true, value: ["apple", "apple"] });
    await engine.close();
  });

  it("does not offer _rerun for a satisfied call whose tool must not repeat: it says the work was done once", async () => {
    const charge = defineTool({
      name: "charge",
      input: { type: "object", properties: { cents: { type: "number" } }, required: ["cents"] },
      idempotent: false,
      run: (args: unknown) => ({ charged: (args as { cents: number }).cents }),
    });
    const engine = createEngine({ tools: [give, charge] });
    const [, runPlan] = agentTools(engine, "t");
    const plan = {
      plan: [
        { _tool: "charge", _id: "pay", cents: 500, _outputPath: "†state.payment" },
        { _tool: "give", _id: "apple", value: "apple", _outputPath: "†state.cart", _outputMethod: "push" },
      ],
    };
    await runPlan.execute(plan);
    const again = (await runPlan.execute(plan)) as RunPlanAnswer;
    expect(again.calls.pay?.status).toBe("satisfied");
    expect(again.note).toBe(
      '2 calls (pay, apple) did not run again: an identical call (same tool, parameters, output path and method) completed on this thread before, so its value stands where "holds" says. To run such a call again (e.g. to add the same item twice), send it with "_rerun": true (1 call (apple)). 1 call (pay) uses a tool that must not repeat (not idempotent): a plan cannot run it again — tell the user it was already done.',
    );
    const payOnly = (await runPlan.execute({ plan: [plan.plan[0]] })) as RunPlanAnswer;
    expect(payOnly.note).not.toContain("_rerun");
    expect(payOnly.note).toContain("tell the user it was already done");
    await engine.close();
  });
});
