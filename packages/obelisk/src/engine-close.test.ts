import { createSqliteStore } from "@obelisk/state/sqlite";
import { describe, expect, it } from "vitest";
import { Controller } from "./__fixtures__/controlled-tools.js";
import { until } from "./__fixtures__/deferred.js";
import { codeOf } from "./__fixtures__/error-codes.js";
import { tempStoreFiles } from "./__fixtures__/temp-store-file.js";
import { createEngine } from "./index.js";

const plan = [
  { _tool: "wait", _id: "a", key: "a", _outputPath: "†state.a" },
  { _tool: "wait", _id: "b", key: "b", value: "†state.a", _outputPath: "†state.b" },
];

describe("engine.close() while runs are in flight", () => {
  const newFile = tempStoreFiles("obelisk-test-");

  it("cancels a run, waits for its record (interrupted, to resume), then closes the store; nothing is left running", async () => {
    const file = newFile();
    const control = new Controller();
    const engine = createEngine({ tools: [control.tool("wait")], store: createSqliteStore(file) });
    const running = engine.run(plan, { threadId: "t" });
    await until(() => control.started.length === 1);
    const closed = engine.close();
    const result = await running;
    await closed;
    expect(result.status).toBe("cancelled");
    expect(result.calls.a?.status).toBe("cancelled");
    expect(control.signals.get("a")?.aborted).toBe(true);
    expect(await codeOf(() => engine.run(plan, { threadId: "t" }))).toBe("STORE_CLOSED");

    const reopened = createEngine({ tools: [control.tool("wait")], store: createSqliteStore(file) });
    const [run] = await reopened.runs.list({ threadId: "t" });
    // the caller was answered cancelled; the record says the shutdown stopped it (decision 0030)
    expect(run?.status).toBe("interrupted");
    // and says why, as a crashed run's record does
    expect(run?.reason).toBe("the engine was closed (engine.close()) while this run was in progress");
    expect(await reopened.runs.list({ status: "interrupted" })).toEqual([run]);
    const details = await reopened.runs.show(run?.runId ?? "");
    expect(details.calls.map((call) => [call.callId, call.status]).sort()).toEqual([
      ["a", "cancelled"],
      ["b", "cancelled"],
    ]);
    await reopened.close();
  });

  it("a streaming run cut off by close() keeps its calls: resume runs what was left, with the same ids", async () => {
    const file = newFile();
    const control = new Controller();
    const engine = createEngine({ tools: [control.tool("wait")], store: createSqliteStore(file) });
    const stream = await engine.open({ threadId: "s" });
    // automatic ids: wait$1 finishes, wait$2 is in flight when the engine closes
    expect(stream.add({ _tool: "wait", key: "one", _outputPath: "†state.one" })).toMatchObject({
      callId: "wait$1",
    });
    expect(
      stream.add({ _tool: "wait", key: "two", value: "†state.one", _outputPath: "†state.two" }),
    ).toMatchObject({
      callId: "wait$2",
    });
    await until(() => control.started.length === 1);
    control.pending.get("one")?.resolve("one");
    await until(() => control.started.length === 2);
    await engine.close();
    const { runId } = stream;

    const keys: string[] = [];
    const second = createEngine({
      tools: [
        {
          name: "wait",
          input: { type: "object", properties: { key: { type: "string" }, value: {} }, required: ["key"] },
          run: (args: unknown, ctx) => {
            keys.push(ctx.idempotencyKey);
            return (args as { key: string }).key;
          },
        },
      ],
      store: createSqliteStore(file),
    });
    const resumed = await second.resume(runId);
    expect(resumed.status).toBe("succeeded");
    expect(resumed.calls.wait$1?.status).toBe("satisfied");
    expect(resumed.calls.wait$2?.status).toBe("succeeded");
    expect(keys).toEqual(["s:wait$2"]);
    expect(resumed.state).toEqual({ one: "one", two: "two" });
    await second.close();
  });

  it("closes an open streaming run (its record finished) before the store", async () => {
    const file = newFile();
    const control = new Controller();
    const engine = createEngine({ tools: [control.tool("wait")], store: createSqliteStore(file) });
    const stream = await engine.open({ threadId: "s" });
    stream.add(plan[0]);
    await until(() => control.started.length === 1);
    await engine.close();
    expect((await stream.close()).status).toBe("cancelled");
    expect(() => stream.add(plan[1])).toThrow(
      expect.objectContaining({
        code: "USAGE",
        message: expect.stringContaining("stopped by engine.close()"),
        data: { runId: stream.runId, stoppedBy: "engine-close" },
      }),
    );
    const reopened = createEngine({ tools: [control.tool("wait")], store: createSqliteStore(file) });
    const [run] = await reopened.runs.list({ threadId: "s" });
    expect(run?.status).toBe("interrupted");
    expect(run?.reason).toBe("the engine was closed (engine.close()) while this run was in progress");
    await reopened.close();
  });

  it("a shutdown is told from a cancellation: after a restart only the run close() stopped is interrupted, and resume finishes it", async () => {
    const file = newFile();
    const control = new Controller();
    const engine = createEngine({ tools: [control.tool("wait")], store: createSqliteStore(file) });
    const user = new AbortController();
    const cancelled = engine.run(plan, { threadId: "user", signal: user.signal });
    const deploy = engine.run(plan, { threadId: "deploy" });
    await until(() => control.started.length === 2);
    user.abort(new Error("user pressed stop"));
    expect((await cancelled).status).toBe("cancelled");
    const closing = engine.close();
    expect((await deploy).status).toBe("cancelled");
    await closing;

    const next = new Controller();
    const restarted = createEngine({ tools: [next.tool("wait")], store: createSqliteStore(file) });
    const statuses = Object.fromEntries(
      (await restarted.runs.list()).map((run) => [run.threadId, run.status] as const),
    );
    // before, both ended cancelled and the recovery recipe (status: "interrupted") found nothing
    expect(statuses).toEqual({ user: "cancelled", deploy: "interrupted" });
    const [userRun] = await restarted.runs.list({ threadId: "user" });
    expect(userRun).not.toHaveProperty("reason");
    const [stopped] = await restarted.runs.list({ status: "interrupted" });
    expect(stopped?.threadId).toBe("deploy");
    const resuming = restarted.resume(stopped?.runId ?? "");
    await until(() => next.started.includes("a"));
    next.finish("a");
    await until(() => next.started.includes("b"));
    next.finish("b");
    expect((await resuming).status).toBe("succeeded");
    // continued: cancelled, and it keeps the reason it was stopped with
    expect((await restarted.runs.show(stopped?.runId ?? "")).run).toMatchObject({
      status: "cancelled",
      reason: expect.stringContaining("engine.close()"),
    });
    expect(await restarted.runs.list({ status: "interrupted" })).toEqual([]);
    await restarted.close();
  });
});

