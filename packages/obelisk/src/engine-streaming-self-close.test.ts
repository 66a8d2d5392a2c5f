import { describe, expect, it } from "vitest";
import { createEngine, defineTool, type StreamingRun } from "./index.js";

/** A stream whose "finish" tool closes it: once without waiting (no unhandled rejection), then awaited. */
async function selfClosing(aroundTool?: Parameters<typeof createEngine>[0]["aroundTool"]) {
  let stream: StreamingRun | undefined;
  const finish = defineTool({
    name: "finish",
    input: { type: "object" },
    run: async () => {
      void stream?.close();
      try {
        await stream?.close();
        return "closed";
      } catch (error) {
        return (error as { code?: string }).code ?? "not an ObeliskError";
      }
    },
  });
  const echo = defineTool({ name: "echo", input: { type: "object" }, run: () => 1 });
  const engine = createEngine({ tools: [finish, echo], ...(aroundTool === undefined ? {} : { aroundTool }) });
  stream = await engine.open({ threadId: "t" });
  return { engine, stream };
}

describe("close() from inside one of the stream's own calls (review s33r F9)", () => {
  it("in a tool, awaited or not: USAGE at once, the host's close() answers the run, the thread is free", async () => {
    const { engine, stream } = await selfClosing();
    stream.add({ _tool: "finish", _id: "finish", _outputPath: "†state.finish" });
    const result = await stream.close();
    expect(result.status).toBe("succeeded");
    expect(result.state).toEqual({ finish: "USAGE" });
    expect((await engine.run([{ _tool: "echo" }], { threadId: "t" })).status).toBe("succeeded");
    await engine.close();
  });

  it("the engine's own aroundTool still wraps every attempt", async () => {
    const wrapped: string[] = [];
    const { engine, stream } = await selfClosing((attempt, invoke) => {
      wrapped.push(attempt.callId);
      return invoke();
    });
    stream.add({ _tool: "finish", _id: "finish", _outputPath: "†state.finish" });
    expect((await stream.close()).state).toEqual({ finish: "USAGE" });
    expect(wrapped).toEqual(["finish"]);
    await engine.close();
  });
});
