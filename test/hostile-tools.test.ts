import { branch, createEngine, createMemoryStore, type Engine, type StateStore } from "obelisk";
import { createSqliteStore } from "obelisk/sqlite";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ManualTimers, scheduledTimers, signal } from "./support/manual-timers.js";
import { pollutionSigns } from "./support/prototype-guard.js";

/** The clock of the engines whose timeouts only manual timers fire. */
const STILL_NOW = Date.parse("2026-01-01T00:00:00Z");

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
      // A still clock: the attempt also checks its timeout by the clock when the tool returns, and on a
      // loaded machine the 10 ms of h2 could pass before its timer is set (then no timer, and this test
      // waited for one forever).
      now: () => STILL_NOW,
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
    expect((await scheduledTimers(timers, 2)).sort((a, b) => a - b)).toEqual([10, 5_000]);
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

/** An object with a `then` method (built with a computed key: the linter rightly flags literal thenables). */
function thenable(then: (resolve: (value: unknown) => void) => void): object {
  return { [["th", "en"].join("")]: then };
}

describe.each(stores)("more hostile outputs (%s)", (_name, makeStore) => {
  let engine: Engine | undefined;
  afterEach(async () => {
    expect(pollutionSigns()).toEqual([]);
    await engine?.close();
    engine = undefined;
  });
  const okTool = { name: "ok", input: { type: "object" }, run: () => ({ fine: true }) };

  let deep: unknown = "leaf";
  for (let level = 0; level < 200_000; level += 1) deep = level % 2 === 0 ? [deep] : { d: deep };
  const REFUSED: [string, () => unknown, string?][] = [
    ["an object with toJSON", () => ({ toJSON: () => "looks fine" })],
    ["a nested toJSON", () => ({ a: { toJSON: () => 1 } })],
    [
      "a sparse array",
      () => {
        const holes: number[] = new Array(3);
        holes[0] = 1;
        holes[2] = 3;
        return holes;
      },
    ],
    [
      "a class instance",
      () =>
        new (class Point {
          x = 1;
        })(),
    ],
    ["a boxed string", () => Object("s")],
    ["a typed array", () => new Uint8Array(2)],
    ["an Error", () => new Error("returned, not thrown")],
    // JSON, but deeper than a stored value may nest: the write's code, as at 1,000 levels (decision 0113)
    ["200,000 levels of nesting", () => deep, "OUTPUT_WRITE_FAILED"],
  ];
  it.each(REFUSED)(
    "%s: refused (OUTPUT_NOT_JSON; too deep: OUTPUT_WRITE_FAILED), nothing written, no stack overflow",
    async (_label, make, code = "OUTPUT_NOT_JSON") => {
      engine = createEngine({
        store: makeStore(),
        tools: [okTool, { name: "weird", input: { type: "object" }, run: () => make() }] as never,
      });
      const result = await engine.run({
        type: "plan",
        plan: [
          { _tool: "weird", _id: "w", _outputPath: "†state.w" },
          { _tool: "weird", _id: "stored", n: 1 },
        ],
      });
      expect(result.calls.w).toMatchObject({ status: "failed", error: { code } });
      expect(result.calls.stored).toMatchObject({ status: "failed", error: { code } });
      expect(result.state).toEqual({});
      expect(await engine.store.listCallOutputIds("default" as never)).toEqual([]);
      expect((await normalRun(engine)).status).toBe("succeeded");
    },
  );

  const ACCEPTED: [string, () => unknown, unknown][] = [
    ["-0 (JSON has no -0: stored as 0)", () => ({ z: -0 }), { z: 0 }],
    [
      "getters (read once, stored as data)",
      () => ({
        get a() {
          return 1;
        },
      }),
      { a: 1 },
    ],
    ["a transparent Proxy", () => new Proxy({ a: [1, 2] }, {}), { a: [1, 2] }],
    ["a null-prototype object", () => Object.assign(Object.create(null), { a: 1 }), { a: 1 }],
    [
      "symbol keys and non-enumerable properties (dropped)",
      () => Object.defineProperty({ a: 1, [Symbol("s")]: 2 }, "hidden", { value: 3, enumerable: false }),
      { a: 1 },
    ],
    ["a thenable resolving to data", () => thenable((resolve) => resolve({ a: 1 })), { a: 1 }],
  ];
  it.each(ACCEPTED)("%s: the stored value is plain JSON data", async (_label, make, expected) => {
    engine = createEngine({
      store: makeStore(),
      tools: [okTool, { name: "odd", input: { type: "object" }, run: () => make() }] as never,
    });
    const result = await engine.run({ _tool: "odd", _id: "o", _outputPath: "†state.o" });
    expect(result.calls.o?.status).toBe("succeeded");
    const stored = (await engine.store.readState("default" as never)) as Record<string, unknown>;
    expect(JSON.stringify(stored.o)).toBe(JSON.stringify(expected));
    expect(Object.getPrototypeOf(stored.o)).toBe(Object.prototype);
  });

  it("a tool that changes its output after returning it cannot change what was stored", async () => {
    const held: { list: number[]; nested: { v: string } }[] = [];
    let later: () => void = () => undefined;
    const changed = new Promise<void>((resolve) => {
      later = resolve;
    });
    engine = createEngine({
      store: makeStore(),
      tools: [
        okTool,
        {
          name: "sneaky",
          input: { type: "object" },
          run: () => {
            const value = { list: [1, 2], nested: { v: "original" } };
            held.push(value);
            return value;
          },
        },
        {
          name: "reader",
          input: { type: "object" },
          run: async (args: unknown) => {
            for (const value of held) {
              try {
                value.list.push(99);
                value.nested.v = "changed";
              } catch {
                // a frozen value refuses the change: as good as a copy
              }
            }
            later();
            return args;
          },
        },
      ] as never,
    });
    const result = await engine.run({
      type: "plan",
      plan: [
        { _tool: "sneaky", _id: "s", _outputPath: "†state.s" },
        { _tool: "sneaky", _id: "c", n: 1 },
        { _tool: "reader", _id: "r", after: "†state.s", _outputPath: "†state.r" },
        {
          _tool: "reader",
          _id: "r2",
          after: "†calls.c && †state.r",
          v: "†calls.c",
          _outputPath: "†state.r2",
        },
      ],
    });
    await changed;
    expect(result.status).toBe("succeeded");
    const original = { list: [1, 2], nested: { v: "original" } };
    expect(result.state.s).toEqual(original);
    expect((await engine.store.readState("default" as never)).s).toEqual(original);
    expect(await engine.get("default", "†calls.c")).toMatchObject({ value: original });
    expect((result.state.r2 as { v: unknown }).v).toEqual(original);
  });

  it("a thenable that never settles times out like a never-resolving promise (manual timers)", async () => {
    const timers = new ManualTimers();
    engine = createEngine({
      store: makeStore(),
      timers,
      now: () => STILL_NOW,
      tools: [
        okTool,
        {
          name: "stuck",
          input: { type: "object" },
          timeoutMs: 1_000,
          run: () => thenable(() => undefined),
        },
      ] as never,
    });
    const running = engine.run({ _tool: "stuck", _id: "s", _outputPath: "†state.s" });
    expect(await scheduledTimers(timers, 1)).toEqual([1_000]);
    timers.fireAll();
    const result = await running;
    expect(result.calls.s).toMatchObject({ status: "failed", error: { code: "TIMEOUT" } });
    expect((await normalRun(engine)).status).toBe("succeeded");
  });

  it("1,000 alternatives and 1,000 fan-out targets: the chosen one (and only it) is written", async () => {
    engine = createEngine({
      store: makeStore(),
      tools: [
        okTool,
        {
          name: "chooser",
          input: { type: "object", properties: { pick: { type: "number" } } },
          run: (args: { pick: number }) => branch(args.pick, { picked: args.pick }),
        },
      ] as never,
    });
    const alternatives = Array.from({ length: 1_000 }, (_, i) => `†state.alt.a${i}`).join(" || ");
    const targets = Array.from({ length: 1_000 }, (_, i) => `†state.fan.f${i}`).join(" && ");
    const result = await engine.run({
      type: "plan",
      plan: [
        { _tool: "chooser", _id: "c", pick: 998, _outputPath: alternatives },
        { _tool: "chooser", _id: "f", pick: 0, _outputPath: targets },
        { _tool: "ok", _id: "after", v: "†state.alt.a998", _outputPath: "†state.after" },
      ],
    });
    expect(result.status).toBe("succeeded");
    expect(result.calls.c).toMatchObject({ status: "succeeded", branch: 998 });
    expect(result.state.alt).toEqual({ a998: { picked: 998 } });
    expect(Object.keys(result.state.fan as object)).toHaveLength(1_000);
    expect(result.calls.after?.status).toBe("succeeded");
  });
});

