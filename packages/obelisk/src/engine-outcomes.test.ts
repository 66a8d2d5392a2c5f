import { afterEach, describe, expect, it } from "vitest";
import { mutatingTool } from "./__fixtures__/mutating-tool.js";
import { storeKinds } from "./__fixtures__/stores.js";
import {
  type ConfirmRequest,
  createEngine,
  defineTool,
  type Engine,
  type EngineOptions,
  type RunEvent,
} from "./index.js";

/** Tools counting their invocations: `give` returns its `value`; `fail` throws; `fresh` is never satisfied. */
function countingTools(counts: Record<string, number>) {
  const count = (name: string) => {
    counts[name] = (counts[name] ?? 0) + 1;
  };
  return [
    defineTool({
      name: "give",
      run: (args: unknown) => {
        count("give");
        return (args as { value?: unknown }).value;
      },
    }),
    defineTool({
      name: "fail",
      run: () => {
        count("fail");
        throw Object.assign(new Error("down"), { code: "E_DOWN" });
      },
    }),
    defineTool({
      name: "now",
      fresh: true,
      run: () => {
        count("now");
        return counts.now;
      },
    }),
  ];
}

describe.each(storeKinds())("outcomes on the $name store", (kind) => {
  let engine: Engine;
  let counts: Record<string, number>;
  const setup = (options: Partial<EngineOptions> = {}): Engine => {
    counts = {};
    engine = createEngine({ tools: countingTools(counts), ...options, store: kind.open() });
    return engine;
  };
  afterEach(async () => {
    await engine.close();
    kind.cleanup();
  });

  it("_rerun and fresh tools run again; the other calls of the plan are satisfied", async () => {
    const plan = [
      { _tool: "give", _id: "same", value: 1, _outputPath: "†state.same" },
      { _tool: "give", _id: "again", value: 2, _rerun: true, _outputPath: "†state.again" },
      { _tool: "now", _id: "clock", _outputPath: "†state.clock" },
      { _tool: "give", _id: "reader", value: "†state.clock", _outputPath: "†state.read" },
    ];
    await setup().run(plan);
    const second = await engine.run(plan);
    expect(second.calls.same?.status).toBe("satisfied");
    expect(second.calls.again?.status).toBe("succeeded");
    expect(second.calls.clock?.status).toBe("succeeded");
    // The fresh tool's new value changes the reader's parameters: it runs again too.
    expect(second.calls.reader?.status).toBe("succeeded");
    expect(counts).toEqual({ give: 5, now: 2 });
    expect(second.state).toEqual({ same: 1, again: 2, clock: 2, read: 2 });
  });

  it("the satisfied key is tool + resolved parameters + output path + method", async () => {
    setup();
    await engine.set("default", "†state.same", { a: 1 });
    await engine.run([{ _tool: "give", _id: "g", value: { a: 1 }, _outputPath: "†state.o" }]);
    const again = await engine.run([
      // The same resolved parameters through a reference: satisfied.
      { _tool: "give", _id: "g", value: "†state.same", _outputPath: "†state.o" },
    ]);
    expect(again.calls.g?.status).toBe("satisfied");
    const method = await engine.run([
      { _tool: "give", _id: "g", value: { a: 1 }, _outputPath: "†state.o", _outputMethod: "assign" },
    ]);
    expect(method.calls.g?.status).toBe("succeeded");
    const path = await engine.run([{ _tool: "give", _id: "g", value: { a: 1 }, _outputPath: "†state.p" }]);
    expect(path.calls.g?.status).toBe("succeeded");
    const params = await engine.run([{ _tool: "give", _id: "g", value: { a: 2 }, _outputPath: "†state.p" }]);
    expect(params.calls.g?.status).toBe("succeeded");
    expect(counts.give).toBe(4);
  });

  it("calls passing 2,000 records (literal or by reference) are satisfied when the plan is sent again", async () => {
    setup();
    const rows = Array.from({ length: 2_000 }, (_, i) => ({ i, name: `row ${i}` }));
    const plan = [
      { _tool: "give", _id: "rows", value: rows, _outputPath: "†state.rows" },
      { _tool: "give", _id: "copy", value: "†state.rows", _outputPath: "†state.copy" },
    ];
    expect((await engine.run(plan)).status).toBe("succeeded");
    if (kind.name === "sqlite") {
      // a new engine on the same file: the records are read back from disk, as new arrays
      await engine.close();
      engine = createEngine({ tools: countingTools(counts), store: kind.open() });
    }
    const again = await engine.run(plan);
    expect([again.calls.rows?.status, again.calls.copy?.status]).toEqual(["satisfied", "satisfied"]);
    expect(counts.give).toBe(2);
    const changed = await engine.run([{ ...plan[0], value: [...rows.slice(1), { i: 0 }] }, plan[1]]);
    expect([changed.calls.rows?.status, changed.calls.copy?.status]).toEqual(["succeeded", "succeeded"]);
  });

  it("a satisfied call re-applies its recorded result when its target no longer holds it", async () => {
    const plan = [{ _tool: "give", _id: "g", value: { v: 1 }, _outputPath: "†state.g" }];
    await setup().run(plan);
    await engine.set("default", "†state.g", "changed by hand");
    const second = await engine.run(plan);
    expect(second.calls.g?.status).toBe("satisfied");
    expect(counts.give).toBe(1);
    expect(second.state).toEqual({ g: { v: 1 } });
    expect(await engine.get("default", "†state.g")).toEqual({ found: true, value: { v: 1 } });
  });

  it("satisfied merge/assign/push/concat calls re-apply what their target no longer holds", async () => {
    const plan = [
      { _tool: "give", _id: "m", value: { a: { b: 1 } }, _outputPath: "†state.m", _outputMethod: "merge" },
      { _tool: "give", _id: "s", value: { k: 1 }, _outputPath: "†state.s", _outputMethod: "assign" },
      { _tool: "give", _id: "p", value: "x", _outputPath: "†state.p", _outputMethod: "push" },
      { _tool: "give", _id: "c", value: [1, 2], _outputPath: "†state.c", _outputMethod: "concat" },
    ];
    await setup().run(plan);
    const held = await engine.run(plan);
    expect(Object.values(held.calls).map((call) => call.wrote)).toEqual([[], [], [], []]);
    await engine.set("default", "†state.m", { a: { c: 2 } });
    await engine.set("default", "†state.s", { k: 2, other: 0 });
    await engine.set("default", "†state.p", ["y"]);
    await engine.set("default", "†state.c", [2]);
    const again = await engine.run(plan);
    expect(Object.values(again.calls).map((call) => call.status)).toEqual(Array(4).fill("satisfied"));
    expect(counts.give).toBe(4);
    expect(again.state).toEqual({
      m: { a: { c: 2, b: 1 } },
      s: { k: 1, other: 0 },
      p: ["y", "x"],
      c: [2, 1, 2],
    });
  });

  /** Three push co-writers of †state.log ("a", "b", "a"), run, evicted, and sent again: the second run. */
  const resentAfterEviction = async (firstRerun: boolean) => {
    const plan = ["a", "b", "a"].map((value, i) => ({
      _tool: "give",
      _id: `w${i}`,
      value,
      _outputPath: "†state.log",
      _outputMethod: "push",
      ...(firstRerun && i === 0 ? { _rerun: true } : {}),
    }));
    await setup().run(plan);
    await engine.keepLastN("default", 0);
    return engine.run(plan);
  };

  it("satisfied accumulating co-writers of an evicted path all re-apply, in plan order", async () => {
    const again = await resentAfterEviction(false);
    expect(Object.values(again.calls).map((call) => call.status)).toEqual(Array(3).fill("satisfied"));
    expect(counts.give).toBe(3);
    expect(again.state).toEqual({ log: ["a", "b", "a"] });
  });

  it("a co-writer that runs again and re-creates an evicted path makes the satisfied ones after it re-apply", async () => {
    const again = await resentAfterEviction(true);
    expect(Object.values(again.calls).map((call) => call.status)).toEqual([
      "succeeded",
      "satisfied",
      "satisfied",
    ]);
    expect(again.state).toEqual({ log: ["a", "b", "a"] });
  });

  it("re-sending co-writers of one path, in a batch or streamed, leaves the state as the plan made it", async () => {
    const plan = [
      { _tool: "give", _id: "m1", value: { a: { x: 1 } }, _outputPath: "†state.o", _outputMethod: "merge" },
      { _tool: "give", _id: "m2", value: { a: { x: 2 } }, _outputPath: "†state.o", _outputMethod: "merge" },
      { _tool: "give", _id: "p1", value: "x", _outputPath: "†state.l", _outputMethod: "push" },
      { _tool: "give", _id: "p2", value: "y", _outputPath: "†state.l", _outputMethod: "push" },
    ];
    const first = await setup().run(plan);
    expect(first.state).toEqual({ o: { a: { x: 2 } }, l: ["x", "y"] });
    const again = await engine.run(plan);
    expect(Object.values(again.calls).map((call) => call.status)).toEqual(Array(4).fill("satisfied"));
    // the push co-writers' items are there; m1's x was replaced by m2's by design: m1 is re-applied, then m2
    expect(Object.values(again.calls).map((call) => call.wrote.length)).toEqual([1, 1, 0, 0]);
    expect(again.state).toEqual(first.state);
    const stream = await engine.open({});
    for (const call of plan) stream.add(call);
    const streamed = await stream.close();
    expect(Object.values(streamed.calls).map((call) => call.status)).toEqual(Array(4).fill("satisfied"));
    expect(streamed.state).toEqual(first.state);
    // a hand edit that drops a co-writer's part is repaired, in either mode
    await engine.set("default", "†state.l", ["y"]);
    await engine.set("default", "†state.o", { a: {} });
    expect((await engine.run(plan)).state).toEqual({ o: { a: { x: 2 } }, l: ["y", "x"] });
  });

  it("a satisfied call without an output path keeps its stored output readable by its dependents", async () => {
    const plan = [
      { _tool: "give", _id: "src", value: [1, 2, 3] },
      { _tool: "give", _id: "use", value: "†calls.src", _outputPath: "†state.used" },
    ];
    await setup().run(plan);
    const second = await engine.run(plan);
    expect(second.calls.src?.status).toBe("satisfied");
    expect(second.calls.use?.status).toBe("satisfied");
    expect(counts.give).toBe(2);
    expect(second.state).toEqual({ used: [1, 2, 3] });
  });

  it("a satisfied call keeps its recorded branch and routed error", async () => {
    const plan = [
      { _tool: "fail", _id: "f", _outputPath: "†state.ok || †state.err" },
      { _tool: "give", _id: "onErr", value: "†state.err.code", _outputPath: "†state.handled" },
    ];
    const first = await setup().run(plan);
    expect(first.calls.f).toMatchObject({ status: "succeeded", branch: 1, error: { code: "E_DOWN" } });
    const second = await engine.run(plan);
    expect(second.calls.f).toMatchObject({ status: "satisfied", branch: 1 });
    expect(second.calls.onErr?.status).toBe("satisfied");
    expect(counts.fail).toBe(1);
    expect(second.state.handled).toBe("E_DOWN");
  });

  it("the confirm hook is not asked for satisfied calls; a call it modified is still satisfied on re-send", async () => {
    const asked: string[] = [];
    setup({
      confirm: (request: ConfirmRequest) => {
        asked.push(request.callId);
        return { action: "modify", params: { value: "modified" } };
      },
    });
    const plan = [{ _tool: "give", _id: "g", value: "original", _outputPath: "†state.g" }];
    expect((await engine.run(plan)).state).toEqual({ g: "modified" });
    const second = await engine.run(plan);
    expect(second.calls.g?.status).toBe("satisfied");
    expect(asked).toEqual(["g"]);
  });

  it("blocked reasons name the upstream call and the untaken alternative, transitively", async () => {
    const result = await setup().run([
      { _tool: "fail", _id: "f", _outputPath: "†state.ok || †state.err" },
      { _tool: "give", _id: "onOk", value: "†state.ok", _outputPath: "†state.a" },
      { _tool: "give", _id: "afterOk", value: "†state.a", _outputPath: "†state.b" },
      { _tool: "fail", _id: "hard", _outputPath: "†state.hard" },
      { _tool: "give", _id: "onHard", value: "†state.hard", _outputPath: "†state.c" },
    ]);
    expect(result.calls.onOk?.status).toBe("blocked");
    expect(result.calls.onOk?.reason).toContain("f");
    expect(result.calls.onOk?.reason).toContain("†state.ok");
    expect(result.calls.afterOk?.status).toBe("blocked");
    expect(result.calls.afterOk?.reason).toContain("onOk");
    expect(result.calls.onHard?.status).toBe("blocked");
    expect(result.calls.onHard?.reason).toContain("hard");
    // Blocked is not failure: only `hard` is an error record.
    expect(result.errors.map((error) => error.callId)).toEqual(["hard"]);
    expect(result.status).toBe("failed");
  });

  it("a gate with an approval operand waits; every status reaches the call-end events", async () => {
    const ends: [string, string][] = [];
    const result = await setup().run(
      [
        { _tool: "give", _id: "prep", value: 1, _outputPath: "†state.prep" },
        {
          _tool: "give",
          _id: "ship",
          value: "†state.prep && †state.approvals.ship",
          _outputPath: "†state.s",
        },
        { _tool: "give", _id: "after", value: "†state.s", _outputPath: "†state.t" },
        { _tool: "fail", _id: "bad", _outputPath: "†state.bad" },
        { _tool: "give", _id: "blocked", value: "†state.bad", _outputPath: "†state.u" },
      ],
      { onEvent: (event) => event.type === "call-end" && ends.push([event.callId, event.status]) },
    );
    expect(result.calls.ship?.status).toBe("waiting");
    expect(result.calls.ship?.reason).toContain("†state.approvals.ship");
    expect(result.calls.after?.status).toBe("waiting");
    expect(new Map(ends)).toEqual(
      new Map([
        ["prep", "succeeded"],
        ["ship", "waiting"],
        ["after", "waiting"],
        ["bad", "failed"],
        ["blocked", "blocked"],
      ]),
    );
    const records = await engine.runs.list();
    const details = await engine.runs.show(records[0]?.runId as string);
    expect(new Map(details.calls.map((record) => [record.callId, record.status]))).toEqual(new Map(ends));
  });
});

