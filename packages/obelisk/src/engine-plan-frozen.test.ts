import { asRunId } from "@obelisk/core";
import { createMemoryStore, type StateStore } from "@obelisk/state";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { deferred, until } from "./__fixtures__/deferred.js";
import { acceptingRunOf } from "./accepting-run.js";
import { agentTools, createEngine, defineTool, type PlanApprovalRequest } from "./index.js";

const echo = defineTool({ name: "echo", input: z.object({ x: z.string() }), run: ({ x }) => x });

/** A store's methods with some replaced (the others bound to it), and `nextCallNumber` left out when asked. */
function storeWith(
  store: StateStore,
  replaced: Partial<Record<keyof StateStore, unknown>>,
  withoutNextCallNumber = false,
): StateStore {
  return new Proxy(store, {
    get(target, key) {
      if (key === "nextCallNumber" && withoutNextCallNumber) return undefined;
      if (Object.hasOwn(replaced, key)) return replaced[key as keyof StateStore];
      const value: unknown = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A memory store without the optional `nextCallNumber`, calling `during()` while it reserves numbers. */
function untellingStore(during: { run: () => void }): StateStore {
  const memory = createMemoryStore();
  return storeWith(
    memory,
    {
      reserveCallNumbers: async (...args: Parameters<StateStore["reserveCallNumbers"]>) => {
        const first = await memory.reserveCallNumbers(...args);
        during.run();
        return first;
      },
    },
    true,
  );
}

describe("the plan that runs is the plan approved (decision 0092)", () => {
  it("a store that cannot tell the next number: the second compile reads the frozen plan, not the caller's object", async () => {
    const during = { run: () => {} };
    const engine = createEngine({ tools: [echo], store: untellingStore(during) });
    await engine.run([{ _tool: "echo", x: "earlier", _outputPath: "†state.first" }], { threadId: "t" });
    const plan = [{ _tool: "echo", x: "approved text", _outputPath: "†state.mail" }];
    const { planHash } = await engine.validate(plan, { threadId: "t" });
    during.run = () => {
      (plan[0] as { x: string }).x = "NOT APPROVED";
    };
    const result = await engine.run(plan, { threadId: "t", approvedHash: planHash });
    expect(result).toMatchObject({ status: "succeeded", planHash });
    expect(result.state).toEqual({ first: "earlier", mail: "approved text" });
    const stored = JSON.stringify((await engine.store.getRun(asRunId(result.runId)))?.plan);
    expect(stored).toContain("approved text");
    expect(stored).not.toContain("NOT APPROVED");
  });

  it("a run that asks before it starts is shown, once, the call ids the run uses", async () => {
    const engine = createEngine({ tools: [echo], store: untellingStore({ run: () => {} }) });
    // the thread's counter is past 1, and it holds no call output (automatic ids skip those)
    await engine.run([{ _tool: "echo", x: "a", _outputPath: "†state.a" }], { threadId: "t" });
    const shown: string[][] = [];
    const run = acceptingRunOf(engine);
    const result = await run?.([{ _tool: "echo", x: "b" }], { threadId: "t" }, (validation) => {
      shown.push(validation.compiled.calls.map((call) => call.id));
    });
    expect(shown).toEqual([Object.keys(result?.calls ?? {})]);
    expect(shown[0]).toEqual(["echo$2"]);
  });

  it("agentTools on such a store: approve asked once per plan, and the answer places a satisfied call", async () => {
    const engine = createEngine({ tools: [echo], store: untellingStore({ run: () => {} }) });
    await engine.run([{ _tool: "echo", x: "a", _outputPath: "†state.a" }], { threadId: "t" });
    const seen: PlanApprovalRequest[] = [];
    let answer = true;
    const tools = agentTools(engine, "t", {
      approve: (request) => {
        seen.push(request);
        return answer;
      },
    });
    const runPlan = tools.find((tool) => tool.name === "run_plan");
    const plan = { type: "plan", plan: [{ _tool: "echo", x: "b", _outputPath: "†state.b" }] };
    expect(await runPlan?.execute({ plan })).toMatchObject({ status: "succeeded" });
    // the call is satisfied under a new automatic id: where its value is comes from the compile approved
    const again = (await runPlan?.execute({ plan })) as { calls: Record<string, unknown> };
    expect(Object.values(again.calls)).toEqual([
      expect.objectContaining({ status: "satisfied", holds: ["†state.b"] }),
    ]);
    expect(seen).toHaveLength(2);
    answer = false;
    const refused = { ...plan, plan: [{ ...plan.plan[0], x: "c" }] };
    expect(await runPlan?.execute({ plan: refused })).toMatchObject({
      ok: false,
      error: { code: "PLAN_NOT_APPROVED" },
    });
    expect(seen).toHaveLength(3);
    expect(await engine.get("t", "†state.b")).toEqual({ found: true, value: "b" });
    expect((await engine.runs.list({ threadId: "t" })).length).toBe(3);
  });
});

/**
 * An engine whose `hold()` starts a run on thread "t" that keeps the thread until `release` is resolved
 * (`holding()` once its tool runs), so that later runs of "t" wait for the lock.
 */
function holdingEngine() {
  const release = deferred<string>();
  let holding = false;
  const holder = defineTool({
    name: "hold",
    input: z.object({}),
    run: () => {
      holding = true;
      return release.promise;
    },
  });
  const engine = createEngine({ tools: [holder, echo], lockWaitMs: 60_000 });
  const hold = () => ({
    run: engine.run([{ _tool: "hold", _outputPath: "†state.h" }], { threadId: "t" }),
    holding: () => holding,
  });
  return { engine, release, hold };
}

describe("run, start and validate read the plan when called (decision 0008)", () => {
  it("run: a plan changed while the run waits for the thread runs as it was given", async () => {
    const { engine, release, hold } = holdingEngine();
    const first = hold();
    await until(() => first.holding());
    const plan = [{ _tool: "echo", x: "as called", _outputPath: "†state.mail" }];
    const second = engine.run(plan, { threadId: "t" });
    const started = engine.start(plan, { threadId: "t" });
    (plan[0] as { x: string }).x = "changed after run() was called";
    release.resolve("done");
    await first.run;
    expect((await second).state).toEqual({ h: "done", mail: "as called" });
    const { planHash } = await engine.validate(
      [{ _tool: "echo", x: "as called", _outputPath: "†state.mail" }],
      {
        threadId: "t",
      },
    );
    expect(await started.result).toMatchObject({ status: "succeeded", planHash });
  });

  it("run: rerun ids changed while the run waits for the thread are the ones given (review rev2, stop 39)", async () => {
    const { engine, release, hold } = holdingEngine();
    const plan = [{ _tool: "echo", _id: "mail", x: "hi", _outputPath: "†state.mail" }];
    await engine.run(plan, { threadId: "t" });
    const first = hold();
    await until(() => first.holding());
    const rerun: unknown[] = ["mail"];
    const second = engine.run(plan, { threadId: "t", rerun: rerun as string[] });
    rerun[0] = 5; // read after the awaits, this was `TypeError: id.includes is not a function`
    release.resolve("done");
    await first.run;
    const result = await second;
    // rerun as given: the call ran again instead of being satisfied
    expect(result.calls).toMatchObject({ mail: { status: "succeeded" } });
  });

  it("validate: a plan changed while the store answers is validated as it was given", async () => {
    const memory = createMemoryStore();
    const answered = deferred<void>();
    let asked = false;
    const store = storeWith(memory, {
      expireStale: async (...args: Parameters<StateStore["expireStale"]>) => {
        asked = true;
        await answered.promise;
        return memory.expireStale(...args);
      },
    });
    const engine = createEngine({ tools: [echo], store });
    const plan = [{ _tool: "echo", x: "as called" }];
    const pending = engine.validate(plan);
    await until(() => asked);
    (plan[0] as { x: unknown }).x = 42; // not a string: invalid, were it read now
    answered.resolve();
    const validation = await pending;
    expect(validation.ok).toBe(true);
    const reference = await createEngine({ tools: [echo] }).validate([{ _tool: "echo", x: "as called" }]);
    expect(validation.planHash).toBe(reference.planHash);
  });
});
