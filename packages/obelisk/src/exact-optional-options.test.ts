/**
 * The repo's tsconfig has `exactOptionalPropertyTypes: true`, and this file is typechecked with it
 * (`tsc -p packages/obelisk/tsconfig.json` includes tests): every call below that passes an explicit
 * `undefined` to an optional option is the type-level assertion (it did not compile while the option was
 * declared `prop?: T`). The runtime assertions check that such a call behaves like the call without the key.
 */
import { describe, expect, it } from "vitest";
import {
  agentTools,
  createEngine,
  createMemoryStore,
  DEFAULT_LIMITS,
  defineTool,
  type EngineOptions,
  planJsonSchema,
  type RunOptions,
  strictPlanJsonSchema,
} from "./index.js";
import { createSqliteStore } from "./sqlite.js";

/** Values typed `T | undefined`, as a consumer's optional config gives them. */
const none = <T>(): T | undefined => undefined;

const echo = defineTool({
  name: "echo",
  description: none<string>(),
  input: none<{ type: "object" }>(),
  output: none<{ type: "string" }>(),
  outputPath: none<{ pattern: string }>(),
  outcomes: none<readonly string[]>(),
  concurrency: none<number>(),
  timeoutMs: none<number>(),
  retry: {
    attempts: none<number>(),
    backoffMs: none<number>(),
    factor: none<number>(),
    maxDelayMs: none<number>(),
    jitter: none<boolean>(),
    shouldRetry: none<() => boolean>(),
  },
  fresh: none<boolean>(),
  cost: none<number>(),
  approvalParams: none<readonly string[]>(),
  idempotent: none<boolean>(),
  latent: none<boolean>(),
  run: (args: Record<string, unknown>) => String(args.text),
});

const plan = { type: "plan", plan: [{ _tool: "echo", _id: "a", text: "hi", _outputPath: "†state.out" }] };

/** Every engine option, given as undefined. */
const undefinedEngineOptions = {
  implementations: none<EngineOptions["implementations"] & object>(),
  store: undefined,
  concurrency: none<number>(),
  limits: { maxCalls: none<number>(), maxValueBytes: none<number>() },
  confirm: undefined,
  failFast: none<boolean>(),
  kinds: undefined,
  retention: undefined,
  now: undefined,
  random: undefined,
  generateId: undefined,
  lockWaitMs: none<number>(),
  stateSchema: undefined,
  onEvent: undefined,
  timers: undefined,
} satisfies Omit<EngineOptions, "tools">;

/** Every run option, given as undefined (threadId aside). */
const undefinedRunOptions = {
  input: none<object>(),
  approvedHash: none<string>(),
  signal: none<AbortSignal>(),
  failFast: none<boolean>(),
  context: none<object>(),
  onEvent: undefined,
} satisfies RunOptions;

