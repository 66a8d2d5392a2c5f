import { branch, compile, createToolRegistry, type ToolRegistry } from "@obelisk/compiler";
import { asRunId, asThreadId } from "@obelisk/core";
import { createMemoryStore } from "@obelisk/state";
import { describe, expect, it } from "vitest";
import { flush } from "./__fixtures__/deferred.js";
import { toRecordedError } from "./event-hub.js";
import { executePlan } from "./execute-plan.js";
import type { ExecutionResult } from "./runner-types.js";

/**
 * Compiles and runs `plan`; an error diagnostic not in `allowed` fails the test. An allowed one is ignored:
 * the plan runs as if the compiler had missed it (the scheduler's own checks are the safety net).
 */
async function run(
  registry: ToolRegistry,
  plan: unknown,
  allowed: readonly string[] = [],
): Promise<ExecutionResult> {
  const checked = compile(plan, registry);
  const errors = checked.diagnostics.filter((d) => d.severity === "error" && !allowed.includes(d.code));
  if (errors.length > 0) throw new Error(JSON.stringify(errors));
  const compiled = checked.ok ? checked : { ...checked, ok: true, diagnostics: [] };
  const store = createMemoryStore();
  const threadId = asThreadId("t");
  await store.openThread(threadId);
  return executePlan(compiled, {
    registry,
    store,
    threadId,
    runId: asRunId("r"),
    planHash: compiled.planHash,
    input: { x: 1 },
    state: {},
  });
}

const statusOf = (result: ExecutionResult) =>
  Object.fromEntries(result.calls.map((c) => [c.callId, [c.status, c.error?.code]]));

