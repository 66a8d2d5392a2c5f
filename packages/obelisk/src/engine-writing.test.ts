import { afterEach, describe, expect, it } from "vitest";
import { Controller } from "./__fixtures__/controlled-tools.js";
import { until } from "./__fixtures__/deferred.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, defineTool, type Engine, type EngineOptions } from "./index.js";

/** Returns its `value` parameter. */
const give = defineTool({
  name: "give",
  run: (args: unknown) => (args as { value?: unknown }).value,
});

describe.each(storeKinds())("writing results on the $name store", (kind) => {
  let engine: Engine;
  const setup = (options: Partial<EngineOptions> = {}): Engine => {
    engine = createEngine({ tools: [give], ...options, store: kind.open() });
    return engine;
  };
  afterEach(async () => {
    await engine.close();
    kind.cleanup();
  });

  it("applies the five output methods to existing values", async () => {
    setup();
    await engine.set("default", "†state.s", { x: 1 });
    await engine.set("default", "†state.m", { a: { b: 1 }, k: 1 });
    await engine.set("default", "†state.as", { a: { b: 1 }, k: 1 });
    await engine.set("default", "†state.p", [1]);
    await engine.set("default", "†state.c", [1]);
    const result = await engine.run([
      { _tool: "give", _id: "set", value: { y: 2 }, _outputPath: "†state.s" },
      {
        _tool: "give",
        _id: "merge",
        value: { a: { c: 2 } },
        _outputPath: "†state.m",
        _outputMethod: "merge",
      },
      {
        _tool: "give",
        _id: "assign",
        value: { a: { c: 2 } },
        _outputPath: "†state.as",
        _outputMethod: "assign",
      },
      { _tool: "give", _id: "push", value: [2, 3], _outputPath: "†state.p", _outputMethod: "push" },
      { _tool: "give", _id: "concat", value: [2, 3], _outputPath: "†state.c", _outputMethod: "concat" },
    ]);
    expect(result.status).toBe("succeeded");
    expect(result.state).toEqual({
      s: { y: 2 },
      m: { a: { b: 1, c: 2 }, k: 1 },
      as: { a: { c: 2 }, k: 1 },
      p: [1, [2, 3]],
      c: [1, 2, 3],
    });
    expect(await engine.get("default", "†state.m")).toEqual({ found: true, value: result.state.m });
  });

  it("creates missing paths for every method", async () => {
    const result = await setup().run([
      { _tool: "give", _id: "set", value: 1, _outputPath: "†state.n.set" },
      { _tool: "give", _id: "merge", value: { a: 1 }, _outputPath: "†state.n.merge", _outputMethod: "merge" },
      {
        _tool: "give",
        _id: "assign",
        value: { a: 1 },
        _outputPath: "†state.n.assign",
        _outputMethod: "assign",
      },
      { _tool: "give", _id: "push", value: "x", _outputPath: "†state.n.push", _outputMethod: "push" },
      {
        _tool: "give",
        _id: "concat",
        value: [1, 2],
        _outputPath: "†state.n.concat",
        _outputMethod: "concat",
      },
    ]);
    expect(result.state).toEqual({
      n: { set: 1, merge: { a: 1 }, assign: { a: 1 }, push: ["x"], concat: [1, 2] },
    });
  });

  it("writing through a non-object value fails the call and writes nothing", async () => {
    setup();
    await engine.set("default", "†state.s", 5);
    const deep = { _tool: "give", _id: "deep", value: 1, _outputPath: "†state.s.x" };
    const after = { _tool: "give", _id: "after", value: "†state.s.x", _outputPath: "†state.after" };
    // the stored value is known: the plan is refused before anything runs (decision 0091)
    await expect(engine.run([deep, after])).rejects.toMatchObject({ code: "PLAN_INVALID" });
    // a write that fails only at commit (a number merged onto the stored object) still fails the call alone
    await engine.set("default", "†state.s", { k: 1 });
    const result = await engine.run([{ ...deep, _outputPath: "†state.s", _outputMethod: "merge" }, after]);
    expect(result.status).toBe("failed");
    expect(result.calls.deep).toMatchObject({ status: "failed", wrote: [] });
    expect(result.calls.deep?.error?.code).toMatch(/^OUTPUT_/);
    expect(result.calls.after?.status).toBe("blocked");
    expect(result.state).toEqual({ s: { k: 1 } });
  });

  it("a void tool writes null (decision)", async () => {
    const result = await setup().run([{ _tool: "give", _id: "v", _outputPath: "†state.v" }]);
    expect(result.state).toEqual({ v: null });
  });

  it("ctx.branch picks an alternative by index and by outcome name; an unknown name is BRANCH_INVALID", async () => {
    const pick = defineTool({
      name: "pick",
      outcomes: ["good", "bad", "ugly"],
      run: (args: unknown, ctx) => {
        const { to } = args as { to: number | string };
        return ctx.branch(to, { chose: to });
      },
    });
    const result = await setup({ tools: [pick, give] }).run([
      { _tool: "pick", _id: "byIndex", to: 1, _outputPath: "†state.i.good || †state.i.bad || †state.i.ugly" },
      {
        _tool: "pick",
        _id: "byName",
        to: "ugly",
        _outputPath: "†state.n.good || †state.n.bad || †state.n.ugly",
      },
      { _tool: "pick", _id: "zero", to: 0, _outputPath: "†state.z.good || †state.z.bad" },
      { _tool: "pick", _id: "unknown", to: "nope", _outputPath: "†state.u.good || †state.u.bad" },
      { _tool: "give", _id: "readBad", value: "†state.i.bad", _outputPath: "†state.readBad" },
      { _tool: "give", _id: "readGood", value: "†state.i.good", _outputPath: "†state.readGood" },
    ]);
    expect(result.calls.byIndex).toMatchObject({ status: "succeeded", branch: 1, wrote: ["†state.i.bad"] });
    expect(result.calls.byName).toMatchObject({ status: "succeeded", branch: 2, wrote: ["†state.n.ugly"] });
    expect(result.calls.zero).toMatchObject({ status: "succeeded", branch: 0 });
    expect(result.calls.unknown).toMatchObject({ status: "failed", error: { code: "BRANCH_INVALID" } });
    // the message lists the names the tool declares, so a typo shows at once
    expect(result.calls.unknown?.error?.message).toBe(
      'unknown alternative "nope": tool "pick" declares "good", "bad", "ugly"',
    );
    expect(result.calls.readBad?.status).toBe("succeeded");
    expect(result.calls.readGood?.status).toBe("blocked");
    expect(result.state).toEqual({
      i: { bad: { chose: 1 } },
      n: { ugly: { chose: "ugly" } },
      z: { good: { chose: 0 } },
      readBad: { chose: 1 },
    });
  });

  it("ctx.branch called without returning its result still picks the alternative (SPEC §3)", async () => {
    const pick = defineTool({
      name: "pick",
      run: async (args: unknown, ctx) => {
        const { mode } = args as { mode: string };
        ctx.branch(1, "chosen");
        if (mode === "returns other") return "other";
        if (mode === "returns branch") return ctx.branch(0, "last wins");
        if (mode === "destructured") {
          const { branch } = ctx;
          return branch(1, "detached");
        }
        return undefined;
      },
    });
    const path = (name: string) => `†state.${name}.ok || †state.${name}.failed`;
    const result = await setup({ tools: [pick] }).run([
      { _tool: "pick", _id: "nothing", mode: "returns nothing", _outputPath: path("a") },
      { _tool: "pick", _id: "other", mode: "returns other", _outputPath: path("b") },
      { _tool: "pick", _id: "returned", mode: "returns branch", _outputPath: path("c") },
      { _tool: "pick", _id: "detached", mode: "destructured", _outputPath: path("d") },
    ]);
    expect(result.calls.nothing).toMatchObject({
      status: "succeeded",
      branch: 1,
      wrote: ["†state.a.failed"],
    });
    expect(result.calls.other).toMatchObject({ status: "failed", error: { code: "BRANCH_INVALID" } });
    expect(result.calls.other?.error?.message).toContain("ctx.branch(1, …)");
    expect(result.calls.returned).toMatchObject({ status: "succeeded", branch: 0 });
    expect(result.state).toEqual({
      a: { failed: "chosen" },
      c: { ok: "last wins" },
      d: { failed: "detached" },
    });
  });

  it("fan-out inside a chosen alternative writes every target of that alternative only", async () => {
    const pick = defineTool({ name: "pick", run: (_args: unknown, ctx) => ctx.branch(1, "v") });
    const result = await setup({ tools: [pick] }).run([
      { _tool: "pick", _id: "p", _outputPath: "†state.a && †state.b || †state.c && †state.d.e" },
    ]);
    expect(result.calls.p).toMatchObject({ branch: 1, wrote: ["†state.c", "†state.d.e"] });
    expect(result.state).toEqual({ c: "v", d: { e: "v" } });
  });

  it("a latent call's _output is written like a result and read by its dependents", async () => {
    const latent = defineTool({ name: "latent", output: { type: "object" } });
    const result = await setup({ tools: [latent, give] }).run([
      { _tool: "give", _id: "reader", value: "†state.plan.steps", _outputPath: "†state.read" },
      { _tool: "latent", _id: "l", _output: { steps: [1, 2] }, _outputPath: "†state.plan" },
    ]);
    expect(result.calls.l).toMatchObject({ status: "succeeded", wrote: ["†state.plan"] });
    expect(result.state).toEqual({ plan: { steps: [1, 2] }, read: [1, 2] });
  });

  it("tool outputs that are not JSON fail with OUTPUT_NOT_JSON (not retried, not routed)", async () => {
    let attempts = 0;
    const odd = defineTool({
      name: "odd",
      retry: { attempts: 3, backoffMs: 0 },
      run: (args: unknown) => {
        attempts++;
        const { what } = args as { what: string };
        if (what === "nan") return { n: Number.NaN };
        if (what === "bigint") return { n: 10n };
        if (what === "symbol") return Symbol("s");
        const cycle: Record<string, unknown> = {};
        cycle.self = cycle;
        return cycle;
      },
    });
    const result = await setup({ tools: [odd] }).run([
      { _tool: "odd", _id: "nan", what: "nan", _outputPath: "†state.nan" },
      { _tool: "odd", _id: "bigint", what: "bigint", _outputPath: "†state.ok || †state.bigint" },
      { _tool: "odd", _id: "symbol", what: "symbol", _outputPath: "†state.symbol" },
      { _tool: "odd", _id: "cycle", what: "cycle", _outputPath: "†state.cycle" },
    ]);
    for (const id of ["nan", "bigint", "symbol", "cycle"]) {
      expect(result.calls[id]).toMatchObject({
        status: "failed",
        attempts: 1,
        error: { code: "OUTPUT_NOT_JSON" },
      });
    }
    expect(attempts).toBe(4);
    expect(result.state).toEqual({});
  });

  it("a write that breaks the thread's state schema fails the call and writes nothing", async () => {
    const stateSchema = {
      type: "object",
      properties: {
        count: { type: "number" },
        tags: { type: "array", items: { type: "string" } },
        list: { type: "object", properties: { tags: { type: "array", items: { type: "string" } } } },
      },
    };
    const result = await setup({ stateSchema }).run([
      { _tool: "give", _id: "bad", value: "ten", _outputPath: "†state.count" },
      { _tool: "give", _id: "fan", value: 3, _outputPath: "†state.other && †state.tags" },
      { _tool: "give", _id: "badPush", value: 3, _outputPath: "†state.list.tags", _outputMethod: "push" },
      { _tool: "give", _id: "good", value: 10, _outputPath: "†state.count2" },
      { _tool: "give", _id: "reader", value: "†state.count", _outputPath: "†state.read" },
    ]);
    expect(result.calls.bad).toMatchObject({ status: "failed", error: { code: "OUTPUT_SCHEMA_VIOLATION" } });
    expect(result.calls.fan).toMatchObject({ status: "failed", error: { code: "OUTPUT_SCHEMA_VIOLATION" } });
    expect(result.calls.badPush).toMatchObject({
      status: "failed",
      error: { code: "OUTPUT_SCHEMA_VIOLATION" },
    });
    expect(result.calls.reader?.status).toBe("blocked");
    expect(result.state).toEqual({ count2: 10 });
  });
});