describe("engine.close() while edits wait for the thread's lock", () => {
  const newFile = tempStoreFiles("obelisk-test-");

  it("a waiting set, keepLastN or run is STORE_CLOSED and changes nothing, an edit after close too", async () => {
    const file = newFile();
    const control = new Controller();
    const engine = createEngine({
      tools: [control.tool("wait")],
      store: createSqliteStore(file),
      lockWaitMs: 60_000,
    });
    await engine.set("t", "†state.kept", 1);
    const running = engine.run(plan, { threadId: "t" });
    await until(() => control.started.length === 1);
    // both wait behind the run (or, if close() came first, are refused at once: the same answer)
    const set = codeOf(() => engine.set("t", "†state.late", 2));
    const keep = codeOf(() => engine.keepLastN("t", 0));
    const waitingRun = engine.run([{ _tool: "wait", key: "c" }], { threadId: "t" });
    waitingRun.catch(() => undefined);
    await engine.close();
    await running;
    expect([await set, await keep]).toEqual(["STORE_CLOSED", "STORE_CLOSED"]);
    // a run waiting behind it is told the engine closed, not that it was cancelled (nobody cancelled it)
    await expect(waitingRun).rejects.toMatchObject({
      code: "STORE_CLOSED",
      hint: expect.stringContaining("createEngine"),
    });
    expect(await codeOf(() => engine.set("t", "†state.later", 3))).toBe("STORE_CLOSED");

    const reopened = createEngine({ tools: [control.tool("wait")], store: createSqliteStore(file) });
    expect(await reopened.get("t", "†state.late")).toEqual({ found: false });
    expect(await reopened.get("t", "†state.kept")).toEqual({ found: true, value: 1 });
    await reopened.close();
  });
});
