import { compile, createToolRegistry } from "@obelisk/compiler";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { diagnosticProblems } from "./support/check-diagnostics.js";
import { withSeed } from "./support/fuzz-seed.js";
import { fuzzTools } from "./support/fuzz-tools.js";
import { FUZZ_INPUT, validPlan } from "./support/plan-generators.js";
import { FUZZ_MAX_STRING, mutatePlan, mutationSeed } from "./support/plan-mutations.js";

const registry = createToolRegistry(fuzzTools);
const context = { input: FUZZ_INPUT };
const limits = { maxStringLength: FUZZ_MAX_STRING };
const HASH = /^sha256:[0-9a-f]{64}$/;

/** Compiles and returns every contract violation (never throws out of the property). */
function check(submitted: unknown, options = { context, limits }): string[] {
  const snapshot = typeof submitted === "string" ? submitted : JSON.stringify(submitted);
  const result = compile(submitted, registry, options);
  const problems = diagnosticProblems(submitted, result.ok, result.diagnostics);
  if (!HASH.test(result.planHash)) problems.push(`bad plan hash ${result.planHash}`);
  const after = typeof submitted === "string" ? submitted : JSON.stringify(submitted);
  if (after !== snapshot) problems.push("compile changed the submitted document");
  if (({} as Record<string, unknown>).polluted !== undefined) problems.push("Object.prototype polluted");
  return problems;
}

/** Counts cases for docs/reliability.md. */
export const compileCases = { valid: 0, mutated: 0, mutatedText: 0, random: 0, randomText: 0 };
afterAll(() => {
  console.log(`fuzz-compile figures: ${JSON.stringify(compileCases)}`);
});

describe("front door: compile never throws and every diagnostic is well-formed", () => {
  it("valid generated plans compile without errors (the base of every mutation)", async () => {
    await withSeed("valid plans", (seed) =>
      fc.assert(
        fc.property(validPlan, (plan) => {
          compileCases.valid += 1;
          const result = compile(plan, registry, { context, limits });
          expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
          expect(check(plan)).toEqual([]);
        }),
        { seed, numRuns: 500 },
      ),
    );
  });

  it("valid plans with one mutation (as values)", async () => {
    await withSeed("mutated plans", (seed) =>
      fc.assert(
        fc.property(validPlan, mutationSeed, (plan, mutation) => {
          compileCases.mutated += 1;
          expect(check(mutatePlan(plan, mutation))).toEqual([]);
        }),
        { seed, numRuns: 2500 },
      ),
    );
  });

  it("valid plans with one mutation (as JSON text, with text-level damage)", async () => {
    await withSeed("mutated text", (seed) =>
      fc.assert(
        fc.property(
          validPlan,
          mutationSeed,
          fc.nat(),
          fc.string({ maxLength: 3 }),
          (plan, mutation, at, junk) => {
            compileCases.mutatedText += 1;
            const text = JSON.stringify(mutatePlan(plan, mutation), null, at % 3);
            const cut = at % (text.length + 1);
            const damaged = at % 4 === 0 ? text.slice(0, cut) + junk + text.slice(cut) : text;
            expect(check(damaged)).toEqual([]);
          },
        ),
        { seed, numRuns: 1000 },
      ),
    );
  });

  it("arbitrary values and arbitrary strings", async () => {
    await withSeed("random documents", (seed) =>
      fc.assert(
        fc.property(
          fc.oneof(fc.anything(), fc.jsonValue()),
          fc.string({ unit: "binary", maxLength: 200 }),
          (value, text) => {
            compileCases.random += 1;
            compileCases.randomText += 1;
            expect(check(value)).toEqual([]);
            expect(check(text)).toEqual([]);
            expect(check(`{"type":"plan","plan":[${text}]}`)).toEqual([]);
          },
        ),
        { seed, numRuns: 1000 },
      ),
    );
  });
});

/** A valid plan of about `bytes` bytes: many calls, each with a long literal string. */
function bigPlan(bytes: number): { type: "plan"; plan: Record<string, unknown>[] } {
  const chunk = "a".repeat(50_000);
  const plan = Array.from({ length: Math.ceil(bytes / 50_100) }, (_, index) => ({
    _tool: "echo",
    _id: `big${index}`,
    text: chunk,
  }));
  return { type: "plan", plan };
}

