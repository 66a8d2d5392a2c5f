import { afterEach, describe, expect, it } from "vitest";
import { Controller } from "./__fixtures__/controlled-tools.js";
import { until } from "./__fixtures__/deferred.js";
import { codeOf } from "./__fixtures__/error-codes.js";
import { type SnapshotStore, snapshotStoreKinds } from "./__fixtures__/snapshot-stores.js";
import {
  agentTools,
  createEngine,
  defineTool,
  type Engine,
  type EngineOptions,
  ObeliskError,
} from "./index.js";

const THREADS = ["t", "fresh"];
const stateSchema = { type: "object", properties: { a: { type: "integer" } } };
const echo = defineTool({
  name: "echo",
  input: { type: "object", properties: { value: {} } },
  run: (args) => (args as { value: unknown }).value,
});
/** A valid plan with an automatic id (a run of it reserves a call number). */
const plan = [{ _tool: "echo", value: 1, _outputPath: "†state.a" }];
const inputSchema = { type: "object", properties: { x: { type: "string" } }, required: ["x"] };

/** Something refused, run against `engine` (which has the state schema) on `thread`, and its code. */
type Refusal = readonly [
  name: string,
  refused: (engine: Engine, thread: string) => Promise<unknown>,
  code: string,
];

const refusals: readonly Refusal[] = [
  [
    "run of an invalid plan",
    (engine, thread) => engine.run([{ _tool: "nope" }], { threadId: thread }),
    "PLAN_INVALID",
  ],
  [
    "run of an input breaking the plan's inputSchema",
    (engine, thread) => engine.run({ plan, inputSchema }, { threadId: thread, input: { x: 1 } }),
    "PLAN_INVALID",
  ],
  [
    "run with another plan's approved hash",
    (engine, thread) => engine.run(plan, { threadId: thread, approvedHash: "sha256:00" }),
    "PLAN_NOT_APPROVED",
  ],
  [
    "run with a misspelt option",
    (engine, thread) => engine.run(plan, { threadID: thread } as never),
    "USAGE",
  ],
  ["validate of an invalid plan", async (engine, thread) => assertInvalid(engine, thread), "PLAN_INVALID"],
  [
    "open with an input breaking its inputSchema",
    (engine, thread) => engine.open({ threadId: thread, inputSchema, input: {} }),
    "PLAN_INVALID",
  ],
  [
    "open with an inputSchema that is no schema",
    (engine, thread) => engine.open({ threadId: thread, inputSchema: { type: 5 } } as never),
    "USAGE",
  ],
  [
    "open with an approved hash",
    (engine, thread) => engine.open({ threadId: thread, approvedHash: "x" } as never),
    "USAGE",
  ],
  ["resume of an unknown run", (engine) => engine.resume("nope"), "RUN_NOT_FOUND"],
  ["runs.show of a run id that is not a string", (engine) => engine.runs.show(42 as never), "USAGE"],
  ["get of a malformed reference", (engine, thread) => engine.get(thread, "†state.a b"), "REF_SYNTAX"],
  ["summarize with lastN 0", (engine, thread) => engine.summarize(thread, { lastN: 0 }), "USAGE"],
  [
    "run_plan refused by the host's approval",
    (engine, thread) => toolAnswer(agentTools(engine, thread, { approve: () => "no" }), "run_plan", { plan }),
    "PLAN_NOT_APPROVED",
  ],
  [
    "run_plan of an invalid plan",
    (engine, thread) => toolAnswer(agentTools(engine, thread), "run_plan", { plan: [{ _tool: "nope" }] }),
    "PLAN_INVALID",
  ],
  [
    "get_variable of a malformed reference",
    (engine, thread) => toolAnswer(agentTools(engine, thread), "get_variable", { reference: "†state[" }),
    "REF_SYNTAX",
  ],
];

/** validate answers, it does not throw: a refusal of the plan is `ok: false` (thrown here as its code). */
async function assertInvalid(engine: Engine, thread: string): Promise<void> {
  const validation = await engine.validate([{ _tool: "nope" }], { threadId: thread });
  if (!validation.ok) throw new ObeliskError("PLAN_INVALID", "invalid");
}

/** An agent tool's answer; its `{ ok: false, error }` thrown as the error's code. */
async function toolAnswer(
  tools: ReturnType<typeof agentTools>,
  name: string,
  args: object,
): Promise<unknown> {
  const answer = (await tools.find((tool) => tool.name === name)?.execute({ ...args })) as {
    ok?: boolean;
    error?: { code: string };
  };
  if (answer.ok === false) throw new ObeliskError(answer.error?.code as never, "refused");
  return answer;
}

describe.each(snapshotStoreKinds())("refused input leaves no trace on the $name store", (kind) => {
  let engines: Engine[] = [];
  let opened: SnapshotStore;
  afterEach(async () => {
    for (const engine of engines) await engine.close().catch(() => undefined);
    engines = [];
  });
  const engineOf = (options: Partial<EngineOptions> = {}): Engine => {
    const engine = createEngine({ tools: [echo], store: opened.store, ...options });
    engines.push(engine);
    return engine;
  };
  /** A store whose thread `t` has had a run (of an engine without a schema); an engine with the schema. */
  const prepared = async (options: Partial<EngineOptions> = {}): Promise<Engine> => {
    opened = kind.open();
    await engineOf().run(plan, { threadId: "t" });
    return engineOf({ stateSchema, ...options });
  };

  it.each(refusals)("%s", async (_name, refused, code) => {
    const engine = await prepared();
    for (const thread of THREADS) {
      const before = await opened.snapshot(THREADS);
      expect(await codeOf(refused(engine, thread))).toBe(code);
      expect(await opened.snapshot(THREADS)).toBe(before);
    }
    // and the thread is not left busy
    expect((await engine.run(plan, { threadId: "t" })).status).toBe("succeeded");
  });

  it("open of a thread a run holds is THREAD_BUSY and gives the thread no schema", async () => {
    opened = kind.open();
    const control = new Controller();
    const first = engineOf({ tools: [control.tool("wait")] });
    const running = first.run([{ _tool: "wait", key: "k", _outputPath: "†state.k" }], { threadId: "t" });
    await until(() => control.started.length === 1);
    const before = await opened.snapshot(THREADS);
    expect(await codeOf(engineOf({ stateSchema }).open({ threadId: "t" }))).toBe("THREAD_BUSY");
    expect(await opened.snapshot(THREADS)).toBe(before);
    control.finish("k");
    expect((await running).status).toBe("succeeded");
  });

  it("a run id the store holds already is refused before a thread is created or a number taken", async () => {
    const engine = await prepared({ generateId: () => "same" });
    await engine.run(plan, { threadId: "t" });
    for (const thread of THREADS) {
      const before = await opened.snapshot(THREADS);
      expect(await codeOf(engine.run(plan, { threadId: thread }))).toBe("USAGE");
      expect(await codeOf(engine.open({ threadId: thread }))).toBe("USAGE");
      expect(await opened.snapshot(THREADS)).toBe(before);
    }
  });
});
