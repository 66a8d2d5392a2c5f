import { describe, expect, it } from "vitest";
import { createEngine, type RunEvent } from "./index.js";

// Decision 0104 (review s41 r3 #6): a call-end event lists what the call wrote, as its RunResult entry.

const tools = [
  { name: "echo", run: (args: unknown) => (args as { v: unknown }).v },
  {
    name: "boom",
    run: () => {
      throw new Error("no");
    },
  },
];

describe("call-end carries wrote", () => {
  it("an output stored under its id, an _outputPath's targets, nothing for a failed call", async () => {
    const events: RunEvent[] = [];
    const engine = createEngine({ tools, onEvent: (event) => events.push(event) });
    const result = await engine.run([
      { _tool: "echo", _id: "stored", v: 1 },
      { _tool: "echo", _id: "named", v: 2, _outputPath: "†state.a && †state.b" },
      { _tool: "boom", _id: "failed" },
    ]);
    const ends = new Map(
      events.flatMap((event) => (event.type === "call-end" ? [[event.callId, event.wrote] as const] : [])),
    );
    expect(ends.get("stored")).toEqual(["†calls.stored"]);
    expect(ends.get("named")).toEqual(["†state.a", "†state.b"]);
    expect(ends.get("failed")).toEqual([]);
    // the same as the run result's entries
    for (const [id, call] of Object.entries(result.calls)) expect(ends.get(id)).toEqual(call.wrote);
    // the stored output has no state-write event: call-end is where it is told
    expect(events.filter((event) => event.type === "state-write").map((event) => event.callId)).toEqual([
      "named",
      "named",
    ]);
    await engine.close();
  });
});
