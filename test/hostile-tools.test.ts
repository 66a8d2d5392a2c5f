import { createEngine, createMemoryStore, type Engine, type StateStore } from "obelisk";
import { createSqliteStore } from "obelisk/sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { ManualTimers, signal } from "./support/manual-timers.js";
import { pollutionSigns } from "./support/prototype-guard.js";

const stores: [string, () => StateStore][] = [
  ["memory", () => createMemoryStore()],
  ["sqlite", () => createSqliteStore(":memory:")],
];

const THROWN: [string, () => unknown][] = [
  ["a string", () => "plain string"],
  ["null", () => null],
  ["undefined", () => undefined],
  ["a number", () => 42],
  ["an object", () => ({ code: "E_CUSTOM", message: 5, data: { deep: [1] } })],
  ["a symbol", () => Symbol("s")],
  [
    "an object whose getters throw",
    () => ({
      get message(): string {
        throw new Error("getter");
      },
      get code(): string {
        throw new Error("getter");
      },
    }),
  ],
  [
    "an Error with a cyclic cause",
    () => {
      const error = new Error("cyclic") as Error & { cause?: unknown };
      error.cause = error;
      return error;
    },
  ],
];

const cyclic = (): unknown => {
  const value: Record<string, unknown> = { a: 1 };
  value.self = value;
  return value;
};
const NOT_JSON: [string, () => unknown][] = [
  ["a function", () => () => 1],
  ["a nested function", () => ({ ok: true, f: () => 1 })],
  ["a cycle", cyclic],
  ["a BigInt", () => 10n],
  ["a nested BigInt", () => ({ n: [1n] })],
  ["NaN", () => Number.NaN],
  ["Infinity", () => ({ x: Number.POSITIVE_INFINITY })],
  ["a Date", () => new Date(0)],
  ["a Map", () => new Map([["a", 1]])],
  ["a symbol", () => Symbol("s")],
  ["undefined in an array", () => [1, undefined]],
  [
    "a throwing getter",
    () => ({
      get boom(): number {
        throw new Error("boom");
      },
    }),
  ],
];

function normalRun(engine: Engine, thread = "after") {
  return engine.run({ _tool: "ok", _outputPath: "†state.fine" }, { threadId: thread });
}

