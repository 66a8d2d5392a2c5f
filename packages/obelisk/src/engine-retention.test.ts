import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryStore, type StateStore } from "@obelisk/state";
import { createSqliteStore } from "@obelisk/state/sqlite";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createEngine, defineTool, type Engine } from "./index.js";

/** The engine and its store share one manual clock (the store stamps writes, the engine applies retention). */
let time = Date.UTC(2026, 0, 1);
const now = () => time;
const dir = mkdtempSync(join(tmpdir(), "obelisk-retention-"));
let files = 0;
const kinds: { name: string; open: () => StateStore }[] = [
  { name: "memory", open: () => createMemoryStore({ now }) },
  { name: "sqlite", open: () => createSqliteStore(join(dir, `state-${files++}.db`), { now }) },
];

/** Returns its `value` parameter. */
const give = defineTool({
  name: "give",
  run: (args: unknown) => (args as { value?: unknown }).value,
});

describe.each(kinds)("retention is applied after each run ($name)", (kind) => {
  let engine: Engine;
  afterEach(async () => {
    await engine.close();
  });

  it("maxVariables keeps the most recently updated ones, after the run (never during it)", async () => {
    engine = createEngine({ tools: [give], store: kind.open(), retention: { maxVariables: 2 }, now });
    // A chain, so the three writes happen in order; during the run every value is still readable.
    const result = await engine.run([
      { _tool: "give", _id: "a", value: 1, _outputPath: "†state.a" },
      { _tool: "give", _id: "b", value: "†state.a", _outputPath: "†state.b" },
      { _tool: "give", _id: "c", value: "†state.b", _outputPath: "†state.c" },
    ]);
    expect(result.status).toBe("succeeded");
    expect(result.state).toEqual({ b: 1, c: 1 });
    await expect(engine.get("default", "†state.a")).rejects.toMatchObject({
      code: "REF_EVICTED",
      data: { reason: "maxVariables" },
    });
  });

  it("maxAgeMs evicts what was not updated for that long, measured on the engine's clock", async () => {
    engine = createEngine({ tools: [give], store: kind.open(), retention: { maxAgeMs: 60_000 }, now });
    await engine.run([{ _tool: "give", _id: "old", value: 1, _outputPath: "†state.old" }]);
    time += 61_000;
    const result = await engine.run([{ _tool: "give", _id: "new", value: 2, _outputPath: "†state.new" }]);
    expect(result.state).toEqual({ new: 2 });
    await expect(engine.get("default", "†state.old")).rejects.toMatchObject({ code: "REF_EVICTED" });
  });

  it("a partial policy keeps the default of 100 stored call outputs", async () => {
    engine = createEngine({ tools: [give], store: kind.open(), retention: { maxVariables: 1000 }, now });
    const calls = Array.from({ length: 102 }, (_, i) => ({ _tool: "give", _id: `o${i}`, value: i }));
    expect((await engine.run(calls)).status).toBe("succeeded");
    const outputs = (await engine.summarize("default", { format: "json", budgetChars: 1_000_000 })).entries
      .map((entry) => entry.reference)
      .filter((reference) => reference.startsWith("†calls."));
    expect(outputs).toHaveLength(100);
  });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));
