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

  it("cancels a run, waits for its record, then closes the store; nothing is left running", async () => {
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
    expect(run?.status).toBe("cancelled");
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
    const reopened = createEngine({ tools: [control.tool("wait")], store: createSqliteStore(file) });
    const [run] = await reopened.runs.list({ threadId: "s" });
    expect(run?.status).toBe("cancelled");
    await reopened.close();
  });
});