describe.each(stores)("hostile tools (%s)", (_name, makeStore) => {
  let engine: Engine | undefined;
  afterEach(async () => {
    expect(pollutionSigns()).toEqual([]);
    await engine?.close();
    engine = undefined;
  });

  const okTool = { name: "ok", input: { type: "object" }, run: () => ({ fine: true }) };

  it("a tool that never resolves: its timeout fires, the run ends, the engine stays usable", async () => {
    const timers = new ManualTimers();
    const started = signal();
    let aborted = false;
    engine = createEngine({
      store: makeStore(),
      timers,
      tools: [
        okTool,
        {
          name: "hang",
          input: { type: "object" },
          timeoutMs: 5_000,
          run: (_args: unknown, ctx: { signal: AbortSignal }) => {
            ctx.signal.addEventListener("abort", () => {
              aborted = true;
            });
            started.resolve();
            return new Promise(() => undefined);
          },
        },
      ] as never,
    });
    const running = engine.run({
      type: "plan",
      plan: [
        { _tool: "hang", _id: "h", _outputPath: "†state.never" },
        { _tool: "hang", _id: "h2", _timeoutMs: 10, _outputPath: "†state.alsoNever" },
        { _tool: "ok", _id: "sibling", _outputPath: "†state.sibling" },
      ],
    });
    await started.promise;
    while (timers.scheduled().length < 2) await new Promise((resolve) => setImmediate(resolve));
    expect(timers.scheduled().sort((a, b) => a - b)).toEqual([10, 5_000]);
    timers.fireAll();
    const result = await running;
    expect(aborted).toBe(true);
    expect(result.status).toBe("failed");
    expect(result.calls.h).toMatchObject({ status: "failed", error: { code: "TIMEOUT" } });
    expect(result.calls.h2).toMatchObject({ status: "failed", error: { code: "TIMEOUT" } });
    expect(result.calls.sibling?.status).toBe("succeeded");
    expect(result.state).toEqual({ sibling: { fine: true } });
    expect((await normalRun(engine)).status).toBe("succeeded");
  });

  it.each(THROWN)(
    "a tool that throws %s fails its call with a JSON error, nothing else breaks",
    async (_label, make) => {
      engine = createEngine({
        store: makeStore(),
        tools: [
          okTool,
          {
            name: "thrower",
            input: { type: "object" },
            run: () => {
              throw make();
            },
          },
        ] as never,
      });
      const result = await engine.run({
        type: "plan",
        plan: [
          { _tool: "thrower", _id: "t", _outputPath: "†state.t" },
          { _tool: "thrower", _id: "routed", _outputPath: "†state.good || †state.failure" },
          { _tool: "ok", _id: "sibling", _outputPath: "†state.sibling" },
        ],
      });
      expect(result.status).toBe("failed");
      expect(result.calls.t?.status).toBe("failed");
      expect(typeof result.calls.t?.error?.code).toBe("string");
      expect(typeof result.calls.t?.error?.message).toBe("string");
      expect(result.errors.map((error) => error.callId)).toEqual(["t"]);
      expect(result.calls.routed).toMatchObject({ status: "succeeded", branch: 1 });
      const failure = result.state.failure as Record<string, unknown>;
      expect(typeof failure.name).toBe("string");
      expect(typeof failure.message).toBe("string");
      expect(JSON.parse(JSON.stringify(result))).toEqual(result);
      expect(result.calls.sibling?.status).toBe("succeeded");
      expect((await normalRun(engine)).status).toBe("succeeded");
    },
  );

  it.each(NOT_JSON)(
    "a tool that returns %s fails with OUTPUT_NOT_JSON and writes nothing",
    async (_label, make) => {
      engine = createEngine({
        store: makeStore(),
        tools: [okTool, { name: "weird", input: { type: "object" }, run: () => make() }] as never,
      });
      const result = await engine.run({
        type: "plan",
        plan: [
          { _tool: "weird", _id: "w", _outputPath: "†state.w" },
          { _tool: "weird", _id: "stored" },
        ],
      });
      expect(result.calls.w).toMatchObject({ status: "failed", error: { code: "OUTPUT_NOT_JSON" } });
      expect(result.calls.stored).toMatchObject({ status: "failed", error: { code: "OUTPUT_NOT_JSON" } });
      expect(result.state).toEqual({});
      expect(await engine.store.listCallOutputIds("default" as never)).toEqual([]);
      expect((await normalRun(engine)).status).toBe("succeeded");
    },
  );

  it("a tool that mutates its input cannot change stored data or another call's input", async () => {
    const seen: unknown[] = [];
    engine = createEngine({
      store: makeStore(),
      tools: [
        okTool,
        {
          name: "mutator",
          input: { type: "object" },
          run: (args: { list: number[]; obj: Record<string, unknown> }) => {
            const attempts = [
              () => args.list.push(99),
              () => {
                args.obj.injected = true;
              },
              () => {
                (args as Record<string, unknown>).extra = 1;
              },
              () => {
                args.list[0] = -1;
              },
            ];
            let refused = 0;
            for (const attempt of attempts) {
              try {
                attempt();
              } catch {
                refused += 1;
              }
            }
            return { refused };
          },
        },
        {
          name: "reader",
          input: { type: "object" },
          run: (args: unknown) => {
            seen.push(JSON.parse(JSON.stringify(args)));
            return args;
          },
        },
      ] as never,
    });
    await engine.set("default", "†state.data", { list: [1, 2, 3], obj: { a: 1 } });
    const result = await engine.run({
      type: "plan",
      plan: [
        {
          _tool: "mutator",
          _id: "m",
          list: "†state.data.list",
          obj: "†state.data.obj",
          _outputPath: "†state.m",
        },
        { _tool: "mutator", _id: "m2", list: [5], obj: { literal: true }, _outputPath: "†state.m2" },
        { _tool: "reader", _id: "r", after: "†state.m", data: "†state.data" },
      ],
    });
    expect(result.status).toBe("succeeded");
    expect(result.state.data).toEqual({ list: [1, 2, 3], obj: { a: 1 } });
    expect(seen).toEqual([{ after: result.state.m, data: { list: [1, 2, 3], obj: { a: 1 } } }]);
    expect(await engine.store.readState("default" as never)).toMatchObject({
      data: { list: [1, 2, 3], obj: { a: 1 } },
    });
    const again = await engine.run({
      _tool: "mutator",
      _id: "m3",
      list: [5],
      obj: { literal: true },
      _outputPath: "†state.m3",
    });
    expect(again.status).toBe("succeeded");
  });

  it("a tool that returns more than maxValueBytes fails with OUTPUT_TOO_LARGE and writes nothing", async () => {
    engine = createEngine({
      store: makeStore(),
      limits: { maxValueBytes: 1024 * 1024 },
      tools: [
        okTool,
        { name: "big", input: { type: "object" }, run: () => ({ blob: "x".repeat(2 * 1024 * 1024) }) },
      ] as never,
    });
    const result = await engine.run({ _tool: "big", _id: "b", _outputPath: "†state.big" });
    expect(result.calls.b).toMatchObject({ status: "failed", error: { code: "OUTPUT_TOO_LARGE" } });
    expect(result.state).toEqual({});
    expect((await normalRun(engine)).status).toBe("succeeded");
  });
});