describe("a call both waiting for an approval and blocked upstream", () => {
  // Both orders have one plan hash (canonical JSON sorts keys): one approval must not run two outcomes.
  it("ends blocked whatever the order of its parameters' keys, with the blocked reason", async () => {
    const bad = { _tool: "fail", _id: "bad", _outputPath: "†state.bad" };
    const statuses: unknown[] = [];
    for (const params of [
      { a: "†state.approvals.go", b: "†state.bad" },
      { b: "†state.bad", a: "†state.approvals.go" },
    ]) {
      const result = await createEngine({ tools: countingTools({}) }).run([
        bad,
        { _tool: "give", _id: "r", ...params, _outputPath: "†state.r" },
      ]);
      statuses.push(result.calls.r);
    }
    expect(statuses).toEqual([
      expect.objectContaining({ status: "blocked", reason: "upstream call bad failed" }),
      expect.objectContaining({ status: "blocked", reason: "upstream call bad failed" }),
    ]);
  });

  it("waits for every approval it lacks, naming each, when nothing upstream failed", async () => {
    const result = await createEngine({ tools: countingTools({}) }).run([
      {
        _tool: "give",
        _id: "r",
        a: "†state.approvals.one",
        b: "†state.approvals.two",
        _outputPath: "†state.r",
      },
    ]);
    expect(result.calls.r).toMatchObject({
      status: "waiting",
      reason: "waits for approval †state.approvals.one; waits for approval †state.approvals.two",
    });
  });
});