describe.each(storeKinds())("accumulating writes on the $name store", (kind) => {
  let engine: Engine;
  let control: Controller;
  afterEach(async () => {
    await engine.close();
    kind.cleanup();
  });

  it.each([
    ["concat", (k: string) => [k, `${k}!`], ["w0", "w0!", "w1", "w1!", "w2", "w2!", "w3", "w3!"]],
    [
      "merge",
      (k: string) => ({ last: k, [k]: true, nested: { last: k } }),
      { last: "w3", w0: true, w1: true, w2: true, w3: true, nested: { last: "w3" } },
    ],
    [
      "assign",
      (k: string) => ({ last: k, [k]: true }),
      { last: "w3", w0: true, w1: true, w2: true, w3: true },
    ],
  ] as const)(
    "%s writers of one path apply in plan order whatever order they finish in",
    async (method, value, expected) => {
      control = new Controller();
      engine = createEngine({ tools: [control.tool("wait")], store: kind.open() });
      const keys = ["w0", "w1", "w2", "w3"];
      const running = engine.run(
        keys.map((key) => ({
          _tool: "wait",
          _id: key,
          key,
          _outputPath: "†state.acc",
          _outputMethod: method,
        })),
      );
      await until(() => control.started.length === 4);
      for (const key of ["w2", "w3", "w0", "w1"]) control.finish(key, value(key));
      const result = await running;
      expect(result.status).toBe("succeeded");
      expect(result.state.acc).toEqual(expected);
      expect(await engine.get("default", "†state.acc")).toEqual({ found: true, value: expected });
    },
  );

  it("a failed accumulating writer releases the later ones", async () => {
    control = new Controller();
    engine = createEngine({ tools: [control.tool("wait")], store: kind.open() });
    const keys = ["w0", "w1", "w2"];
    const running = engine.run(
      keys.map((key) => ({ _tool: "wait", _id: key, key, _outputPath: "†state.acc", _outputMethod: "push" })),
    );
    await until(() => control.started.length === 3);
    control.finish("w2");
    control.finish("w1");
    control.fail("w0", new Error("down"));
    const result = await running;
    expect(result.calls.w0?.status).toBe("failed");
    expect(result.state.acc).toEqual(["w1", "w2"]);
  });
});
