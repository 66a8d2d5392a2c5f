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
});