describe.each(stores)("hostile tools that break the runner (%s): known bugs B4, B5", (_name, makeStore) => {
  const revokedProxy = () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };
  const trapProxy = () =>
    new Proxy(
      {},
      {
        get() {
          throw new Error("trap");
        },
        ownKeys() {
          throw new Error("trap");
        },
      },
    );
  const thenGetter = () =>
    Object.defineProperty({}, ["th", "en"].join(""), {
      enumerable: true,
      get(): unknown {
        throw new Error("then");
      },
    });
  const tools = [
    { name: "ok", input: { type: "object" }, run: () => ({ fine: true }) },
    {
      name: "throwsRevoked",
      input: { type: "object" },
      run: () => {
        throw revokedProxy();
      },
    },
    { name: "returnsTrap", input: { type: "object" }, run: () => trapProxy() },
    { name: "returnsThenGetter", input: { type: "object" }, run: () => thenGetter() },
  ];

  // B4 — packages/scheduler/src/event-hub.ts, toRecordedError: `error instanceof Error` throws on a revoked
  // Proxy, so a tool that throws one rejects the whole run with STORE_ERROR instead of failing its call
  // (TOOL_ERROR). Expected: the call fails, siblings run, the run resolves with status "failed".
  it("B4: a tool that throws a revoked proxy fails only its call", async () => {
    const engine = createEngine({ store: makeStore(), tools: tools as never });
    const result = await engine.run({
      type: "plan",
      plan: [
        { _tool: "throwsRevoked", _id: "t" },
        { _tool: "ok", _id: "s" },
      ],
    });
    expect(result.calls.t?.status).toBe("failed");
    expect(result.calls.s?.status).toBe("succeeded");
  });

  // B5 — packages/scheduler/src/invoke-tool.ts, isThenable (called from attempt): reads `.then` of the value
  // a tool returned outside any try, so a Proxy whose get trap throws (or an object with a throwing `then`
  // getter) rejects the whole run with STORE_ERROR. Expected: the call fails with OUTPUT_NOT_JSON.
  it.each([
    ["a proxy whose traps throw", "returnsTrap"],
    ["a throwing then getter", "returnsThenGetter"],
  ])("B5: a tool that returns %s fails only its call with OUTPUT_NOT_JSON", async (_label, tool) => {
    const engine = createEngine({ store: makeStore(), tools: tools as never });
    const result = await engine.run({
      type: "plan",
      plan: [
        { _tool: tool, _id: "t" },
        { _tool: "ok", _id: "s" },
      ],
    });
    expect(result.calls.t).toMatchObject({ status: "failed", error: { code: "OUTPUT_NOT_JSON" } });
  });

  it("after B4/B5 the run is recorded as failed, the lock is released and the engine stays usable", async () => {
    const engine = createEngine({ store: makeStore(), tools: tools as never });
    for (const tool of ["throwsRevoked", "returnsTrap", "returnsThenGetter"]) {
      await engine.run({ _tool: tool }).then(
        (result) => expect(result.status).toBe("failed"),
        (error: { code?: string }) => expect(typeof error.code).toBe("string"),
      );
    }
    const runs = await engine.runs.list();
    expect(runs.map((run) => run.status)).toEqual(["failed", "failed", "failed"]);
    expect((await engine.run({ _tool: "ok", _outputPath: "†state.fine" })).status).toBe("succeeded");
    expect(pollutionSigns()).toEqual([]);
    await engine.close();
  });
});

describe("a 50 MB tool output with the default limits (64 MiB per value)", () => {
  it("is stored, summarized with a bounded preview, paged on read, and the engine stays usable", async () => {
    const size = 50 * 1024 * 1024;
    const engine = createEngine({
      tools: [
        { name: "ok", input: { type: "object" }, run: () => ({ fine: true }) },
        { name: "huge", input: { type: "object" }, run: () => "y".repeat(size) },
      ] as never,
    });
    const result = await engine.run({ _tool: "huge", _id: "h", _outputPath: "†state.huge" });
    expect(result.calls.h?.status).toBe("succeeded");
    expect((result.state.huge as string).length).toBe(size);
    const summary = await engine.summarize("default", { format: "json" });
    expect(JSON.stringify(summary).length).toBeLessThan(10_000);
    const page = await engine.get("default", "†state.huge", { offset: 10, limit: 5 });
    expect(page).toMatchObject({ found: true, total: size });
    expect((await engine.run({ _tool: "ok", _outputPath: "†state.fine" })).status).toBe("succeeded");
    await engine.close();
  });
});
