import { createMemoryStore } from "@obelisk/state";
import { createSqliteStore } from "@obelisk/state/sqlite";
import { describe, expect, it } from "vitest";
import { Controller } from "./__fixtures__/controlled-tools.js";
import { until } from "./__fixtures__/deferred.js";
import { tempStoreFiles } from "./__fixtures__/temp-store-file.js";
import { agentTools, createEngine, defineTool, ObeliskError, type RunEvent } from "./index.js";

const plan = [
  { _tool: "wait", _id: "a", key: "a", _outputPath: "†state.a" },
  { _tool: "wait", _id: "b", key: "b", _outputPath: "†state.b" },
  { _tool: "wait", _id: "c", key: "c", value: "†state.a", _outputPath: "†state.c" },
  { _tool: "wait", _id: "d", key: "d", value: "†state.c", _outputPath: "†state.d" },
];

/** A synchronous `wait` tool with the same results as the controlled one, counting invocations. */
function syncWait(invoked: string[]) {
  return defineTool({
    name: "wait",
    run: (input: unknown) => {
      const args = input as Record<string, unknown>;
      invoked.push(String(args.key));
      return args.key;
    },
  });
}

const errorCode = async (promise: Promise<unknown>): Promise<string | undefined> => {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return ObeliskError.is(error) ? error.code : "not an ObeliskError";
  }
};

describe("durability", () => {
  const newFile = tempStoreFiles("obelisk-test-");

  it("resume after an interrupted run executes only the unfinished calls and reaches the same state", async () => {
    const file = newFile();
    const control = new Controller();
    const first = createEngine({ tools: [control.tool("wait")], store: createSqliteStore(file) });
    const abort = new AbortController();
    const running = first.run(plan, { threadId: "t", signal: abort.signal });
    await until(() => control.started.length === 2);
    control.finish("a");
    control.finish("b");
    await until(() => control.started.includes("c"));
    abort.abort();
    const interrupted = await running;
    expect(interrupted.status).toBe("cancelled");
    await first.close();

    const invoked: string[] = [];
    const second = createEngine({ tools: [syncWait(invoked)], store: createSqliteStore(file) });
    const resumed = await second.resume(interrupted.runId);
    expect(invoked).toEqual(["c", "d"]);
    expect(resumed.calls.a?.status).toBe("satisfied");
    expect(resumed.calls.b?.status).toBe("satisfied");
    const reference = createEngine({ tools: [syncWait([])] });
    const uninterrupted = await reference.run(plan, { threadId: "t" });
    expect(resumed.state).toEqual(uninterrupted.state);
    expect((await second.runs.show(interrupted.runId)).run.status).toBe("cancelled");
    await second.close();
  });

  it.each(["memory", "sqlite"] as const)(
    "resume gives calls without _id the ids (and idempotency keys) they had in the interrupted run (%s)",
    async (kind) => {
      const file = newFile();
      const memory = kind === "memory" ? createMemoryStore() : undefined;
      const open = () => memory ?? createSqliteStore(file);
      const noIds = [
        { _tool: "wait", key: "a", _outputPath: "†state.a" },
        { _tool: "wait", key: "b", value: "†state.a", _outputPath: "†state.b" },
        { _tool: "wait", key: "c" },
      ];
      // an earlier run on the thread, so the interrupted run's numbers do not start at 1
      await createEngine({ tools: [syncWait([])], store: open() }).run([{ _tool: "wait", key: "z" }], {
        threadId: "t",
      });
      const control = new Controller();
      const first = createEngine({ tools: [control.tool("wait")], store: open() });
      const abort = new AbortController();
      const running = first.run(noIds, { threadId: "t", signal: abort.signal });
      await until(() => control.started.length === 2);
      control.finish("c");
      control.finish("a");
      await until(() => control.started.includes("b"));
      abort.abort();
      const interrupted = await running;
      expect(interrupted.status).toBe("cancelled");
      expect(Object.keys(interrupted.calls)).toEqual(["wait$2", "wait$3", "wait$4"]);
      expect(interrupted.calls.wait$3?.status).toBe("cancelled");

      const keys: string[] = [];
      const keyed = defineTool({
        name: "wait",
        run: (input: unknown, ctx) => {
          keys.push(`${ctx.callId} ${ctx.idempotencyKey}`);
          return (input as { key: string }).key;
        },
      });
      const second = createEngine({ tools: [keyed], store: open() });
      const resumed = await second.resume(interrupted.runId);
      expect(resumed.status).toBe("succeeded");
      expect(keys).toEqual(["wait$3 t:wait$3"]);
      expect(resumed.calls.wait$2?.status).toBe("satisfied");
      expect(resumed.calls.wait$4?.status).toBe("satisfied");
      // the resumed run reserved no numbers: the next run goes on from the interrupted run's
      const next = await second.run([{ _tool: "wait", key: "n" }], { threadId: "t" });
      expect(Object.keys(next.calls)).toEqual(["wait$5"]);
      await second.close();
    },
  );

  it("resume of an unknown run is RUN_NOT_FOUND", async () => {
    const engine = createEngine({ tools: [syncWait([])] });
    expect(await errorCode(engine.resume("nope"))).toBe("RUN_NOT_FOUND");
  });

  it("RUN_NOT_FOUND says which run was looked up and how to list the runs (it read 'no run nope')", async () => {
    const engine = createEngine({ tools: [syncWait([])] });
    for (const asked of [engine.resume("nope"), engine.runs.show("nope")]) {
      await expect(asked).rejects.toMatchObject({
        code: "RUN_NOT_FOUND",
        message: `no run "nope" is recorded in this engine's store`,
        data: { runId: "nope" },
        hint: expect.stringContaining("engine.runs.list()"),
      });
    }
    // a long or odd id is quoted and cut in the message, whole in data
    const odd = `x\n${"y".repeat(500)}`;
    const error = (await engine.runs.show(odd).catch((caught: unknown) => caught)) as Error;
    expect(error.message.startsWith('no run "x\\nyyy')).toBe(true);
    expect(error.message).toContain("…(+");
    expect(error.message.length).toBeLessThan(250);
    expect((error as unknown as { data: unknown }).data).toEqual({ runId: odd });
    await engine.close();
  });
});