describe.each(stores)("timeouts beyond what a platform timer can hold (%s)", (_name, makeStore) => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Runs a call that waits for the test, with fake timers advanced by a minute: how it ended. */
  async function outcomeOf(meta: Record<string, unknown>, toolTimeout: number | undefined): Promise<string> {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const gate = signal();
    let aborted = false;
    const engine = createEngine({
      store: makeStore(),
      tools: [
        {
          name: "slow",
          input: { type: "object" },
          ...(toolTimeout === undefined ? {} : { timeoutMs: toolTimeout }),
          run: async (_args: unknown, ctx: { signal: AbortSignal }) => {
            ctx.signal.addEventListener("abort", () => {
              aborted = true;
            });
            await gate.promise;
            return "done";
          },
        },
      ] as never,
    });
    let outcome: string;
    try {
      const running = engine.run({ _tool: "slow", _id: "s", ...meta, _outputPath: "†state.s" });
      running.catch(() => undefined); // (a refusal is awaited below, after the timers advanced)
      await vi.advanceTimersByTimeAsync(60_000);
      gate.resolve();
      const result = await running;
      outcome = aborted ? "timed out" : (result.calls.s?.status ?? "missing");
    } catch (error) {
      expect(error).toMatchObject({
        code: "PLAN_INVALID",
        data: { diagnostics: expect.arrayContaining([expect.objectContaining({ pointer: "/_timeoutMs" })]) },
      });
      outcome = "refused";
    }
    await engine.close();
    return outcome;
  }

  it("control: the largest timeout a timer can hold (2^31 − 1 ms) lets a one-minute call finish", async () => {
    expect(await outcomeOf({ _timeoutMs: 2 ** 31 - 1 }, undefined)).toBe("succeeded");
  });

  // B11 (fixed) — packages/scheduler (attempt timeout): `_timeoutMs` (and a tool's `timeoutMs`) was handed
  // to setTimeout as is. Node (and fake timers, which copy it) turn any delay above 2^31 − 1 ms (~24.8 days)
  // into 1 ms with a TimeoutOverflowWarning, so `_timeoutMs: 2147483648` or `1e300` — "practically never" —
  // made every call that takes more than 1 ms fail with TIMEOUT at once. Now the compiler refuses such a
  // `_timeoutMs` (CALL_SHAPE at /_timeoutMs) and a tool's longer `timeoutMs` means no timer.
  it.each([
    ["_timeoutMs: 2 ** 31", { _timeoutMs: 2 ** 31 }, undefined, "refused"],
    ["_timeoutMs: 1e300", { _timeoutMs: 1e300 }, undefined, "refused"],
    ["a tool's timeoutMs: 2 ** 31", {}, 2 ** 31, "succeeded"],
    ["a tool's timeoutMs: 1e300", {}, 1e300, "succeeded"],
  ])("B11: %s does not time the call out after 1 ms", async (_label, meta, toolTimeout, expected) => {
    expect(await outcomeOf(meta, toolTimeout)).toBe(expected);
  });
});
