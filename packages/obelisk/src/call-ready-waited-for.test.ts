import { describe, expect, it } from "vitest";
import { createEngine, defineTool, type RunEvent } from "./index.js";

const give = defineTool({
  name: "give",
  input: { type: "object", properties: { v: {} } },
  run: (args) => (args as { v: unknown }).v,
});

/** `call-ready`'s `waitedFor` by call id. */
function readyOf(events: readonly RunEvent[]): Record<string, readonly string[]> {
  const found: Record<string, readonly string[]> = {};
  for (const event of events) if (event.type === "call-ready") found[event.callId] = event.waitedFor;
  return found;
}

describe("call-ready's waitedFor through the engine", () => {
  it("run: the writers of the references a call read", async () => {
    const engine = createEngine({ tools: [give] });
    const events: RunEvent[] = [];
    await engine.run(
      [
        { _tool: "give", _id: "a", v: 1, _outputPath: "†state.a" },
        { _tool: "give", _id: "b", v: "†state.a", _outputPath: "†state.b" },
      ],
      { onEvent: (event) => events.push(event) },
    );
    expect(readyOf(events)).toEqual({ a: [], b: ["a"] });
    await engine.close();
  });

  it("open: a reader added before its writer waited for the writer the stream brought later", async () => {
    const engine = createEngine({ tools: [give] });
    const events: RunEvent[] = [];
    const run = await engine.open({ onEvent: (event) => events.push(event) });
    run.add({ _tool: "give", _id: "reader", v: "†state.late", _outputPath: "†state.r" });
    run.add({ _tool: "give", _id: "seed", v: 0, _outputPath: "†state.seed" });
    run.add({ _tool: "give", _id: "writer", v: "†state.seed", _outputPath: "†state.late" });
    const result = await run.close();
    expect(result.status).toBe("succeeded");
    expect(readyOf(events)).toEqual({ seed: [], writer: ["seed"], reader: ["writer"] });
    await engine.close();
  });
});
