import { describe, expect, it } from "vitest";
import { createEngine, defineTool } from "./index.js";

/** An engine whose `echo` returns its `text` and counts its runs. */
function setup() {
  let runs = 0;
  const echo = defineTool({
    name: "echo",
    run: (args: unknown) => {
      runs++;
      return (args as { text?: unknown }).text ?? null;
    },
  });
  return { engine: createEngine({ tools: [echo] }), runs: () => runs };
}

/** B, listed first, reads A's target and writes the next index of the array A creates (review s42 rv #2). */
const plan = [
  { _tool: "echo", _id: "B", text: "†state.a[0]", _outputPath: "†state.a[1]" },
  { _tool: "echo", _id: "A", text: "first", _outputPath: "†state.a[0]" },
];

describe("a writer below the array that the call reads counts, wherever it is listed (decisions 0091, 0107)", () => {
  it("validates and runs on an empty thread and on a stored empty array", async () => {
    for (const stored of [undefined, []]) {
      const { engine, runs } = setup();
      if (stored !== undefined) await engine.set("t", "†state.a", stored);
      const validation = await engine.validate(plan, { threadId: "t" });
      expect(validation.diagnostics, JSON.stringify(stored)).toEqual([]);
      const result = await engine.run(plan, { threadId: "t" });
      expect(result.status).toBe("succeeded");
      expect(result.state).toEqual({ a: ["first", "first"] });
      expect(runs()).toBe(2);
      await engine.close();
    }
  });

  it("a reader of another path (the array reached only through a third call) is still refused", async () => {
    const { engine, runs } = setup();
    const chained = [
      { _tool: "echo", _id: "B", text: "†state.b.done", _outputPath: "†state.a[1]" },
      { _tool: "echo", _id: "A", text: "x", _outputPath: "†state.a[0]" },
      { _tool: "echo", _id: "C", text: "†state.a[0]", _outputPath: "†state.b.done" },
    ];
    const validation = await engine.validate(chained, { threadId: "t" });
    expect(validation.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ["REF_TYPE_MISMATCH", "/0/_outputPath"],
    ]);
    await expect(engine.run(chained, { threadId: "t" })).rejects.toMatchObject({ code: "PLAN_INVALID" });
    expect(runs()).toBe(0);
    await engine.close();
  });
});
