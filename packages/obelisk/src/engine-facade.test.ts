import { branch as compilerBranch, defineTool as compilerDefineTool } from "@obelisk/compiler";
import { afterEach, describe, expect, it } from "vitest";
import { codeOf } from "./__fixtures__/error-codes.js";
import { storeKinds } from "./__fixtures__/stores.js";
import * as obelisk from "./index.js";
import { createEngine, defineTool, type Engine, ObeliskError, type RunEvent } from "./index.js";

const give = defineTool({ name: "give", run: (args: unknown) => (args as { value?: unknown }).value });
const fail = defineTool({
  name: "fail",
  run: () => {
    throw Object.assign(new Error("down"), { code: "E_DOWN" });
  },
});

const RESULT_KEYS = ["calls", "durationMs", "errors", "planHash", "runId", "state", "status", "threadId"];
const OUTCOME_KEYS = new Set([
  "tool",
  "status",
  "branch",
  "attempts",
  "durationMs",
  "wrote",
  "reason",
  "error",
]);

describe("the public surface", () => {
  it("exports createEngine, defineTool, branch (the compiler's own), agentTools, ObeliskError, DEFAULT_LIMITS, createMemoryStore", () => {
    expect(obelisk.branch).toBe(compilerBranch);
    expect(obelisk.defineTool).toBe(compilerDefineTool);
    expect(typeof obelisk.createEngine).toBe("function");
    expect(typeof obelisk.agentTools).toBe("function");
    expect(typeof obelisk.createMemoryStore).toBe("function");
    expect(typeof obelisk.ObeliskError.is).toBe("function");
    expect(obelisk.DEFAULT_LIMITS.maxCalls).toBeGreaterThan(0);
    expect(obelisk.RUN_STATUSES).toEqual(["running", "succeeded", "failed", "cancelled", "interrupted"]);
  });
});