describe("exactOptionalPropertyTypes: an option given as undefined is an option left out", () => {
  it("createEngine, run, start, validate, open and resume take every option as undefined", async () => {
    const engine = createEngine({ tools: [echo], ...undefinedEngineOptions });
    expect(engine.limits).toEqual(DEFAULT_LIMITS);
    const validation = await engine.validate(plan, { threadId: "t", input: undefined, context: undefined });
    expect(validation.ok).toBe(true);
    const result = await engine.run(plan, { ...undefinedRunOptions, threadId: "t" });
    expect(result.status).toBe("succeeded");
    expect(result.state).toEqual({ out: "hi" });
    const started = engine.start(plan, { ...undefinedRunOptions, threadId: undefined });
    expect((await started.result).threadId).toBe("default");
    const stream = await engine.open({
      threadId: "s",
      input: undefined,
      signal: undefined,
      failFast: undefined,
      context: undefined,
      onEvent: undefined,
      inputSchema: undefined,
    });
    stream.add({ _tool: "echo", text: "streamed", _outputPath: "†state.streamed" });
    expect((await stream.close()).state).toEqual({ streamed: "streamed" });
    const resumed = await engine.resume(result.runId, {
      signal: undefined,
      failFast: undefined,
      context: undefined,
      onEvent: undefined,
    });
    expect(resumed.calls.a?.status).toBe("satisfied");
    await engine.close();
  });

  it("an approvedHash given as undefined approves nothing and refuses nothing", async () => {
    const engine = createEngine({ tools: [echo] });
    const maybeHash = none<string>();
    const result = await engine.run(plan, { approvedHash: maybeHash, threadId: "t" });
    expect(result.status).toBe("succeeded");
  });

  it("summarize, get, set, runs.list and runs.prune take their options as undefined", async () => {
    const engine = createEngine({ tools: [echo] });
    await engine.set("t", "†state.list", [1, 2, 3], { description: none<string>() });
    const summary = await engine.summarize("t", {
      lastN: undefined,
      refs: undefined,
      budgetChars: undefined,
      format: undefined,
    });
    expect(summary.text).toContain("†state.list");
    expect(await engine.get("t", "†state.list", { offset: undefined, limit: undefined })).toEqual({
      found: true,
      value: [1, 2, 3],
    });
    await engine.run(plan, { threadId: "t" });
    const runs = await engine.runs.list({
      threadId: undefined,
      limit: undefined,
      status: undefined,
      waiting: undefined,
      stale: undefined,
    });
    expect(runs).toHaveLength(1);
    const pruned = await engine.runs.prune({ threadId: undefined, keepLast: 0, olderThanMs: undefined });
    expect(pruned.runIds).toEqual([runs[0]?.runId]);
  });

  it("limits, retention fields and strict size limits given as undefined keep their defaults", async () => {
    const engine = createEngine({
      tools: [echo],
      limits: { maxCalls: undefined, maxPathDepth: undefined },
      // the store keeps 1 call output; an engine retention field left undefined must not lift that
      store: createMemoryStore({ retention: { maxCallOutputs: 1, maxCallOutputAgeMs: undefined } }),
      retention: { maxCallOutputs: undefined, maxVariables: undefined },
    });
    expect(engine.limits).toEqual(DEFAULT_LIMITS);
    await engine.run(
      {
        type: "plan",
        plan: [
          { _tool: "echo", text: "a" },
          { _tool: "echo", text: "b" },
        ],
      },
      { threadId: "t" },
    );
    expect(await engine.store.listCallOutputIds("t" as never)).toHaveLength(1);
    expect(planJsonSchema(engine.registry, { limits: { maxRetryAttempts: undefined } })).toEqual(
      planJsonSchema(engine.registry),
    );
    expect(
      strictPlanJsonSchema(engine.registry, {
        limits: undefined,
        sizeLimits: { maxProperties: undefined, maxObjectDepth: undefined },
      }).deviations,
    ).toEqual(strictPlanJsonSchema(engine.registry).deviations);
  });

  it("a tool's retry fields given as undefined are left out (no USAGE; the plan's _retry still applies)", async () => {
    let attempts = 0;
    const flaky = defineTool({
      name: "flaky",
      retry: { attempts: 3, backoffMs: 0, shouldRetry: undefined, jitter: undefined },
      run: () => {
        attempts += 1;
        if (attempts < 3) throw new Error("not yet");
        return "done";
      },
    });
    const engine = createEngine({ tools: [flaky] });
    const result = await engine.run({ type: "plan", plan: [{ _tool: "flaky", _id: "f" }] });
    expect(result.status).toBe("succeeded");
    expect(result.calls.f?.attempts).toBe(3);
  });

  it("createMemoryStore, createSqliteStore and agentTools take their options as undefined", async () => {
    const memory = createMemoryStore({
      now: undefined,
      retention: undefined,
      recordResultBytes: undefined,
      recordParamsBytes: undefined,
      maxTombstones: undefined,
    });
    const sqlite = createSqliteStore(":memory:", {
      now: undefined,
      retention: { maxCallOutputs: undefined },
      durability: undefined,
      busyTimeoutMs: undefined,
      readonly: undefined,
      create: undefined,
      lock: { pollMs: undefined, heartbeatMs: undefined, staleMs: undefined },
    });
    for (const store of [memory, sqlite]) {
      const engine = createEngine({ tools: [echo], store });
      const tools = agentTools(engine, "t", { approve: undefined, parameters: undefined });
      expect(tools.map((tool) => tool.name)).toContain("run_plan");
      expect((await engine.run(plan)).status).toBe("succeeded");
      await engine.close();
    }
  });
});
