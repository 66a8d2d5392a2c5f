import { afterEach, describe, expect, it } from "vitest";
import { crashable } from "./__fixtures__/crashable-store.js";
import { until } from "./__fixtures__/deferred.js";
import { rejectionOf } from "./__fixtures__/error-codes.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type Engine, type ToolDefinition } from "./index.js";

// The s32 user review (M1): after fixing a tool, a developer re-sends the plan and gets the stale value
// (`satisfied`); the run option `rerun` runs such calls again, as `_rerun: true` does.

/** `price` multiplies by a factor the test changes ("fixes"); `pay` is not idempotent. */
function tools(hang = false) {
  const ran: string[] = [];
  const tool = { factor: 1.02 };
  const price: ToolDefinition = {
    name: "price",
    run: (args) => {
      ran.push("price");
      const { net, slow } = args as { net: number; slow?: boolean };
      return hang && slow === true ? new Promise(() => {}) : { gross: net * tool.factor };
    },
  };
  const pay: ToolDefinition = { name: "pay", idempotent: false, run: () => ran.push("pay") && "paid" };
  return { tools: [price, pay], ran, tool };
}

const plan = [
  { _id: "price", _tool: "price", net: 100, _outputPath: "†state.price" },
  { _id: "pay", _tool: "pay", _outputPath: "†state.paid" },
];

describe("run option rerun", () => {
  /** An engine that ran `plan` once, then had its tool fixed (factor 1.2). */
  async function afterFix() {
    const given = tools();
    const engine = createEngine({ tools: given.tools });
    await engine.run(plan, { threadId: "t" });
    given.tool.factor = 1.2;
    given.ran.length = 0;
    return { engine, ran: given.ran };
  }

  it("without it the fixed tool's call is satisfied and the stale value stays", async () => {
    const { engine, ran } = await afterFix();
    const result = await engine.run(plan, { threadId: "t" });
    expect(result.calls.price?.status).toBe("satisfied");
    expect(result.state.price).toEqual({ gross: 102 });
    expect(ran).toEqual([]);
  });

  it("true runs every call of an idempotent tool again (a tool that is not idempotent stays satisfied)", async () => {
    const { engine, ran } = await afterFix();
    const result = await engine.run(plan, { threadId: "t", rerun: true });
    expect(result.calls.price?.status).toBe("succeeded");
    expect(result.calls.pay?.status).toBe("satisfied");
    expect(result.state.price).toEqual({ gross: 120 });
    expect(ran).toEqual(["price"]);
  });

  it("a list runs the named calls again, of any tool, and leaves the others satisfied", async () => {
    const { engine, ran } = await afterFix();
    const result = await engine.run(plan, { threadId: "t", rerun: ["pay"] });
    expect([result.calls.price?.status, result.calls.pay?.status]).toEqual(["satisfied", "succeeded"]);
    expect(ran).toEqual(["pay"]);
    const again = await engine.run(plan, { threadId: "t", rerun: [] });
    expect(again.calls.price?.status).toBe("satisfied");
  });

  it("does not change the plan hash: an approved hash still runs, with the calls run again", async () => {
    const { engine } = await afterFix();
    const { planHash } = await engine.validate(plan, { threadId: "t" });
    const result = await engine.run(plan, { threadId: "t", approvedHash: planHash, rerun: ["price"] });
    expect(result.planHash).toBe(planHash);
    expect(result.calls.price?.status).toBe("succeeded");
  });

  it("an id the plan has not is USAGE with the nearest id, before anything is recorded", async () => {
    const { engine } = await afterFix();
    const runs = (await engine.runs.list()).length;
    const error = await rejectionOf(engine.run(plan, { threadId: "t", rerun: ["prcie", "pay"] }));
    expect(error.code).toBe("USAGE");
    expect(error.message).toBe('rerun names a call the plan does not have: "prcie"');
    expect(error.hint).toBe('did you mean "price"?');
    expect(error.data).toEqual({ unknown: ["prcie"] });
    expect((await engine.runs.list()).length).toBe(runs);
    // the thread is not held: the next run goes on
    expect((await engine.run(plan, { threadId: "t" })).status).toBe("succeeded");
  });

  it("an automatic id of an earlier run is USAGE: the hint says calls without _id are numbered anew", async () => {
    const { engine } = await afterFix();
    const first = await engine.run([{ _tool: "price", net: 1, _outputPath: "†state.x" }], { threadId: "t" });
    const [earlier] = Object.keys(first.calls);
    const error = await rejectionOf(
      engine.run([{ _tool: "price", net: 1, _outputPath: "†state.x" }], {
        threadId: "t",
        rerun: [earlier as string],
      }),
    );
    expect(error.code).toBe("USAGE");
    expect(error.hint).toMatch(
      /^did you mean "price\$\d+"\?; calls without _id are numbered anew on each run: give the call an _id, or rerun every call$/,
    );
  });

  it.each([
    ["a string", "price"],
    ["an array with a number", ["price", 1]],
    ["an array with an empty id", [""]],
    ["an object", { price: true }],
  ])("%s is USAGE", async (_name, rerun) => {
    const { engine } = await afterFix();
    const error = await rejectionOf(engine.run(plan, { threadId: "t", rerun: rerun as never }));
    expect(error.code).toBe("USAGE");
    // an array is named by the element it refuses (review s33r: `rerun: [5]` said "not an array")
    expect(error.message).toMatch(
      Array.isArray(rerun)
        ? /^rerun\[\d+\] must be a call id \(a non-empty string\), not /
        : /^rerun must be true \(every call\) or an array of call ids, not /,
    );
  });

  it("open: an added call the option names runs again", async () => {
    const { engine, ran } = await afterFix();
    const stream = await engine.open({ threadId: "t", rerun: ["price"] });
    for (const call of plan) stream.add(call);
    const result = await stream.close();
    expect([result.calls.price?.status, result.calls.pay?.status]).toEqual(["succeeded", "satisfied"]);
    expect(ran).toEqual(["price"]);
  });
});

describe.each(storeKinds())("rerun on resume, on the $name store", (kind) => {
  const engines: Engine[] = [];
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.close().catch(() => undefined);
    kind.cleanup();
  });

  it("a crashed run that ran calls again: resumed with rerun, its completed calls stay satisfied (decision 0045), the others run again", async () => {
    const store = kind.open();
    const live = tools();
    const engine = createEngine({ tools: live.tools, store });
    engines.push(engine);
    const done = { _id: "done", _tool: "price", net: 1, _outputPath: "†state.done" };
    const slow = { _id: "slow", _tool: "price", net: 2, slow: true, _outputPath: "†state.slow" };
    // an earlier run completed `slow`'s identical call: without rerun the resume would take its stale value
    await engine.run([slow], { threadId: "t" });
    const dying = crashable(store);
    const first = tools(true);
    void createEngine({ tools: first.tools, store: dying.store }).run([done, slow], {
      threadId: "t",
      rerun: ["slow"],
    });
    await until(() => first.ran.length === 2);
    const [crashed] = await store.listRuns({ threadId: "t" as never, limit: 1 });
    dying.crash();
    live.ran.length = 0;
    const resumed = await engine.resume(crashed?.runId as string, { rerun: true });
    expect([resumed.calls.done?.status, resumed.calls.slow?.status]).toEqual(["satisfied", "succeeded"]);
    expect(live.ran).toEqual(["price"]);
  });
});