describe("a re-sent call whose target a later write changed", () => {
  it("writes its recorded value back (SPEC §7) and says which value it replaced", async () => {
    const engine = createEngine({ tools: countingTools({}) });
    const draft = [{ _tool: "give", _id: "draft", value: "old draft", _outputPath: "†state.email" }];
    await engine.run(draft);
    await engine.set("default", "†state.email", "edited by a person");
    const again = await engine.run(draft);
    expect(again.calls.draft).toMatchObject({ status: "satisfied", wrote: ["†state.email"] });
    expect(again.calls.draft?.reason).toMatch(
      /^restored over a later value: †state\.email held another value, .*"_rerun": true/,
    );
    expect(again.state.email).toBe("old draft");
    // nothing replaced, nothing said
    const third = await engine.run(draft);
    expect(third.calls.draft).not.toHaveProperty("reason");
  });
});

describe("a reader of a path several calls write", () => {
  const engine = (): Engine => createEngine({ tools: countingTools({}) });
  const push = (id: string, tool: string, value: unknown = id) => ({
    _tool: tool,
    _id: id,
    value,
    _outputPath: "†state.list",
    _outputMethod: "push",
  });
  const reader = { _tool: "give", _id: "reader", value: "†state.list", _outputPath: "†state.read" };

  it("is blocked when one writer failed, though the others wrote (no partial value)", async () => {
    const result = await engine().run([push("bad", "fail"), push("good", "give"), reader]);
    expect(result.calls.reader).toMatchObject({ status: "blocked", reason: "upstream call bad failed" });
    expect(result.state).toEqual({ list: ["good"] });
  });

  it("waits when one writer waits for an approval, and runs once it is given", async () => {
    const waiting = push("gated", "give", "†state.approvals.go");
    const run = engine();
    const first = await run.run([waiting, push("good", "give"), reader]);
    expect(first.calls.gated?.status).toBe("waiting");
    expect(first.calls.reader?.status).toBe("waiting");
    await run.set("default", "†state.approvals.go", "yes");
    const second = await run.run([waiting, push("good", "give"), reader]);
    expect(second.calls.reader?.status).toBe("succeeded");
    expect(second.state.read).toEqual(["good", "yes"]);
  });

  it("in a fallback, a writer waiting for approval makes the reader wait: it runs once, with the approved value", async () => {
    const counts: Record<string, number> = {};
    const run = createEngine({ tools: countingTools(counts) });
    const plan = [
      { _tool: "give", _id: "amount", value: "†state.approvals.big", _outputPath: "†state.approved" },
      {
        _tool: "give",
        _id: "notify",
        value: "†state.approved || †input.fallback",
        _outputPath: "†state.sent",
      },
      {
        _tool: "give",
        _id: "templated",
        value: "{†state.approved || †input.fallback}",
        _outputPath: "†state.text",
      },
    ];
    const first = await run.run(plan, { threadId: "t", input: { fallback: 5 } });
    expect(first.calls.notify).toMatchObject({
      status: "waiting",
      reason: "upstream call amount is waiting",
    });
    expect(first.calls.templated?.status).toBe("waiting");
    expect(counts.give ?? 0).toBe(0);
    await run.set("t", "†state.approvals.big", 100);
    const second = await run.resume(first.runId);
    expect(second.calls.notify?.status).toBe("succeeded");
    expect(second.state).toMatchObject({ approved: 100, sent: 100, text: "100" });
    expect(counts.give).toBe(3);
  });

  it("is blocked when a writer below the path failed; a writer that took its other alternative is no failure", async () => {
    const parts = [
      { _tool: "fail", _id: "a", _outputPath: "†state.user.a" },
      { _tool: "give", _id: "b", value: 2, _outputPath: "†state.user.b" },
      { _tool: "give", _id: "reader", value: "†state.user", _outputPath: "†state.read" },
    ];
    const failed = await engine().run(parts);
    expect(failed.calls.reader).toMatchObject({ status: "blocked", reason: "upstream call a failed" });
    const routed = await engine().run([
      { ...parts[0], _outputPath: "†state.user.a || †state.error" },
      ...parts.slice(1),
    ]);
    expect(routed.calls.a).toMatchObject({ status: "succeeded", branch: 1 });
    expect(routed.calls.reader?.status).toBe("succeeded");
    expect(routed.state.read).toEqual({ b: 2 });
  });
});

