import { afterEach, describe, expect, it } from "vitest";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type Engine, type OpenOptions, type ToolDefinition } from "./index.js";

const ran: string[] = [];
const tools: ToolDefinition[] = [
  {
    name: "num",
    input: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    output: { type: "number" },
    run: (args) => {
      ran.push("num");
      return (args as { n: number }).n;
    },
  },
  {
    name: "str",
    input: { type: "object", properties: { s: { type: "string" } }, required: ["s"] },
    output: { type: "string" },
    run: (args) => {
      ran.push("str");
      return (args as { s: string }).s;
    },
  },
];
const stateSchema = { type: "object", properties: { count: { type: "integer" } } };

/** One streamed case: the calls, the options of `open`, and what `validate` says of the same plan. */
interface Case {
  readonly name: string;
  readonly calls: readonly Record<string, unknown>[];
  readonly open: OpenOptions;
  readonly refused: readonly [string, string];
}

const cases: readonly Case[] = [
  {
    name: "an earlier writer's output schema, through †state",
    calls: [
      { _tool: "num", _id: "w", n: 1, _outputPath: "†state.v" },
      { _tool: "str", _id: "r", s: "†state.v" },
    ],
    open: {},
    refused: ["REF_TYPE_MISMATCH", "/plan/1/s"],
  },
  {
    name: "an earlier writer's output schema, through †calls",
    calls: [
      { _tool: "num", _id: "w", n: 1 },
      { _tool: "str", _id: "r", s: "†calls.w" },
    ],
    open: {},
    refused: ["REF_TYPE_MISMATCH", "/plan/1/s"],
  },
  {
    name: "the input given at open",
    calls: [{ _tool: "str", _id: "r", s: "†input.a" }],
    open: { input: { a: 1 } },
    refused: ["REF_TYPE_MISMATCH", "/plan/0/s"],
  },
  {
    name: "a path the input given at open lacks (nothing can write †input)",
    calls: [{ _tool: "num", _id: "r", n: "†input.missing" }],
    open: { input: { a: 1 } },
    refused: ["REF_UNRESOLVED", "/plan/0/n"],
  },
  {
    name: "the inputSchema option",
    calls: [{ _tool: "str", _id: "r", s: "†input.a" }],
    open: { inputSchema: { type: "object", properties: { a: { type: "number" } } }, input: { a: 1 } },
    refused: ["REF_TYPE_MISMATCH", "/plan/0/s"],
  },
  {
    name: "the engine's state schema",
    calls: [{ _tool: "str", _id: "r", s: "†state.count" }],
    open: {},
    refused: ["REF_TYPE_MISMATCH", "/plan/0/s"],
  },
];

describe.each(storeKinds())("add refuses what it knows of a call's references on the $name store", (kind) => {
  let engine: Engine;
  afterEach(async () => {
    await engine.close();
    kind.cleanup();
  });

  it.each(cases)("$name: refused as validate refuses it, never run, not recorded", async (streamed) => {
    ran.length = 0;
    engine = createEngine({ tools, stateSchema, store: kind.open() });
    await engine.set("t", "†state.count", 3);
    const { inputSchema, ...validateOptions } = streamed.open;
    const plan = {
      type: "plan",
      plan: streamed.calls,
      ...(inputSchema === undefined ? {} : { inputSchema }),
    };
    const validated = await engine.validate(plan, { threadId: "t", ...validateOptions });
    expect(validated.diagnostics.map((d) => [d.code, d.pointer])).toEqual([streamed.refused]);
    const run = await engine.open({ threadId: "t", ...streamed.open });
    const added = streamed.calls.map((call) => run.add(call));
    const last = added[added.length - 1];
    expect(last?.ok).toBe(false);
    expect(last?.diagnostics.map((d) => [d.code, d.pointer])).toEqual([streamed.refused]);
    expect(added.slice(0, -1).every((result) => result.ok)).toBe(true);
    const result = await run.close();
    expect(result.status).toBe("succeeded");
    expect(Object.keys(result.calls)).toEqual(added.length > 1 ? ["w"] : []);
    expect(ran).toEqual(added.length > 1 ? ["num"] : []);
    expect((await engine.runs.show(run.runId)).run.plan).toMatchObject({ plan: streamed.calls.slice(0, -1) });
  });
});
