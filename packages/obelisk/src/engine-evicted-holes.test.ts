import { describe, expect, it } from "vitest";
import { createEngine } from "./index.js";

const echo = {
  name: "echo",
  input: { type: "object" },
  run: (args: unknown) => (args as { v?: unknown }).v ?? null,
};

describe("a plan reading an evicted array element (a null hole) finds nothing there (decision 0013)", () => {
  it("a reference to the hole is unresolved at run, a fallback takes the next operand, a write fills it again", async () => {
    const engine = createEngine({ tools: [echo] });
    for (const [index, value] of ["first", "second", "third"].entries())
      await engine.set("t", `†state.items[${index}]`, value);
    await engine.keepLastN("t", 2);
    expect((await engine.run([{ _tool: "echo", _id: "noop", v: 0 }], { threadId: "t" })).state.items).toEqual(
      [null, "second", "third"],
    );
    const result = await engine.run(
      [
        { _tool: "echo", _id: "hole", v: "†state.items[0]", _outputPath: "†state.read" },
        {
          _tool: "echo",
          _id: "fallback",
          v: "†state.items[0] || †state.items[1]",
          _outputPath: "†state.picked",
        },
        { _tool: "echo", _id: "live", v: "†state.items[2]", _outputPath: "†state.live" },
        {
          _tool: "echo",
          _id: "fromEnd",
          v: "†state.items[-3] || †state.items[-1]",
          _outputPath: "†state.end",
        },
      ],
      { threadId: "t" },
    );
    expect(result.calls.hole).toMatchObject({ status: "failed", error: { code: "REF_UNRESOLVED" } });
    expect(result.state).toMatchObject({ picked: "second", live: "third", end: "third" });
    // written again in a run, it is a value for the calls after the writer
    const refilled = await engine.run(
      [
        { _tool: "echo", _id: "fill", v: "new", _outputPath: "†state.items[0]" },
        { _tool: "echo", _id: "after", v: "†state.items[0]", _outputPath: "†state.after" },
      ],
      { threadId: "t" },
    );
    expect(refilled.state).toMatchObject({ after: "new" });
    await engine.close();
  });
});