describe("confirmation hook", () => {
  it("answers asynchronously; a hook that throws or answers nonsense fails only that call (CONFIRM_ERROR)", async () => {
    const requests: ConfirmRequest[] = [];
    const engine = createEngine({
      tools: countingTools({}),
      confirm: async (request) => {
        requests.push(request);
        if (request.callId === "boom") throw new Error("hook bug");
        if (request.callId === "odd") return { action: "maybe" } as never;
        if (request.callId === "no") return { action: "reject", reason: "not now" };
        return { action: "approve" };
      },
    });
    const result = await engine.run(
      [
        { _tool: "give", _id: "yes", value: "†input.x", _outputPath: "†state.yes" },
        { _tool: "give", _id: "no", value: 1, _outputPath: "†state.no" },
        { _tool: "give", _id: "boom", value: 1, _outputPath: "†state.boom" },
        { _tool: "give", _id: "odd", value: 1, _outputPath: "†state.odd" },
      ],
      { input: { x: { deep: true } } },
    );
    expect(result.calls.yes?.status).toBe("succeeded");
    expect(result.calls.no).toMatchObject({ status: "rejected", reason: "not now" });
    expect(result.calls.boom).toMatchObject({ status: "failed", error: { code: "CONFIRM_ERROR" } });
    expect(result.calls.odd).toMatchObject({ status: "failed", error: { code: "CONFIRM_ERROR" } });
    expect(result.errors.map((error) => error.callId)).toEqual(["boom", "odd"]);
    expect(requests.find((request) => request.callId === "yes")).toEqual({
      callId: "yes",
      tool: "give",
      params: { value: { deep: true } },
      outputPath: "†state.yes",
      // what the plan asks beyond the parameters (decision 0031): no _rerun, the tool's one attempt
      rerun: false,
      attempts: 1,
      runId: result.runId,
      threadId: "default",
      signal: expect.any(AbortSignal),
    });
    expect(result.state).toEqual({ yes: { deep: true } });
  });

  it("refuses modified parameters holding a meta-property (PARAM_INVALID): the tool never sees it", async () => {
    const seen: unknown[] = [];
    const engine = createEngine({
      tools: [{ name: "echo", run: (args) => seen.push(args) }],
      confirm: () => ({ action: "modify", params: { x: 1, _outputPath: "†state.hijack" } }),
    });
    const result = await engine.run([{ _tool: "echo", _id: "e", x: 0, _outputPath: "†state.e" }]);
    expect(result.calls.e).toMatchObject({ status: "failed", error: { code: "PARAM_INVALID" } });
    expect(result.calls.e?.error?.message).toContain('"_outputPath"');
    expect(seen).toEqual([]);
    expect(result.state).toEqual({});
  });
});

