import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryStore, type StateStore } from "@obelisk/state";
import { createSqliteStore } from "@obelisk/state/sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { createEngine, defineTool, type Engine, type ObeliskError } from "./index.js";

const give = defineTool({ name: "give", run: (args: unknown) => (args as { value?: unknown }).value });
const HOUR = 3_600_000;
const dirs: string[] = [];
const stores: Record<string, (now: () => number) => StateStore> = {
  memory: (now) => createMemoryStore({ now }),
  sqlite: (now) => {
    const dir = mkdtempSync(join(tmpdir(), "obelisk-expired-"));
    dirs.push(dir);
    return createSqliteStore(join(dir, "state.db"), { now });
  },
};

describe.each(Object.keys(stores))("an output past its age: validate and run agree (%s)", (kind) => {
  let engine: Engine;
  afterEach(async () => {
    await engine.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("validate refuses what the run would refuse, with the same REF_EVICTED hint", async () => {
    let clock = Date.parse("2026-01-01T00:00:00Z");
    const now = () => clock;
    engine = createEngine({
      tools: [give],
      now,
      store: (stores[kind] as (n: () => number) => StateStore)(now),
    });
    await engine.run([{ _tool: "give", _id: "s1", value: { hits: ["a"] } }], { threadId: "t" });
    const plan = [{ _tool: "give", _id: "use", value: "†calls.s1.hits[0]", _outputPath: "†state.x" }];
    clock += HOUR; // exactly its age: still there
    expect((await engine.validate(plan, { threadId: "t" })).ok).toBe(true);
    clock += 1;
    const validation = await engine.validate(plan, { threadId: "t" });
    expect(validation.ok).toBe(false);
    expect(validation.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["REF_UNRESOLVED", "/0/value"]]);
    // the time it passed its age (written at 00:00 + 60 min), not the time of this read; what to do
    const advice =
      "send the call again to store its output anew, or give the call an _outputPath into †state (no limit by default); the host can keep call outputs longer by raising the retention limit maxCallOutputAgeMs (createEngine({ retention }))";
    expect(validation.diagnostics[0]?.hint).toBe(
      `REF_EVICTED: †calls.s1 was evicted at 2026-01-01T01:00:00.000Z (maxCallOutputAgeMs: ${advice}); it cannot be read any more`,
    );
    clock += HOUR;
    await expect(engine.get("t", "†calls.s1")).rejects.toMatchObject({
      code: "REF_EVICTED",
      message: "†calls.s1 was evicted (maxCallOutputAgeMs) at 2026-01-01T01:00:00.000Z",
      hint: advice,
    });
    const refused = (await engine
      .run(plan, { threadId: "t" })
      .catch((error: unknown) => error)) as ObeliskError;
    expect(refused.code).toBe("PLAN_INVALID");
    expect((refused.data as { diagnostics: unknown }).diagnostics).toEqual(validation.diagnostics);
  });
});