describe("hostile values", () => {
  it("B2: a __proto__ key in a plan literal reaches the tool as own data with a plain prototype", async () => {
    const seen: unknown[] = [];
    const registry = createToolRegistry([
      {
        name: "probe",
        run: (args: Record<string, unknown>) => {
          const v = args.v as Record<string, unknown>;
          seen.push(Object.getPrototypeOf(v) === Object.prototype, Object.hasOwn(v, "__proto__"), v.polluted);
          return args;
        },
      },
    ]);
    const plan = JSON.parse(
      '{"type":"plan","plan":[{"_tool":"probe","_id":"p","v":{"__proto__":{"polluted":1},"r":"†input.x"},"_outputPath":"†state.out"}]}',
    );
    const result = await run(registry, plan);
    expect(statusOf(result)).toEqual({ p: ["succeeded", undefined] });
    expect(seen).toEqual([true, true, undefined]);
    const out = (result.state.out as Record<string, Record<string, unknown>>).v as Record<string, unknown>;
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
    expect(out.r).toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("B2: a reference under a __proto__ key is set as own data", async () => {
    let received: Record<string, unknown> | undefined;
    const registry = createToolRegistry([
      {
        name: "probe",
        run: (args: Record<string, unknown>) => {
          received = args;
        },
      },
    ]);
    const plan = JSON.parse(
      '{"type":"plan","plan":[{"_tool":"probe","_id":"p","v":{"__proto__":"†input.x"}}]}',
    );
    const result = await run(registry, plan);
    expect(statusOf(result)).toEqual({ p: ["succeeded", undefined] });
    const v = received?.v as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(v, "__proto__")?.value).toBe(1);
  });

  it("B4: a thrown revoked proxy fails only its call with TOOL_ERROR", async () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const registry = createToolRegistry([
      {
        name: "bad",
        run: () => {
          throw proxy;
        },
      },
      { name: "ok", run: () => 1 },
    ]);
    const result = await run(registry, {
      type: "plan",
      plan: [
        { _tool: "bad", _id: "b" },
        { _tool: "ok", _id: "o", _outputPath: "†state.o" },
      ],
    });
    expect(result.status).toBe("failed");
    expect(statusOf(result)).toEqual({ b: ["failed", "TOOL_ERROR"], o: ["succeeded", undefined] });
  });

  it("B4: toRecordedError never throws", () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const toStringThrows = {
      toString() {
        throw new Error("no");
      },
    };
    expect(toRecordedError(proxy, "TOOL_ERROR")).toEqual({
      name: "Error",
      message: "a value that cannot be inspected was thrown",
      code: "TOOL_ERROR",
    });
    expect(toRecordedError(toStringThrows).name).toBe("Error");
  });

  it("a thrown plain object keeps its name, message, code and data; other thrown values are described", () => {
    const sdkError = { name: "ApiError", message: "rate limited", code: "E_RATE", data: { retryAfter: 3 } };
    expect(toRecordedError(sdkError, "TOOL_ERROR")).toEqual(sdkError);
    expect(toRecordedError({ message: "no code" }, "TOOL_ERROR")).toEqual({
      name: "Error",
      message: "no code",
      code: "TOOL_ERROR",
    });
    // numeric codes (JSON-RPC, HTTP) are kept as text, so a failure branch can tell a 404 from a 500
    expect(toRecordedError({ code: -32600, message: "Invalid Request" }, "TOOL_ERROR").code).toBe("-32600");
    expect(toRecordedError(Object.assign(new Error("Not found"), { code: 404 }), "TOOL_ERROR").code).toBe(
      "404",
    );
    expect(toRecordedError({ code: Number.NaN, message: "odd" }, "TOOL_ERROR").code).toBe("TOOL_ERROR");
    expect(toRecordedError({ status: 429 }).message).toBe('a non-error value was thrown: {"status":429}');
    expect(toRecordedError(branch(1, "x")).message).toBe(
      "the tool threw a branch() result: return it to choose an alternative",
    );
    const long = toRecordedError({ text: `${"a".repeat(190)}😀😀` }).message;
    expect(long.endsWith("a…")).toBe(true); // the emoji that straddles the cut is left out whole
    expect(toRecordedError({ big: "x".repeat(10_000), code: 7 }).message).toBe(
      'a non-error object was thrown (not JSON, or too large to show) with keys "big", "code"',
    );
    expect(toRecordedError("plain text")).toEqual({ name: "Error", message: "plain text" });
    const oddKeys = toRecordedError({
      [`${"k".repeat(39)}😀`]: 1,
      "a\nb": 2,
      big: "x".repeat(5_000),
    }).message;
    expect(oddKeys).toContain(`with keys "${"k".repeat(39)}…", "a\\nb", "big"`);
    expect(toRecordedError(Array(5_000).fill("xx")).message).toContain("(an array of 5000 items)");
  });

  it.each([
    [
      "a proxy whose get trap throws",
      () =>
        new Proxy(
          {},
          {
            get: () => {
              throw new Error("trap");
            },
          },
        ),
    ],
    [
      "an object whose then getter throws",
      () => ({
        // biome-ignore lint/suspicious/noThenProperty: the hostile value under test
        get then(): unknown {
          throw new Error("then");
        },
      }),
    ],
  ])("B5: a tool returning %s fails only its call with OUTPUT_NOT_JSON", async (_label, make) => {
    const registry = createToolRegistry([
      { name: "bad", run: make },
      { name: "ok", run: () => 1 },
    ]);
    const result = await run(registry, {
      type: "plan",
      plan: [
        { _tool: "bad", _id: "b", _outputPath: "†state.b || †state.failed" },
        { _tool: "ok", _id: "o", _outputPath: "†state.o" },
      ],
    });
    expect(statusOf(result)).toEqual({ b: ["failed", "OUTPUT_NOT_JSON"], o: ["succeeded", undefined] });
    expect(result.state).toEqual({ o: 1 });
  });

  it("B3: more than 10 calls in flight print no MaxListenersExceededWarning", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    const release: (() => void)[] = [];
    const registry = createToolRegistry([
      { name: "slow", run: () => new Promise<number>((resolve) => release.push(() => resolve(1))) },
    ]);
    const plan = {
      type: "plan",
      plan: Array.from({ length: 20 }, (_, i) => ({ _tool: "slow", _id: `s${i}` })),
    };
    const pending = run(registry, plan);
    await flush();
    expect(release.length).toBe(20);
    for (const done of release) done();
    const result = await pending;
    await new Promise((resolve) => setImmediate(resolve));
    process.off("warning", onWarning);
    expect(result.status).toBe("succeeded");
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });

  it("an accumulating writer reading a target of a later writer of its path ends the run instead of hanging", async () => {
    const registry = createToolRegistry([{ name: "acc", run: () => 1 }]);
    // The compiler refuses this plan (CYCLE a → b → a, decision 0019); run anyway, the stall check is the
    // safety net.
    const plan = {
      type: "plan",
      plan: [
        { _tool: "acc", _id: "a", y: "†state.y", _outputPath: "†state.log", _outputMethod: "push" },
        { _tool: "acc", _id: "b", _outputPath: "†state.log && †state.y", _outputMethod: "push" },
        { _tool: "acc", _id: "c", _outputPath: "†state.log", _outputMethod: "push" },
      ],
    };
    expect(compile(plan, registry).diagnostics.map((d) => [d.code, d.related])).toEqual([
      ["CYCLE", ["a", "b"]],
    ]);
    const result = await run(registry, plan, ["CYCLE"]);
    expect(statusOf(result)).toEqual({
      a: ["blocked", undefined],
      b: ["failed", "OUTPUT_WRITE_FAILED"],
      c: ["succeeded", undefined],
    });
    expect(result.state).toEqual({ log: [1] });
  });
});