describe("run guards", () => {
  it("an invalid plan throws PLAN_INVALID with the diagnostics and writes nothing", async () => {
    const engine = createEngine({ tools: [syncWait([])] });
    let error: unknown;
    try {
      await engine.run([{ _tool: "nope" }], { threadId: "t" });
    } catch (caught) {
      error = caught;
    }
    expect(ObeliskError.is(error) && error.code).toBe("PLAN_INVALID");
    const data = (error as ObeliskError).data as { diagnostics: { code: string; pointer: string }[] };
    expect(data.diagnostics[0]).toMatchObject({ code: "TOOL_UNKNOWN", pointer: "/0/_tool" });
    expect(await engine.runs.list()).toEqual([]);
    // the message alone says what is wrong and where (a log of error.message is often all there is)
    expect((error as ObeliskError).message).toMatch(
      /^the plan is invalid \(1 error\): TOOL_UNKNOWN at \/0\/_tool: /,
    );
    expect((error as ObeliskError).hint).toContain("error.data.diagnostics");
    const two = await engine
      .run([{ _tool: "nope" }, { _tool: "nope2" }], { threadId: "t" })
      .catch((e: unknown) => e);
    expect((two as ObeliskError).message).toMatch(
      /^the plan is invalid \(2 errors\): TOOL_UNKNOWN at \/0\/_tool: .* \(and 1 more error\)$/,
    );
  });

  it("an input that breaks the Input message's schema is PLAN_INVALID", async () => {
    const engine = createEngine({ tools: [syncWait([])] });
    const input = {
      type: "input",
      input: { n: "x" },
      schema: { type: "object", properties: { n: { type: "number" } } },
    };
    const validation = await engine.validate([{ _tool: "wait", key: "k" }], { input });
    expect(validation.ok).toBe(false);
    expect(validation.diagnostics[0]).toMatchObject({ code: "PARAM_INVALID", pointer: "" });
    expect(await errorCode(engine.run([{ _tool: "wait", key: "k" }], { input }))).toBe("PLAN_INVALID");
  });

  it("a plan whose hash differs from the approved hash is PLAN_NOT_APPROVED", async () => {
    const engine = createEngine({ tools: [syncWait([])] });
    const validation = await engine.validate(plan);
    expect(validation.ok).toBe(true);
    expect(await errorCode(engine.run(plan.slice(0, 2), { approvedHash: validation.planHash }))).toBe(
      "PLAN_NOT_APPROVED",
    );
    // the refusal says what to do: approve the plan as it is now
    await expect(engine.run(plan.slice(0, 2), { approvedHash: validation.planHash })).rejects.toMatchObject({
      hint: expect.stringContaining("validate it as it is now and approve the hash"),
      data: { approvedHash: validation.planHash },
    });
    expect((await engine.run(plan, { approvedHash: validation.planHash })).status).toBe("succeeded");
  });

  it("a second run on a busy thread fails with THREAD_BUSY", async () => {
    const control = new Controller();
    const engine = createEngine({ tools: [control.tool("wait")] });
    const first = engine.run(plan.slice(0, 1), { threadId: "t" });
    await until(() => control.started.length === 1);
    expect(await errorCode(engine.run(plan.slice(1, 2), { threadId: "t" }))).toBe("THREAD_BUSY");
    control.finish("a");
    expect((await first).status).toBe("succeeded");
  });
});

