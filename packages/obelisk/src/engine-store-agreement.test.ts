import type { StateStore } from "@obelisk/state";
import { afterAll, describe, expect, it } from "vitest";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, defineTool, type ToolDefinition } from "./index.js";

/** Deterministic tools: synchronous ones, an asynchronous one, one that throws. */
const TOOLS: ToolDefinition[] = [
  defineTool({ name: "add", run: (args) => ((args as { a?: number }).a ?? 0) + 1 }),
  defineTool({ name: "upper", run: (args) => String((args as { s: unknown }).s).toUpperCase() }),
  defineTool({ name: "later", run: async (args) => ({ got: Object.keys(args as object).length }) }),
  defineTool({ name: "obj", run: () => ({ k: 1 }) }),
  defineTool({
    name: "thrower",
    run: () => {
      throw Object.assign(new Error("boom"), { code: "E_BOOM" });
    },
  }),
];

/** Co-writers of one list, a call routed to its failure branch, a reader of the whole state. */
const PLAN = [
  { _tool: "add", _id: "c0", _outputPath: "†state.list || †state.obj", _outputMethod: "push" },
  { _tool: "add", _id: "c1", _outputPath: "†state.c.y && †state.m" },
  { _tool: "upper", _id: "c3", s: "†input.y", _outputPath: "†state.list", _outputMethod: "push" },
  { _tool: "add", _id: "f", _outputPath: "†state.list", _outputMethod: "push" },
  { _tool: "later", _id: "c6", p1: "†state", _outputPath: "†state.b" },
  {
    _tool: "thrower",
    _id: "t",
    p0: "†state.obj || †state.c.y",
    _outputPath: "†state.list || †state.d.e.f",
    _outputMethod: "push",
  },
];

/** What a run left in the store, in the store's own order. */
async function traces(store: StateStore, runId: string) {
  const engine = createEngine({ tools: TOOLS, store });
  const log = (await store.readWriteLog("t" as never)).map((entry) => {
    const e = entry as { call?: { id: string }; write?: { reference: string }; op?: string };
    return `${e.call?.id ?? e.op}:${e.write?.reference ?? ""}`;
  });
  const records = (await engine.runs.show(runId)).calls.map((call) => `${call.callId}:${call.status}`);
  return { log, records };
}

describe("the same run leaves the same commit order on every store (differential review F1–F4)", () => {
  const kinds = storeKinds();
  afterAll(() => {
    for (const kind of kinds) kind.cleanup();
  });

  it("write log and call records agree between the memory and the SQLite store", async () => {
    const seen: unknown[] = [];
    for (const kind of kinds) {
      const store = kind.open();
      let clock = Date.UTC(2026, 0, 1);
      const engine = createEngine({ tools: TOOLS, store, now: () => clock++ });
      const result = await engine.run(PLAN, { threadId: "t", input: { y: "v" } });
      expect(result.calls.t?.status).toBe("succeeded");
      seen.push(await traces(store, result.runId));
      await engine.close();
    }
    // before, the memory store committed each call as it ended (f before t) and SQLite by drain (t before f)
    expect(seen[0]).toEqual(seen[1]);
  });

  it("a call whose write fails at commit is recorded in the same place on both stores", async () => {
    const seen: unknown[] = [];
    for (const kind of kinds) {
      const store = kind.open();
      const engine = createEngine({ tools: TOOLS, store });
      // a number merged onto a stored object: validation cannot know the value (decision 0091 refuses a
      // merge onto a stored array before the run)
      await engine.set("t2", "†state.list", {});
      const result = await engine.run(
        [
          { _tool: "add", _id: "a", _outputPath: "†state.list", _outputMethod: "merge" },
          { _tool: "add", _id: "b", _outputPath: "†state.acc" },
        ],
        { threadId: "t2" },
      );
      expect(result.calls.a?.error?.code).toBe("OUTPUT_WRITE_FAILED");
      seen.push((await engine.runs.show(result.runId)).calls.map((call) => `${call.callId}:${call.status}`));
      await engine.close();
    }
    expect(seen[0]).toEqual(seen[1]);
  });
});

describe("refused and validated plans leave no thread behind (differential review F6)", () => {
  const kinds = storeKinds();
  afterAll(() => {
    for (const kind of kinds) kind.cleanup();
  });

  for (const kind of kinds) {
    it(`${kind.name}: validate, get, summarize, an invalid plan and an unapproved one create no thread; a run does`, async () => {
      const store = kind.open();
      const stateSchema = { type: "object" };
      const engine = createEngine({ tools: TOOLS, store, stateSchema });
      const valid = [{ _tool: "add", _id: "a", _outputPath: "†state.a" }];
      const invalid = [{ _tool: "nope", _id: "a" }];
      expect((await engine.validate(valid, { threadId: "v" })).ok).toBe(true);
      expect((await engine.validate(invalid, { threadId: "v" })).ok).toBe(false);
      await expect(engine.run(invalid, { threadId: "r" })).rejects.toMatchObject({ code: "PLAN_INVALID" });
      await expect(engine.run(valid, { threadId: "r", approvedHash: "sha256:0" })).rejects.toMatchObject({
        code: "PLAN_NOT_APPROVED",
      });
      // before, each of these opened (created) its thread
      // reading an unknown thread answers as an empty one, and creates nothing either
      expect(await engine.summarize("g")).toMatchObject({ entries: [], text: "No variables." });
      expect(await engine.get("g", "†state.a")).toEqual({ found: false });
      expect((await store.stats()).threads).toBe(0);
      expect(await store.getThread("r" as never)).toBeUndefined();
      expect((await engine.run(valid, { threadId: "r" })).status).toBe("succeeded");
      expect(await store.getThread("r" as never)).toMatchObject({ stateSchema });
      expect((await store.stats()).threads).toBe(1);
      await engine.close();
    });
  }
});
