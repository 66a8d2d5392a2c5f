import { describe, expect, it } from "vitest";
import { codeOf, thrownCode } from "./__fixtures__/error-codes.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type EngineOptions, ObeliskError } from "./index.js";

const val = { name: "val", input: { type: "object", properties: { v: {} } }, run: (args: unknown) => args };
const plan = [{ _tool: "val", v: 1, _outputPath: "†state.x" }];

describe("createEngine refuses options that would silently mean something else (USAGE)", () => {
  it.each<[string, Record<string, unknown>]>([
    ["concurrency 0", { concurrency: 0 }],
    ["concurrency -1", { concurrency: -1 }],
    ["concurrency NaN", { concurrency: Number.NaN }],
    ["concurrency 1.5", { concurrency: 1.5 }],
    ["concurrency '2'", { concurrency: "2" }],
    ["limit NaN", { limits: { maxCalls: Number.NaN } }],
    ["limit '3'", { limits: { maxDepth: "3" } }],
    ["limit 0", { limits: { maxCalls: 0 } }],
    ["limit -1", { limits: { maxCalls: -1 } }],
    ["unknown limit", { limits: { maxCall: 2 } }],
    ["limits not an object", { limits: 5 }],
    ["maxPathDepth past the depth a value may nest", { limits: { maxPathDepth: 1_001 } }],
    ["maxPathDepth Infinity", { limits: { maxPathDepth: Number.POSITIVE_INFINITY } }],
    ["lockWaitMs -1", { lockWaitMs: -1 }],
    ["lockWaitMs NaN", { lockWaitMs: Number.NaN }],
    ["lockWaitMs past a timer's range", { lockWaitMs: 1e12 }],
    ["stateSchema false", { stateSchema: false }],
    ["stateSchema true", { stateSchema: true }],
    ["stateSchema an array", { stateSchema: [] }],
    ["retention maxVariables NaN", { retention: { maxVariables: Number.NaN } }],
    ["retention maxVariables -1", { retention: { maxVariables: -1 } }],
    ["unknown retention field", { retention: { maxVariable: 2 } }],
    ["now not a function", { now: 5 }],
    ["generateId not a function", { generateId: "id" }],
    ["failFast not a boolean", { failFast: "yes" }],
  ])("%s", (_label, options) => {
    expect(thrownCode(() => createEngine({ tools: [val], ...options } as EngineOptions))).toBe("USAGE");
  });

  it("an unknown limit or retention field names the nearest one as hint, as unknown options do", () => {
    const refusal = (options: Record<string, unknown>) => {
      try {
        createEngine({ tools: [val], ...options } as EngineOptions);
      } catch (error) {
        return error;
      }
      throw new Error("accepted");
    };
    expect(refusal({ limits: { maxcalls: 2 } })).toMatchObject({
      code: "USAGE",
      message: expect.stringMatching(
        /^createEngine: unknown limit "maxcalls" \(limits: maxDocumentBytes, maxCalls, /,
      ),
      hint: 'did you mean "maxCalls"?',
    });
    expect(refusal({ retention: { maxVariable: 2 } })).toMatchObject({
      message: expect.stringContaining('unknown retention field "maxVariable" (fields: maxVariables, '),
      hint: 'did you mean "maxVariables"?',
    });
    // nothing near: the message's list is the help, and there is no hint
    expect(refusal({ limits: { zzzzzzzzzzzz: 2 } })).toMatchObject({ hint: undefined });
  });

  it("options that are not an object", () => {
    expect(thrownCode(() => createEngine(undefined as unknown as EngineOptions))).toBe("USAGE");
  });

  it.each<[string, Partial<EngineOptions>]>([
    ["concurrency 1", { concurrency: 1 }],
    ["concurrency Infinity", { concurrency: Number.POSITIVE_INFINITY }],
    ["limits given", { limits: { maxCalls: 5, maxValueBytes: Number.POSITIVE_INFINITY } }],
    ["maxPathDepth at the depth a value may nest", { limits: { maxPathDepth: 1_000 } }],
    ["lockWaitMs 0", { lockWaitMs: 0 }],
    ["retention Infinity and 0", { retention: { maxVariables: Number.POSITIVE_INFINITY, maxAgeMs: 0 } }],
    ["stateSchema {}", { stateSchema: {} }],
  ])("accepts %s and runs", async (_label, options) => {
    const engine = createEngine({ tools: [val], ...options });
    expect((await engine.run(plan)).status).toBe("succeeded");
  });
});

describe("injected clock and id generator", () => {
  it("a clock answering NaN makes the run fail with USAGE, not a RangeError", async () => {
    const engine = createEngine({ tools: [val], now: () => Number.NaN });
    expect(await codeOf(() => engine.run(plan))).toBe("USAGE");
  });

  it.each<[string, unknown, string]>([
    ["NaN", Number.NaN, "NaN"],
    ["Infinity", Number.POSITIVE_INFINITY, "Infinity"],
    ["a time before the epoch", -1, "-1"],
    ["a string", "1", '"1"'],
  ])(
    "a clock answering %s: USAGE at that reading naming now(), what it must answer, and a hint; nothing run (decision 0061)",
    async (_label, reading, shown) => {
      let ran = 0;
      const engine = createEngine({ tools: [{ ...val, run: () => ++ran }], now: () => reading as number });
      const error = await engine.run(plan).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(ObeliskError.is(error, "USAGE")).toBe(true);
      expect((error as ObeliskError).message).toBe(
        `the engine's now() must return ms since the epoch (a number from 0 to 8640000000000000, as Date.now() answers), got ${shown}`,
      );
      expect((error as ObeliskError).hint).toMatch(/now: \(\) => Date\.now\(\)/);
      expect(ran).toBe(0);
    },
  );

  it("a clock going backwards is read as it is: the run succeeds, its durations are never negative (decision 0061)", async () => {
    let now = Date.parse("2026-11-27T10:00:00Z");
    const engine = createEngine({ tools: [val], now: () => (now -= 60_000) });
    const result = await engine.run(plan);
    expect(result.status).toBe("succeeded");
    expect(result.durationMs).toBe(0);
    expect(Object.values(result.calls).map((call) => call.durationMs)).toEqual([0]);
  });

  it("injected timers that throw fail the run with USAGE naming the function, not STORE_ERROR", async () => {
    const hang = {
      name: "hang",
      input: { type: "object" },
      timeoutMs: 100,
      run: () => new Promise(() => {}),
    };
    const fast = { name: "fast", input: { type: "object" }, timeoutMs: 100, run: async () => 1 };
    const broken = (name: "setTimeout" | "clearTimeout") => ({
      setTimeout:
        name === "setTimeout"
          ? () => {
              throw new Error("timer broke");
            }
          : () => 1,
      clearTimeout:
        name === "clearTimeout"
          ? () => {
              throw new Error("timer broke");
            }
          : () => {},
    });
    for (const [name, tool] of [
      ["setTimeout", hang],
      ["clearTimeout", fast],
    ] as const) {
      const engine = createEngine({ tools: [tool], timers: broken(name) });
      const message = `the engine's timers.${name} threw: timer broke`;
      await expect(engine.run([{ _tool: tool.name }], { threadId: name })).rejects.toMatchObject({
        code: "USAGE",
        message,
      });
      const [record] = await engine.runs.list();
      expect(record).toMatchObject({ status: "failed", reason: `USAGE: ${message}` });
    }
  });

  it("an id generator answering an empty string or a number makes the run fail with USAGE", async () => {
    const empty = createEngine({ tools: [val], generateId: () => "" });
    expect(await codeOf(() => empty.run(plan))).toBe("USAGE");
    const numeric = createEngine({ tools: [val], generateId: () => 7 as unknown as string });
    expect(await codeOf(() => numeric.open())).toBe("USAGE");
  });

  it.each(storeKinds())(
    "a repeated run id never overwrites another run's record ($name store)",
    async (kind) => {
      const engine = createEngine({ tools: [val], store: kind.open(), generateId: () => "same" });
      try {
        const first = await engine.open({ threadId: "a" });
        first.add({ _tool: "val", v: 1, _outputPath: "†state.x" });
        expect((await first.close()).status).toBe("succeeded");
        expect(await codeOf(() => engine.open({ threadId: "b" }))).toBe("USAGE");
        expect((await engine.runs.list()).map((run) => [run.runId, run.threadId, run.status])).toEqual([
          ["same", "a", "succeeded"],
        ]);
        // the refused open released its lock
        expect(await codeOf(() => engine.open({ threadId: "b" }))).toBe("USAGE");
        expect(await codeOf(() => engine.run(plan, { threadId: "c" }))).toBe("USAGE");
        expect((await engine.runs.list()).map((run) => run.threadId)).toEqual(["a"]);
        expect(
          (await engine.run(plan, { threadId: "a" }).catch((error: unknown) => error)) as object,
        ).toMatchObject({
          code: "USAGE",
        });
      } finally {
        await engine.close();
        kind.cleanup();
      }
    },
  );
});

describe("host kinds", () => {
  const hostKind = { kind: "env", writable: false, engineManaged: false, description: "env" } as const;
  it("are read-only context: a writable, engine-managed, built-in or malformed kind is refused", () => {
    // the types take only false there; a JavaScript caller is refused at run time
    expect(
      thrownCode(() => createEngine({ tools: [val], kinds: [{ ...hostKind, writable: true } as never] })),
    ).toBe("USAGE");
    expect(
      thrownCode(() =>
        createEngine({ tools: [val], kinds: [{ ...hostKind, engineManaged: true } as never] }),
      ),
    ).toBe("USAGE");
    expect(thrownCode(() => createEngine({ tools: [val], kinds: [{ ...hostKind, kind: "state" }] }))).toBe(
      "USAGE",
    );
    expect(thrownCode(() => createEngine({ tools: [val], kinds: ["env"] as never }))).toBe("USAGE");
    expect(thrownCode(() => createEngine({ tools: [val], kinds: [hostKind] }))).toBeUndefined();
  });

  it("need only their name (stop 30 review: the type asked for fields only false may fill)", async () => {
    const engine = createEngine({ tools: [val], kinds: [{ kind: "user" }] });
    try {
      const result = await engine.run([{ _tool: "val", value: "†user.name", _outputPath: "†state.name" }], {
        context: { user: { name: "Ada" } },
      });
      expect(result.state).toEqual({ name: { value: "Ada" } });
    } finally {
      await engine.close();
    }
  });

  it("a run reads a frozen JSON copy of its context: the caller's object is neither frozen nor read later", async () => {
    const echo = { name: "echo", run: (args: unknown) => (args as { v: unknown }).v };
    const engine = createEngine({ tools: [echo], kinds: [hostKind] });
    const given = { env: { region: "eu" } };
    const plan = [{ _tool: "echo", _id: "e", v: "†env.region", _outputPath: "†state.region" }];
    const result = await engine.run(plan, { context: given });
    expect(result.state).toEqual({ region: "eu" });
    expect(Object.isFrozen(given.env)).toBe(false);
    expect((await engine.validate(plan, { context: given })).ok).toBe(true);
    expect(Object.isFrozen(given)).toBe(false);
  });

  it("the input and the context are held to the engine's limits.maxValueBytes, not the default", async () => {
    const engine = createEngine({ tools: [val], kinds: [hostKind], limits: { maxValueBytes: 1_000 } });
    const plan = [{ _tool: "val", _id: "v", _outputPath: "†state.v" }];
    const big = "x".repeat(2_000);
    for (const options of [
      { input: { big }, threadId: "t" },
      { input: { type: "input", input: { big } }, threadId: "t" },
      { context: { env: big }, threadId: "t" },
    ]) {
      for (const refused of [
        engine.run(plan, options),
        engine.validate(plan, options),
        engine.open(options),
      ]) {
        await expect(refused).rejects.toMatchObject({
          code: "USAGE",
          message: expect.stringContaining("limits.maxValueBytes"),
        });
      }
    }
    expect(await engine.runs.list({ threadId: "t" })).toEqual([]);
    // a too-large input is told to go by reference, not to be "a plain object" (it is one)
    await expect(engine.run(plan, { input: { big }, threadId: "t" })).rejects.toMatchObject({
      hint: expect.stringContaining("pass large data by reference"),
    });
    const small = { input: { small: "x" }, context: { env: "eu" }, threadId: "t" };
    expect((await engine.run(plan, small)).status).toBe("succeeded");
  });

  it.each([
    ["a Date", { env: new Date(0) }],
    ["NaN", { env: { n: Number.NaN } }],
    ["a function", { env: { f: () => 1 } }],
    ["an array", [1]],
    ["a string", "env"],
  ])("a context holding %s is USAGE before the thread is locked", async (_name, context) => {
    const engine = createEngine({ tools: [val], kinds: [hostKind] });
    const plan = [{ _tool: "val", _id: "v", _outputPath: "†state.v" }];
    const options = { context: context as never, threadId: "t" };
    await expect(engine.run(plan, options)).rejects.toMatchObject({ code: "USAGE" });
    await expect(engine.validate(plan, options)).rejects.toMatchObject({ code: "USAGE" });
    await expect(engine.open(options)).rejects.toMatchObject({ code: "USAGE" });
    expect(await engine.runs.list({ threadId: "t" })).toEqual([]);
  });
});
