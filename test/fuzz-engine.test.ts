import { ObeliskError, RUNTIME_ERROR_CODES } from "@obelisk/core";
import fc from "fast-check";
import { createEngine, createMemoryStore, type Diagnostic, type Engine, type StateStore } from "obelisk";
import { createSqliteStore } from "obelisk/sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { diagnosticProblems } from "./support/check-diagnostics.js";
import { withSeed } from "./support/fuzz-seed.js";
import { fuzzTools } from "./support/fuzz-tools.js";
import { FUZZ_INPUT, validPlan } from "./support/plan-generators.js";
import { FUZZ_MAX_STRING, mutatePlan, mutationSeed } from "./support/plan-mutations.js";
import { pollutionSigns } from "./support/prototype-guard.js";
import { storeSnapshot } from "./support/store-snapshot.js";

const THREAD = "fuzz";
const KNOWN_CODES = new Set<string>(RUNTIME_ERROR_CODES);

/** Counts for docs/reliability.md. */
export const engineCases = { validated: 0, ran: 0, rejected: 0, executed: 0 };

async function seededEngine(store: StateStore): Promise<Engine> {
  const engine = createEngine({
    tools: fuzzTools as never,
    store,
    limits: { maxStringLength: FUZZ_MAX_STRING },
  });
  await engine.set(THREAD, "†state.seeded", { keep: [1, 2, 3] });
  return engine;
}

/** validate then run one document; returns every contract violation. */
async function probe(engine: Engine, submitted: unknown): Promise<string[]> {
  engineCases.validated += 1;
  const validation = await engine.validate(submitted, { threadId: THREAD, input: FUZZ_INPUT });
  const problems = diagnosticProblems(submitted, validation.ok, validation.diagnostics);
  const before = await storeSnapshot(engine.store, THREAD);
  engineCases.ran += 1;
  try {
    const result = await engine.run(submitted, { threadId: THREAD, input: FUZZ_INPUT });
    engineCases.executed += 1;
    if (!validation.ok) problems.push("validate refused a plan that run accepted");
    if (!["succeeded", "failed"].includes(result.status)) problems.push(`run status ${result.status}`);
  } catch (error) {
    if (!ObeliskError.is(error)) return [...problems, `non-Obelisk throw: ${String(error)}`];
    if (!KNOWN_CODES.has(error.code)) problems.push(`unknown error code ${error.code}`);
    if (error.code !== "PLAN_INVALID") problems.push(`unexpected ${error.code}: ${error.message}`);
    engineCases.rejected += 1;
    const data = error.data as { ok: boolean; diagnostics: readonly Diagnostic[] };
    problems.push(...diagnosticProblems(submitted, data.ok, data.diagnostics));
    if (validation.ok) problems.push("run refused a plan that validate accepted");
    if ((await storeSnapshot(engine.store, THREAD)) !== before)
      problems.push("a rejected plan changed the store");
  }
  problems.push(...pollutionSigns());
  return problems;
}

const stores: [string, () => StateStore, number][] = [
  ["memory", () => createMemoryStore(), 500],
  ["sqlite", () => createSqliteStore(":memory:"), 300],
];

describe.each(stores)("front door through the engine (%s store)", (_name, makeStore, numRuns) => {
  const engines: Engine[] = [];
  afterAll(async () => {
    for (const engine of engines) await engine.close();
  });

  it("mutated plans: validate and run agree, diagnostics are well-formed, rejection changes nothing", async () => {
    // A fresh engine every 100 cases keeps the before/after snapshots small (the thread's history grows).
    let engine = await seededEngine(makeStore());
    engines.push(engine);
    let cases = 0;
    await withSeed("engine fuzz", (seed) =>
      fc.assert(
        fc.asyncProperty(validPlan, mutationSeed, fc.boolean(), async (plan, mutation, asText) => {
          if (++cases % 100 === 0) {
            engine = await seededEngine(makeStore());
            engines.push(engine);
          }
          const mutated = mutatePlan(plan, mutation);
          expect(await probe(engine, asText ? JSON.stringify(mutated) : mutated)).toEqual([]);
        }),
        { seed, numRuns },
      ),
    );
    const after = await engine.run(
      { _tool: "add", a: 1, b: 2, _outputPath: "†state.sum" },
      { threadId: THREAD },
    );
    expect(after.state.sum).toBe(3);
    expect(after.state.seeded).toEqual({ keep: [1, 2, 3] });
  });
});

describe("a rejected plan on a new thread", () => {
  it.each(stores)("leaves no run, no state and no counter behind (%s)", async (_name, makeStore) => {
    const engine = createEngine({ tools: fuzzTools as never, store: makeStore() });
    const before = await storeSnapshot(engine.store, "fresh");
    await expect(engine.run({ _tool: "nope" }, { threadId: "fresh" })).rejects.toMatchObject({
      code: "PLAN_INVALID",
    });
    await engine.validate({ _tool: "add", a: "x" }, { threadId: "fresh" });
    expect(await storeSnapshot(engine.store, "fresh")).toBe(before);
    const ok = await engine.run({ _tool: "add", a: 1, b: 1 }, { threadId: "fresh" });
    expect(Object.keys(ok.calls)).toEqual(["add$1"]);
    await engine.close();
  });
});
