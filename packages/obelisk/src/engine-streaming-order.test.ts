import { describe, expect, it } from "vitest";
import { Controller } from "./__fixtures__/controlled-tools.js";
import { until } from "./__fixtures__/deferred.js";
import { createEngine } from "./index.js";

const search = (id: string) => ({
  _tool: "wait",
  _id: id,
  key: id,
  _outputPath: "†state.results",
  _outputMethod: "push",
});

describe("a streamed writer sent after a reader of its path", () => {
  it("is accepted with a STREAM_ORDER warning naming the reader that will not wait for it", async () => {
    const control = new Controller();
    const engine = createEngine({ tools: [control.tool("wait")] });
    const stream = await engine.open({ threadId: "t" });
    expect(stream.add(search("s1")).diagnostics).toEqual([]);
    expect(
      stream.add({ _tool: "wait", _id: "join", key: "join", value: "†state.results" }).diagnostics,
    ).toEqual([]);
    const late = stream.add(search("s2"));
    expect(late).toMatchObject({
      ok: true,
      callId: "s2",
      diagnostics: [
        { code: "STREAM_ORDER", severity: "warning", pointer: "/plan/2/_outputPath", related: ["join"] },
      ],
    });
    // what the warning says: join runs with s1's result alone
    await until(() => control.started.includes("s1"));
    control.finish("s1", "first");
    await until(() => control.started.includes("join"));
    control.finish("join");
    control.finish("s2", "second");
    const result = await stream.close();
    expect(result.status).toBe("succeeded");
    expect(result.calls.join?.status).toBe("succeeded");
    await engine.close();
  });
});

describe("a streamed reader of a path nothing wrote yet waits for a writer added after it", () => {
  it("also when it was still waiting for another reference when that writer came (not only once parked)", async () => {
    const control = new Controller();
    const engine = createEngine({ tools: [control.tool("wait")] });
    const stream = await engine.open({ threadId: "t" });
    const write = (id: string) => ({ _tool: "wait", _id: id, key: id, _outputPath: `†state.${id}` });
    stream.add(write("x"));
    // reads x (a writer is in flight) and then y (nothing has written it, no writer yet)
    stream.add({ _tool: "wait", _id: "reader", key: "reader", value: ["†state.x", "†state.y"] });
    expect(stream.add(write("y")).diagnostics).toEqual([]);
    await until(() => control.started.includes("x") && control.started.includes("y"));
    control.finish("x");
    const closing = stream.close();
    // y is still in flight at close: the reader waits for it instead of failing REF_UNRESOLVED
    control.finish("y");
    await until(() => control.started.includes("reader"), 20_000);
    control.finish("reader");
    const result = await closing;
    expect(result.calls.reader?.status).toBe("succeeded");
    expect(result.status).toBe("succeeded");
    await engine.close();
  });

  it("also for a later operand of a reader parked on an earlier one", async () => {
    const control = new Controller();
    const engine = createEngine({ tools: [control.tool("wait")] });
    const stream = await engine.open({ threadId: "t" });
    const write = (id: string) => ({ _tool: "wait", _id: id, key: id, _outputPath: `†state.${id}` });
    // the reader parks on a (nothing written, no writer); b's writer comes before a's
    stream.add({ _tool: "wait", _id: "reader", key: "reader", value: ["†state.a", "†state.b"] });
    expect(stream.add(write("b")).diagnostics).toEqual([]);
    stream.add(write("a"));
    await until(() => control.started.includes("a") && control.started.includes("b"));
    control.finish("a");
    const closing = stream.close();
    // b is still in flight at close: the reader waits for it
    control.finish("b");
    await until(() => control.started.includes("reader"));
    control.finish("reader");
    const result = await closing;
    expect(result.calls.reader?.status).toBe("succeeded");
    await engine.close();
  });
});
