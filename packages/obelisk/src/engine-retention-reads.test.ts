import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryStore, type StateStore } from "@obelisk/state";
import { createSqliteStore } from "@obelisk/state/sqlite";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createEngine, defineTool, type Engine } from "./index.js";

// Decision 0104 (review s41 r3 #1): the engine's retention ages hold for everything the engine does — the
// expiry before a run and validate, and its reads (get, summarize) — not the store's own (default 60 min).

const MINUTE = 60_000;
const give = defineTool({ name: "give", run: (args: unknown) => (args as { value?: unknown }).value });
const dir = mkdtempSync(join(tmpdir(), "obelisk-retention-reads-"));
let files = 0;
/** The store the engine is given (none: its default memory store), on the engine's clock. */
const stores: Record<string, (now: () => number) => StateStore | undefined> = {
  default: () => undefined,
  memory: (now) => createMemoryStore({ now }),
  sqlite: (now) => createSqliteStore(join(dir, `state-${files++}.db`), { now }),
};
const retention = { maxCallOutputAgeMs: 24 * 60 * MINUTE, maxAgeMs: 10 * MINUTE };

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(Object.keys(stores))("the engine's retention ages govern expiry (%s store)", (kind) => {
  let engine: Engine;
  let clock = 0;
  afterEach(async () => {
    await engine.close();
  });

  /** An engine with a 24 h call-output age and a 10 min value age, after one run writing both. */
  async function twoHoursAfterARun(): Promise<Engine> {
    clock = Date.parse("2026-01-01T00:00:00Z");
    const now = () => clock;
    const store = (stores[kind] as (n: () => number) => StateStore | undefined)(now);
    engine = createEngine({ tools: [give], now, retention, ...(store === undefined ? {} : { store }) });
    await engine.run(
      [
        { _tool: "give", _id: "search", value: { hits: ["a"] } },
        { _tool: "give", _id: "session", value: "s", _outputPath: "†state.session" },
      ],
      { threadId: "t" },
    );
    clock += 120 * MINUTE;
    return engine;
  }

  it("get keeps a call output younger than the engine's maxCallOutputAgeMs and evicts a value past its maxAgeMs", async () => {
    await twoHoursAfterARun();
    expect(await engine.get("t", "†calls.search")).toMatchObject({ found: true, value: { hits: ["a"] } });
    await expect(engine.get("t", "†state.session")).rejects.toMatchObject({
      code: "REF_EVICTED",
      data: { reason: "maxAgeMs" },
    });
  });

  it("summarize lists what the engine's policy keeps", async () => {
    await twoHoursAfterARun();
    const summary = await engine.summarize("t", { format: "json" });
    expect(summary.entries.map((entry) => entry.reference)).toEqual(["†calls.search"]);
  });

  it("validate and a run read a two-hour-old output (the store's 60 minutes do not apply)", async () => {
    await twoHoursAfterARun();
    const plan = [{ _tool: "give", _id: "use", value: "†calls.search.hits[0]", _outputPath: "†state.x" }];
    expect((await engine.validate(plan, { threadId: "t" })).ok).toBe(true);
    const result = await engine.run(plan, { threadId: "t" });
    expect(result.status).toBe("succeeded");
    expect(result.state).toEqual({ x: "a" });
  });

  it("past the engine's maxCallOutputAgeMs the output is evicted by that limit", async () => {
    await twoHoursAfterARun();
    clock += 24 * 60 * MINUTE;
    await expect(engine.get("t", "†calls.search")).rejects.toMatchObject({
      code: "REF_EVICTED",
      data: { reason: "maxCallOutputAgeMs" },
    });
  });
});

describe("an engine without retention keeps the store's own policy after a run too", () => {
  it("a store keeping one call output keeps one after the run (the engine's defaults do not lift it)", async () => {
    const engine = createEngine({
      tools: [give],
      store: createMemoryStore({ retention: { maxCallOutputs: 1 } }),
    });
    await engine.run([1, 2, 3].map((value) => ({ _tool: "give", _id: `o${value}`, value })));
    expect(await engine.store.listCallOutputIds("default" as never)).toEqual(["o3"]);
    await engine.close();
  });
});
