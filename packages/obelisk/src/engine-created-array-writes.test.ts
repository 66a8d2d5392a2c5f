import type { JsonObject } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { createEngine, defineTool } from "./index.js";

/** An engine whose `echo` counts its runs (the side effect a refused plan must not have). */
function setup(stateSchema?: JsonObject) {
  let runs = 0;
  const echo = defineTool({
    name: "echo",
    run: (args: unknown) => {
      runs++;
      return (args as { text?: unknown }).text ?? null;
    },
  });
  const engine = createEngine({ tools: [echo], ...(stateSchema === undefined ? {} : { stateSchema }) });
  return { engine, runs: () => runs };
}

/** The code, pointer and message of each diagnostic `validate` gives `plan` on thread `t`. */
async function validated(engine: ReturnType<typeof createEngine>, plan: readonly object[]) {
  const validation = await engine.validate(plan, { threadId: "t" });
  return validation.diagnostics.map((d) => [d.code, d.pointer, d.message]);
}

describe("an index past 0 into an array the write itself creates (decision 0107)", () => {
  it("validate refuses it on a thread, and run refuses it before the tool runs", async () => {
    const { engine, runs } = setup();
    const plan = [{ _tool: "echo", text: "hi", _outputPath: "†state.a[1].b" }];
    expect(await validated(engine, plan)).toEqual([
      [
        "REF_TYPE_MISMATCH",
        "/0/_outputPath",
        `†state.a[1].b cannot be written: the thread's state holds nothing at †state.a, and the write creates an empty array there: cannot write at index 1 of an array of length 0: the array is empty: write at index 0, or append with _outputMethod "push"`,
      ],
    ]);
    await expect(engine.run(plan, { threadId: "t" })).rejects.toMatchObject({ code: "PLAN_INVALID" });
    expect(runs()).toBe(0);
    // with a stored object on the way, the array below it is created by the write too
    await engine.set("t", "†state.a", {});
    const below = [{ _tool: "echo", text: "hi", _outputPath: "†state.a.b[1]" }];
    expect((await validated(engine, below)).map(([code]) => code)).toEqual(["REF_TYPE_MISMATCH"]);
    await expect(engine.run(below, { threadId: "t" })).rejects.toMatchObject({ code: "PLAN_INVALID" });
    expect(runs()).toBe(0);
    await engine.close();
  });

  it("a plan that starts the array in an earlier call it reads validates and runs", async () => {
    const { engine, runs } = setup();
    const plan = [
      { _tool: "echo", _id: "first", text: "x", _outputPath: "†state.list[0]" },
      { _tool: "echo", _id: "second", text: "†state.list[0]", _outputPath: "†state.list[1]" },
    ];
    expect(await validated(engine, plan)).toEqual([]);
    const result = await engine.run(plan, { threadId: "t" });
    expect(result.status).toBe("succeeded");
    expect(result.state).toEqual({ list: ["x", "x"] });
    expect(runs()).toBe(2);
    // the second call alone, on a thread without the list, is refused before it runs: it reads a path no
    // call writes (it would wait for a writer of †state.list[0], so its write is not judged on its own)
    await engine.unset("t", "†state.list");
    expect((await validated(engine, [plan[1] as object])).map(([code]) => code)).toEqual(["REF_UNRESOLVED"]);
    await engine.close();
  });

  it("a container the write creates that the state schema types otherwise is refused before the tool runs", async () => {
    const { engine, runs } = setup({ type: "object", properties: { a: { type: "object" } } });
    const plan = [{ _tool: "echo", _id: "w", text: "v", _outputPath: "†state.a[0]" }];
    expect((await validated(engine, plan)).map(([code, pointer]) => [code, pointer])).toEqual([
      ["REF_TYPE_MISMATCH", "/0/_outputPath"],
    ]);
    await expect(engine.run(plan, { threadId: "t" })).rejects.toMatchObject({ code: "PLAN_INVALID" });
    expect(runs()).toBe(0);
    // an earlier call below it creates the object first: core writes the key "0" into it
    const made = [{ _tool: "echo", text: "k", _outputPath: "†state.a.k" }, ...plan];
    expect(await validated(engine, made)).toEqual([]);
    const result = await engine.run(made, { threadId: "t" });
    expect(result.state).toEqual({ a: { k: "k", 0: "v" } });
    await engine.close();
  });
});

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
