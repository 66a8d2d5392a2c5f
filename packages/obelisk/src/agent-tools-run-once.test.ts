import * as compiler from "@obelisk/compiler";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { deferred, until } from "./__fixtures__/deferred.js";
import {
  agentTools,
  asThreadId,
  createEngine,
  createMemoryStore,
  defineTool,
  type Engine,
  type PlanApprovalRequest,
  type RunPlanAnswer,
} from "./index.js";

vi.mock("@obelisk/compiler", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@obelisk/compiler")>();
  return { ...actual, compile: vi.fn(actual.compile) };
});

const compiles = () => vi.mocked(compiler.compile).mock.calls.length;
const give = defineTool({
  name: "give",
  input: { type: "object", properties: { value: {} }, required: ["value"] },
  run: (args: unknown) => (args as { value: unknown }).value,
});
/** A valid plan with one warning (REF_SUSPICIOUS: `$state.user.id` is searched for as text). */
const plan = {
  type: "plan",
  plan: [
    { _tool: "give", _id: "ok", value: 1, _outputPath: "†state.a" },
    { _tool: "give", _id: "near", value: "$state.user.id", _outputPath: "†state.b" },
  ],
};
const warning = expect.objectContaining({ code: "REF_SUSPICIOUS", pointer: "/plan/1/value" });

beforeEach(() => {
  vi.mocked(compiler.compile).mockClear();
});

describe("run_plan compiles the plan once: the run's own compile gives the warnings and the verdict", () => {
  it("a valid plan: one compile, and the answer still has its warnings", async () => {
    const engine = createEngine({ tools: [give] });
    const [, runPlan] = agentTools(engine, "t");
    const answer = (await runPlan.execute({ plan })) as RunPlanAnswer;
    expect(answer.status).toBe("succeeded");
    expect(answer.warnings).toEqual([expect.objectContaining({ code: "REF_SUSPICIOUS", callId: "near" })]);
    expect(compiles()).toBe(1);
  });

  it("an invalid plan: one compile, refused with its diagnostics and the hint to use validate_plan", async () => {
    const engine = createEngine({ tools: [give] });
    const [, runPlan] = agentTools(engine, "t");
    const answer = await runPlan.execute({ plan: [{ _tool: "giv", value: 1 }] });
    expect(answer).toMatchObject({
      ok: false,
      error: {
        code: "PLAN_INVALID",
        data: { diagnostics: [expect.objectContaining({ code: "TOOL_UNKNOWN" })] },
        hint: expect.stringContaining("validate_plan"),
      },
    });
    expect(compiles()).toBe(1);
    expect(await engine.runs.list()).toEqual([]);
  });

  it("with approve: one compile, the host is shown that compile's hash and warnings", async () => {
    const engine = createEngine({ tools: [give] });
    const seen: PlanApprovalRequest[] = [];
    const [, runPlan] = agentTools(engine, "t", {
      approve: (request) => {
        seen.push(request);
        return true;
      },
    });
    const answer = (await runPlan.execute({ plan })) as RunPlanAnswer;
    expect(answer.status).toBe("succeeded");
    expect(compiles()).toBe(1);
    expect(seen).toEqual([
      { plan, planHash: answer.planHash, input: {}, threadId: "t", diagnostics: [warning] },
    ]);
  });

  it("the host is asked while the run holds the thread: nothing edits it between approval and run", async () => {
    const engine = createEngine({ tools: [give] });
    let edit: unknown;
    const [, runPlan] = agentTools(engine, "t", {
      approve: async () => {
        edit = await engine.set("t", "†state.a", 2).catch((error: { code?: string }) => error.code);
        return true;
      },
    });
    expect(await runPlan.execute({ plan })).toMatchObject({ status: "succeeded" });
    expect(edit).toBe("THREAD_BUSY");
    expect(await engine.get("t", "†state.a")).toEqual({ found: true, value: 1 });
  });

  it("engine.close() while the host is asked: the answer is STORE_CLOSED, nothing is recorded, close ends", async () => {
    const store = createMemoryStore();
    // closing the engine leaves this store open, to read what the refused run left in it
    const kept = new Proxy(store, {
      get: (target, key) => (key === "close" ? async () => {} : Reflect.get(target, key, target)),
    });
    const engine = createEngine({ tools: [give], store: kept });
    const asked = deferred<boolean>();
    let waiting = false;
    const [, runPlan] = agentTools(engine, "t", {
      approve: () => {
        waiting = true;
        return asked.promise;
      },
    });
    const answer = runPlan.execute({ plan });
    await until(() => waiting);
    await engine.close();
    expect(await answer).toMatchObject({ ok: false, error: { code: "STORE_CLOSED" } });
    expect(await store.listRuns({})).toEqual([]);
    expect(await store.getThread(asThreadId("t"))).toBeUndefined();
    asked.resolve(true);
  });
});

describe("run_plan on an Engine whose run is not createEngine's (a wrapper)", () => {
  it("validates, asks the host, then runs through the wrapper's run bound to the approved hash", async () => {
    const inner = createEngine({ tools: [give] });
    const runs: unknown[] = [];
    const wrapper: Engine = {
      ...inner,
      run: (given, options) => {
        runs.push(options);
        return inner.run(given, options);
      },
    };
    const seen: PlanApprovalRequest[] = [];
    const [, runPlan] = agentTools(wrapper, "t", {
      approve: (request) => {
        seen.push(request);
        return true;
      },
    });
    const answer = (await runPlan.execute({ plan })) as RunPlanAnswer;
    expect(answer.status).toBe("succeeded");
    expect(answer.warnings).toEqual([expect.objectContaining({ code: "REF_SUSPICIOUS" })]);
    expect(seen.map((request) => request.diagnostics)).toEqual([[warning]]);
    expect(runs).toEqual([{ threadId: "t", input: {}, approvedHash: answer.planHash }]);
  });

  it("a copy of the engine object keeps createEngine's run: one compile", async () => {
    const engine = createEngine({ tools: [give] });
    const [, runPlan] = agentTools({ ...engine }, "t");
    expect(await runPlan.execute({ plan })).toMatchObject({ status: "succeeded" });
    expect(compiles()).toBe(1);
  });
});
