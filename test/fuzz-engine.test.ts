import { ObeliskError, RUNTIME_ERROR_CODES } from "@obelisk/core";
import fc from "fast-check";
import { createEngine, createMemoryStore, type Diagnostic, type Engine, type StateStore } from "obelisk";
import { createSqliteStore } from "obelisk/sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { diagnosticProblems } from "./support/check-diagnostics.js";
import { outcomeProblems } from "./support/check-outcomes.js";
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
afterAll(() => {
  console.log(`fuzz-engine figures: ${JSON.stringify(engineCases)}`);
});

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
  const text = typeof submitted === "string" ? submitted : safeStringify(submitted);
  const validation = await engine.validate(submitted, { threadId: THREAD, input: FUZZ_INPUT });
  const problems = diagnosticProblems(submitted, validation.ok, validation.diagnostics);
  const before = await storeSnapshot(engine.store, THREAD);
  engineCases.ran += 1;
  try {
    const result = await engine.run(submitted, { threadId: THREAD, input: FUZZ_INPUT });
    engineCases.executed += 1;
    if (!validation.ok) problems.push("validate refused a plan that run accepted");
    if (!["succeeded", "failed"].includes(result.status)) problems.push(`run status ${result.status}`);
    problems.push(...outcomeProblems(result));
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
  const after = typeof submitted === "string" ? submitted : safeStringify(submitted);
  if (after !== text) problems.push("validate or run changed the submitted document");
  problems.push(...pollutionSigns());
  return problems;
}

/** JSON text of any value (fc.anything() gives BigInt, cycles-free values, -0, …), for before/after checks. */
function safeStringify(value: unknown): string {
  try {
    return (
      JSON.stringify(value, (_key, item: unknown) => (typeof item === "bigint" ? `${item}n` : item)) ?? ""
    );
  } catch {
    return "(not serializable)";
  }
}

/**
 * The documents of the property: mostly a valid plan with one mutation (as a value or as JSON text), and one
 * in ten an arbitrary value or arbitrary text.
 */
const submittedDocument: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.tuple(validPlan, mutationSeed, fc.boolean()).map(([plan, mutation, asText]) => {
      const mutated = mutatePlan(plan, mutation);
      return asText ? JSON.stringify(mutated) : mutated;
    }),
  },
  { weight: 1, arbitrary: fc.oneof(fc.anything(), fc.string({ unit: "binary", maxLength: 200 })) },
);

const stores: [string, () => StateStore, number][] = [
  ["memory", () => createMemoryStore(), 3_500],
  ["sqlite", () => createSqliteStore(":memory:"), 1_500],
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
        fc.asyncProperty(submittedDocument, async (submitted) => {
          if (++cases % 100 === 0) {
            engine = await seededEngine(makeStore());
            engines.push(engine);
          }
          expect(await probe(engine, submitted)).toEqual([]);
        }),
        // A case that does not settle within 10 s fails with its seed and path (no hang goes unnoticed).
        { seed, numRuns, timeout: 10_000 },
      ),
    );
    const after = await engine.run(
      { _tool: "add", a: 1, b: 2, _outputPath: "†state.sum" },
      { threadId: THREAD },
    );
    expect(after.state.sum).toBe(3);
    expect(after.state.seeded).toEqual({ keep: [1, 2, 3] });
  }, 180_000);
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

/** A valid plan of about `bytes` bytes: many `echo` calls, each with a 50,000-character literal. */
function bigPlan(bytes: number): { type: "plan"; plan: Record<string, unknown>[] } {
  const chunk = "a".repeat(50_000);
  const plan = Array.from({ length: Math.ceil(bytes / 50_100) }, (_, index) => ({
    _tool: "echo",
    _id: `big${index}`,
    text: chunk,
  }));
  return { type: "plan", plan };
}

describe("huge documents through validate and run (SQLite store holding data, default limits)", () => {
  it("10 MB: a mutated one is refused and changes nothing; the valid one runs; over-limit ones are PLAN_LIMIT", async () => {
    const engine = createEngine({ tools: fuzzTools as never, store: createSqliteStore(":memory:") });
    await engine.set(THREAD, "†state.seeded", { keep: [1, 2, 3] });
    const plan = bigPlan(10 * 1024 * 1024);
    const last = plan.plan.length - 1;
    const mutated = JSON.parse(JSON.stringify(plan)) as typeof plan;
    (mutated.plan[last] as Record<string, unknown>)._tool = "echoo";
    const options = { threadId: THREAD, input: FUZZ_INPUT };
    const before = await storeSnapshot(engine.store, THREAD);
    let deep: unknown = 1;
    for (let level = 0; level < 10_000; level += 1) deep = [deep];
    const refused: [unknown, string, string | undefined][] = [
      [mutated, "TOOL_UNKNOWN", `/plan/${last}/_tool`],
      [JSON.stringify(mutated), "TOOL_UNKNOWN", `/plan/${last}/_tool`],
      [JSON.stringify(bigPlan(17 * 1024 * 1024)), "PLAN_LIMIT", ""],
      [{ _tool: "greet", name: "n".repeat(1_000_001) }, "PLAN_LIMIT", "/name"],
      [{ _tool: "echo", deep }, "PLAN_LIMIT", undefined],
    ];
    for (const [submitted, code, pointer] of refused) {
      const validation = await engine.validate(submitted, options);
      expect(diagnosticProblems(submitted, validation.ok, validation.diagnostics)).toEqual([]);
      expect(validation.diagnostics.map((d) => d.code)).toContain(code);
      if (pointer !== undefined)
        expect(validation.diagnostics.map((d) => [d.code, d.pointer])).toContainEqual([code, pointer]);
      await expect(engine.run(submitted, options)).rejects.toMatchObject({ code: "PLAN_INVALID" });
      expect(await storeSnapshot(engine.store, THREAD)).toBe(before);
    }
    expect(pollutionSigns()).toEqual([]);
    const validation = await engine.validate(plan, options);
    expect(validation.ok).toBe(true);
    const result = await engine.run(JSON.stringify(plan), options);
    expect(result.status).toBe("succeeded");
    expect(Object.keys(result.calls)).toHaveLength(plan.plan.length);
    expect(await engine.get(THREAD, `†calls.big${last}`)).toMatchObject({ found: true });
    expect(result.state.seeded).toEqual({ keep: [1, 2, 3] });
    await engine.close();
  }, 60_000);
});