describe.each(storeKinds())("the engine facade on the $name store", (kind) => {
  let engine: Engine;
  const setup = (options: Partial<Parameters<typeof createEngine>[0]> = {}): Engine => {
    let n = 0;
    engine = createEngine({
      tools: [give, fail],
      generateId: () => `run-${++n}`,
      ...options,
      store: kind.open(),
    });
    return engine;
  };
  afterEach(async () => {
    await engine.close();
    kind.cleanup();
  });

  it("the run result has exactly the shape of SPEC §10 and is plain JSON", async () => {
    const plan = [
      { _tool: "give", _id: "ok", value: { a: 1 }, _outputPath: "†state.ok" },
      { _tool: "fail", _id: "routed", _outputPath: "†state.x || †state.err" },
      { _tool: "fail", _id: "bad", _outputPath: "†state.bad" },
      { _tool: "give", _id: "blocked", value: "†state.bad", _outputPath: "†state.never" },
      { _tool: "give", _id: "out", value: 1 },
    ];
    const validation = await setup().validate(plan, { threadId: "shape" });
    const result = await engine.run(plan, { threadId: "shape" });
    expect(Object.keys(result).sort()).toEqual(RESULT_KEYS);
    expect(result).toMatchObject({ runId: "run-1", threadId: "shape", planHash: validation.planHash });
    expect(result.planHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(result.status).toBe("failed");
    expect(typeof result.durationMs).toBe("number");
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
    for (const outcome of Object.values(result.calls)) {
      for (const key of Object.keys(outcome)) expect(OUTCOME_KEYS).toContain(key);
      expect(typeof outcome.attempts).toBe("number");
      expect(typeof outcome.durationMs).toBe("number");
      if (outcome.error !== undefined) expect(Object.keys(outcome.error).sort()).toEqual(["code", "message"]);
    }
    expect(result.calls.ok).toEqual({
      tool: "give",
      status: "succeeded",
      attempts: 1,
      durationMs: expect.any(Number),
      wrote: ["†state.ok"],
    });
    expect(result.calls.routed).toMatchObject({
      branch: 1,
      error: { code: "E_DOWN" },
      wrote: ["†state.err"],
    });
    expect(result.calls.out?.wrote).toEqual(["†calls.out"]);
    expect(result.calls.blocked).toMatchObject({ status: "blocked", attempts: 0, wrote: [] });
    expect(result.errors).toEqual([
      {
        callId: "bad",
        call: { _tool: "fail", _id: "bad", _outputPath: "†state.bad" },
        error: { code: "E_DOWN", message: "down" },
      },
    ]);
    expect(result.state).toEqual({ ok: { a: 1 }, err: { name: "Error", message: "down", code: "E_DOWN" } });
  });

  it("validate compiles against the thread without writing, locking or recording a run", async () => {
    setup();
    await engine.set("t", "†state.name", "Ada");
    const plan = [{ _tool: "give", _id: "g", value: "†state.name", _outputPath: "†state.greeting" }];
    const validation = await engine.validate(plan, { threadId: "t" });
    expect(validation).toMatchObject({ ok: true, diagnostics: [] });
    expect(validation.compiled.calls).toHaveLength(1);
    expect((await engine.validate(plan, { threadId: "other" })).diagnostics.map((d) => d.code)).toEqual([
      "REF_UNRESOLVED",
    ]);
    expect(await engine.runs.list()).toEqual([]);
    expect(await engine.get("t", "†state.greeting")).toEqual({ found: false });
  });

  it("limits: a plan over maxCalls is PLAN_LIMIT; a tool output over maxValueBytes fails OUTPUT_TOO_LARGE, in run and in open", async () => {
    setup({ limits: { maxCalls: 2, maxValueBytes: 64 } });
    const three = [1, 2, 3].map((n) => ({ _tool: "give", value: n, _outputPath: `†state.v${n}` }));
    const validation = await engine.validate(three);
    expect(validation.diagnostics.map((d) => d.code)).toContain("PLAN_LIMIT");
    expect(await codeOf(engine.run(three))).toBe("PLAN_INVALID");
    const big = "x".repeat(200);
    const result = await engine.run([{ _tool: "give", _id: "big", value: big, _outputPath: "†state.big" }]);
    expect(result.calls.big).toMatchObject({ status: "failed", error: { code: "OUTPUT_TOO_LARGE" } });
    const streaming = await engine.open({ threadId: "s" });
    streaming.add({ _tool: "give", _id: "big", value: big, _outputPath: "†state.big" });
    const streamed = await streaming.close();
    expect(streamed.calls.big).toMatchObject({ status: "failed", error: { code: "OUTPUT_TOO_LARGE" } });
  });

  it("summarize, get (paged), set, keepLastN, reset and runs.list/show", async () => {
    setup();
    await engine.run(
      [
        {
          _tool: "give",
          _id: "list",
          value: [1, 2, 3, 4, 5],
          _outputPath: "†state.list",
          _description: "numbers",
        },
        { _tool: "give", _id: "text", value: "abcdefgh", _outputPath: "†state.text" },
        { _tool: "give", _id: "out", value: { k: "v" } },
      ],
      { threadId: "t" },
    );
    const summary = await engine.summarize("t", { format: "json" });
    expect(summary.entries.map((entry) => entry.reference).sort()).toEqual([
      "†calls.out",
      "†state.list",
      "†state.text",
    ]);
    expect(summary.entries.find((entry) => entry.reference === "†state.list")).toMatchObject({
      type: "array",
      count: 5,
      description: "numbers",
      callId: "list",
      tool: "give",
    });
    expect((await engine.summarize("t", { budgetChars: 2000 })).text.length).toBeLessThanOrEqual(2000);
    expect(await engine.get("t", "†state.list", { offset: 1, limit: 2 })).toMatchObject({
      found: true,
      items: [2, 3],
      total: 5,
    });
    expect(await engine.get("t", "†state.text", { offset: 2, limit: 3 })).toMatchObject({
      text: "cde",
      total: 8,
    });
    expect(await engine.get("t", "†calls.out.k")).toEqual({ found: true, value: "v" });
    await engine.set("t", "†state.text", "newest");
    expect(await engine.keepLastN("t", 1)).toEqual({ kept: 1, evicted: 2 });
    expect((await engine.summarize("t", { format: "json" })).entries.map((e) => e.reference)).toEqual([
      "†state.text",
    ]);
    expect(await codeOf(engine.get("t", "†state.list"))).toBe("REF_EVICTED");
    const runs = await engine.runs.list({ threadId: "t" });
    expect(runs.map((run) => [run.runId, run.status])).toEqual([["run-1", "succeeded"]]);
    const shown = await engine.runs.show("run-1");
    expect(shown.calls.map((record) => record.callId).sort()).toEqual(["list", "out", "text"]);
    expect(await codeOf(engine.runs.show("nope"))).toBe("RUN_NOT_FOUND");
    await engine.reset("t");
    expect((await engine.summarize("t")).entries).toEqual([]);
    expect(await codeOf(engine.get("t", "†state.text"))).toBe("REF_EVICTED");
    expect(await engine.get("t", "†state.unknown")).toEqual({ found: false });
  });

  it("open streams a run: events as an async iterator, add after close is a USAGE error", async () => {
    setup();
    const run = await engine.open({ threadId: "s", input: { n: 3 } });
    const types: RunEvent["type"][] = [];
    const collecting = (async () => {
      for await (const event of run.events) types.push(event.type);
    })();
    expect(run.add({ _tool: "give", _id: "a", value: "†input.n", _outputPath: "†state.a" })).toMatchObject({
      ok: true,
      callId: "a",
    });
    expect(run.add({ _tool: "nope" })).toMatchObject({ ok: false });
    const result = await run.close();
    await collecting;
    expect(result.state).toEqual({ a: 3 });
    expect(result.runId).toBe(run.runId);
    expect(types[0]).toBe("run-start");
    expect(types.at(-1)).toBe("run-end");
    expect(types).toContain("call-end");
    expect(() => run.add({ _tool: "give", value: 1 })).toThrow(ObeliskError);
  });
});