describe("values handed to tools are immutable", () => {
  it("a tool cannot change the input, stored state, another call's output or its own literals", async () => {
    const attempts: string[] = [];
    const mutate = mutatingTool(attempts);
    const make = defineTool({ name: "make", run: () => ({ list: [1] }) });
    const read = defineTool({ name: "read", run: (args: unknown) => args });
    const engine = createEngine({ tools: [mutate, make, read] });
    await engine.set("default", "†state.stored", { n: 1 });
    const result = await engine.run(
      [
        { _tool: "make", _id: "made", _outputPath: "†state.made" },
        { _tool: "make", _id: "out" },
        { _tool: "mutate", _id: "m1", target: "†input.obj", _outputPath: "†state.m1" },
        { _tool: "mutate", _id: "m2", target: "†state.stored", _outputPath: "†state.m2" },
        { _tool: "mutate", _id: "m3", target: "†state.made", _outputPath: "†state.m3" },
        { _tool: "mutate", _id: "m4", target: "†state.made.list", _outputPath: "†state.m4" },
        { _tool: "mutate", _id: "m5", target: "†calls.out", _outputPath: "†state.m5" },
        { _tool: "mutate", _id: "m6", target: { literal: 1 }, _outputPath: "†state.m6" },
        { _tool: "make", _id: "inner", _outputPath: "†state.box.inner" },
        { _tool: "mutate", _id: "m7", target: "†state.box", _outputPath: "†state.m7" },
        { _tool: "make", _id: "push1", _outputPath: "†state.pushed", _outputMethod: "push" },
        { _tool: "make", _id: "push2", _outputPath: "†state.pushed", _outputMethod: "push" },
        { _tool: "mutate", _id: "m8", target: "†state.pushed", _outputPath: "†state.m8" },
        { _tool: "mutate", _id: "m9", target: "†state" },
        {
          _tool: "read",
          _id: "after",
          input: "†input.obj",
          made: "†state.m3 && †state.m4 && †state.made",
          out: "†state.m5 && †calls.out",
          _outputPath: "†state.after",
        },
      ],
      { input: { obj: { a: 1 } } },
    );
    expect(attempts).toEqual(Array.from({ length: 9 }, () => "refused"));
    expect(result.state.pushed).toEqual([{ list: [1] }, { list: [1] }]);
    expect(result.state.box).toEqual({ inner: { list: [1] } });
    expect(result.status).toBe("succeeded");
    expect(result.state.stored).toEqual({ n: 1 });
    expect(result.state.made).toEqual({ list: [1] });
    expect(result.state.after).toEqual({ input: { a: 1 }, made: { list: [1] }, out: { list: [1] } });
    expect(await engine.get("default", "†calls.out")).toEqual({ found: true, value: { list: [1] } });
  });
});

describe("events", () => {
  it("an observer that throws on every event never breaks the run; other observers see observer-error", async () => {
    const seen: RunEvent["type"][] = [];
    const engine = createEngine({
      tools: countingTools({}),
      onEvent: (event) => {
        seen.push(event.type);
      },
    });
    const result = await engine.run(
      [
        { _tool: "give", _id: "a", value: 1, _outputPath: "†state.a" },
        { _tool: "give", _id: "b", value: "†state.a", _outputPath: "†state.b" },
      ],
      {
        onEvent: () => {
          throw new Error("observer bug");
        },
      },
    );
    expect(result.status).toBe("succeeded");
    expect(result.state).toEqual({ a: 1, b: 1 });
    expect(seen.filter((type) => type === "observer-error").length).toBeGreaterThan(0);
    expect(seen.filter((type) => type !== "observer-error")).toEqual([
      "run-start",
      "call-ready",
      "call-start",
      "state-write",
      "call-end",
      "call-ready",
      "call-start",
      "state-write",
      "call-end",
      "run-end",
    ]);
  });
});