describe("streaming", () => {
  it("dispatches calls as they are added, refuses a cycle and fails unresolved references at close", async () => {
    const control = new Controller();
    const engine = createEngine({ tools: [control.tool("wait")] });
    const run = await engine.open({ threadId: "s" });
    expect(
      run.add({ _tool: "wait", _id: "r", key: "r", value: "†state.later", _outputPath: "†state.r" }).ok,
    ).toBe(true);
    expect(run.add({ _tool: "wait", _id: "w", key: "w", _outputPath: "†state.later" }).ok).toBe(true);
    await until(() => control.started.includes("w"));
    expect(control.started).toEqual(["w"]);
    const cycle = run.add({ _tool: "wait", _id: "x", key: "x", value: "†state.y", _outputPath: "†state.x" });
    expect(cycle.ok).toBe(true);
    const closing = run.add({
      _tool: "wait",
      _id: "y",
      key: "y",
      value: "†state.x",
      _outputPath: "†state.y",
    });
    expect(closing.ok).toBe(false);
    expect(closing.diagnostics.map((d) => d.code)).toContain("CYCLE");
    run.add({ _tool: "wait", _id: "u", key: "u", value: "†state.never", _outputPath: "†state.u" });
    control.finish("w");
    await until(() => control.started.includes("r"));
    control.finish("r");
    const result = await run.close();
    expect(result.calls.w?.status).toBe("succeeded");
    expect(result.calls.r?.status).toBe("succeeded");
    expect(result.calls.u).toMatchObject({ status: "failed", error: { code: "REF_UNRESOLVED" } });
    expect(result.calls.y).toBeUndefined();
  });

  it("start() exposes the events as an async iterator", async () => {
    const engine = createEngine({ tools: [syncWait([])] });
    const handle = engine.start(plan.slice(0, 1));
    const types: RunEvent["type"][] = [];
    for await (const event of handle.events) types.push(event.type);
    expect((await handle.result).status).toBe("succeeded");
    expect(types[0]).toBe("run-start");
    expect(types.at(-1)).toBe("run-end");
    // iterable once: a second loop would have shared the events with the first
    expect(() => handle.events[Symbol.asyncIterator]()).toThrow(expect.objectContaining({ code: "USAGE" }));
  });
});

describe("agentTools", () => {
  it("validates, runs, lists and pages variables", async () => {
    const engine = createEngine({ tools: [syncWait([])] });
    const tools = Object.fromEntries(agentTools(engine, "agent").map((tool) => [tool.name, tool]));
    expect(Object.keys(tools)).toEqual(["validate_plan", "run_plan", "list_variables", "get_variable"]);
    expect(await tools.validate_plan?.execute({ plan: [{ _tool: "nope" }] })).toMatchObject({ ok: false });
    expect(await tools.run_plan?.execute({ plan: [{ _tool: "nope" }] })).toMatchObject({
      ok: false,
      error: { code: "PLAN_INVALID" },
    });
    await tools.run_plan?.execute({ plan: [{ _tool: "wait", key: "abcdef", _outputPath: "†state.word" }] });
    const listed = (await tools.list_variables?.execute({})) as { text: string };
    expect(listed.text).toContain("†state.word");
    expect(
      await tools.get_variable?.execute({ reference: "†state.word", offset: 1, limit: 2 }),
    ).toMatchObject({ text: "bc", total: 6 });
  });
});