describe("front door: big documents with the default limits", () => {
  it("a 10 MB plan (value and text) compiles without errors", () => {
    const plan = bigPlan(10 * 1024 * 1024);
    const text = JSON.stringify(plan);
    expect(text.length).toBeGreaterThan(10 * 1024 * 1024);
    for (const submitted of [plan, text]) {
      const result = compile(submitted, registry, { context });
      expect(diagnosticProblems(submitted, result.ok, result.diagnostics)).toEqual([]);
      expect(result.ok).toBe(true);
    }
  });

  it("a 17 MB text is refused with PLAN_LIMIT at the document", () => {
    const text = JSON.stringify(bigPlan(17 * 1024 * 1024));
    const result = compile(text, registry, { context });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["PLAN_LIMIT", ""]]);
  });

  it("a string over the default 1,000,000 characters is PLAN_LIMIT at that string", () => {
    const plan = { type: "plan", plan: [{ _tool: "greet", _id: "g", name: "n".repeat(1_000_001) }] };
    for (const submitted of [plan, JSON.stringify(plan)]) {
      const result = compile(submitted, registry, { context });
      expect(diagnosticProblems(submitted, result.ok, result.diagnostics)).toEqual([]);
      expect(result.diagnostics.map((d) => [d.code, d.pointer])).toContainEqual([
        "PLAN_LIMIT",
        "/plan/0/name",
      ]);
    }
  });

  it("10,000 levels of nesting (value and text) are PLAN_LIMIT, not a stack overflow", () => {
    let deep: unknown = 1;
    for (let level = 0; level < 10_000; level += 1) deep = [deep];
    const plan = { type: "plan", plan: [{ _tool: "echo", _id: "e", deep }] };
    for (const submitted of [
      plan,
      `{"type":"plan","plan":[{"_tool":"echo","deep":${"[".repeat(10_000)}${"]".repeat(10_000)}}]}`,
    ]) {
      const result = compile(submitted, registry, { context });
      expect(diagnosticProblems(submitted, result.ok, result.diagnostics)).toEqual([]);
      expect(result.diagnostics.map((d) => d.code)).toContain("PLAN_LIMIT");
    }
  });
});

describe("front door: pathological but small documents (bugs B6, B7, fixed; see docs/reliability.md)", () => {
  // B6 (fixed) — packages/compiler: every reader of a path got one edge and one WriterLink per writer of it, so
  // W accumulating writers (push) and R readers of one path made W×R (1,000 + 1,000 calls: 1,000,000 edges,
  // ~6 s, 630 MB). Now all readers of one reference text share ONE writer list (a "writer group" hub in the
  // compiler's internal DAG: W + R links); the graphology `graph`, built only when accessed, draws such a group
  // through a join node (decision 0080: W + R edges; it had W×R).
  it("B6: many accumulating writers × many readers of one path share one writer list (O(W + R) links)", () => {
    const w = 1_000;
    const r = 1_000;
    const plan = [
      ...Array.from({ length: w }, (_, i) => ({
        _tool: "echo",
        _id: `w${i}`,
        _outputPath: "†state.items",
        _outputMethod: "push",
      })),
      ...Array.from({ length: r }, (_, i) => ({ _tool: "echo", _id: `r${i}`, items: "†state.items" })),
    ];
    const result = compile({ type: "plan", plan }, registry, { context });
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const lists = new Set<unknown>();
    const links = new Set<unknown>();
    for (const call of result.calls)
      for (const list of call.writers.values()) {
        lists.add(list);
        for (const link of list) links.add(link);
      }
    expect(lists.size).toBe(1);
    expect(links.size).toBe(w);
    const reader = result.calls.find((call) => call.id === "r0");
    expect(reader?.writers.get("†state.items")?.map((link) => link.callId)).toEqual(
      Array.from({ length: w }, (_, i) => `w${i}`),
    );
  });
  // B7 (fixed) — packages/compiler, OUTPUT_CONFLICT detection: n calls writing one path with `set` gave ~20n
  // diagnostics in super-linear time (20,000 calls: 17 s). Rule now: each later conflicting writer gets one
  // OUTPUT_CONFLICT naming the first writer (related: [first, later]), found in O(path length).
  it("B7: thousands of calls writing one path give n − 1 OUTPUT_CONFLICT diagnostics, each naming the first", () => {
    const n = 5_000;
    const plan = Array.from({ length: n }, (_, i) => ({
      _tool: "echo",
      _id: `w${i}`,
      _outputPath: "†state.x",
    }));
    const result = compile({ type: "plan", plan }, registry, { context });
    const conflicts = result.diagnostics.filter((d) => d.code === "OUTPUT_CONFLICT");
    expect(conflicts).toHaveLength(n - 1);
    expect(conflicts.every((d, i) => d.related?.[0] === "w0" && d.related?.[1] === `w${i + 1}`)).toBe(true);
  });
});
