import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { cycleSearches } from "./plan-dag.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry([{ name: "t", run: () => 1 }]);
type Call = Record<string, string>;

/** Streams `calls` into a new incremental compiler: the ok of each, and the calls the cycle searches visited. */
function stream(calls: readonly Call[]): { readonly ok: boolean[]; readonly visited: number } {
  const compiler = createIncrementalCompiler(registry);
  const before = cycleSearches.visited;
  const ok = calls.map((call) => compiler.addCall(call).ok);
  return { ok, visited: cycleSearches.visited - before };
}

/** Call i reads what call i + 1 writes: every reader arrives before its writer (security review H2). */
const reverseChain = (n: number): Call[] =>
  Array.from({ length: n }, (_, i) => ({
    _tool: "t",
    _id: `c${i}`,
    v: `†state.p${i + 1}`,
    _outputPath: `†state.p${i}`,
  }));

/** The same, and every call also reads one shared path the first call writes. */
const reverseChainWithRoot = (n: number): Call[] => [
  { _tool: "t", _id: "root", _outputPath: "†state.root" },
  ...Array.from({ length: n - 1 }, (_, i) => ({
    _tool: "t",
    _id: `c${i}`,
    v: `†state.p${i + 1}`,
    w: "†state.root",
    _outputPath: `†state.p${i}`,
  })),
];

/**
 * A chain `s` of n/2 calls in plan order, a chain `w` of n/4 calls, then n/4 calls `x_j` that read `w_j` and
 * push into the path the chain's first call reads: each is a writer for the whole chain `s` (searching
 * the readers' side moves all of `s` every time; the writers' side holds one call).
 */
function ladder(n: number): Call[] {
  const k = n / 2;
  const calls: Call[] = [];
  for (let i = 0; i < k; i++)
    calls.push({
      _tool: "t",
      _id: `s${i}`,
      v: i === 0 ? "†state.top" : `†state.s${i - 1}`,
      _outputPath: `†state.s${i}`,
    });
  calls.push({ _tool: "t", _id: "w0", _outputPath: "†state.w0" });
  for (let j = 1; j < k / 2; j++)
    calls.push({ _tool: "t", _id: `w${j}`, v: `†state.w${j - 1}`, _outputPath: `†state.w${j}` });
  for (let j = 1; j < k / 2; j++)
    calls.push({
      _tool: "t",
      _id: `x${j}`,
      v: `†state.w${j}`,
      _outputPath: "†state.top",
      _outputMethod: "push",
    });
  return calls;
}

/**
 * The mirror image: a reverse chain `a` of n/2 calls (so `a0`, which all of it feeds, is labelled last),
 * then n/6 times: `q_j` reading `z_j`, `z_j` reading `y_j` (placed first: it has a reader and no writer),
 * and `y_j` reading `a0`: each `y_j`'s writers' side is the whole chain `a`, its readers' side `z_j`.
 */
function mirrorLadder(n: number): Call[] {
  const k = n / 2;
  const calls: Call[] = reverseChain(k).map((call) => ({
    ...call,
    _id: call._id?.replace("c", "a") ?? "",
    v: call.v?.replace("p", "a") ?? "",
    _outputPath: call._outputPath?.replace("p", "a") ?? "",
  }));
  for (let j = 0; calls.length + 3 <= n; j++) {
    calls.push({ _tool: "t", _id: `q${j}`, v: `†state.z${j}`, _outputPath: `†state.q${j}` });
    calls.push({ _tool: "t", _id: `z${j}`, v: `†state.y${j}`, _outputPath: `†state.z${j}` });
    calls.push({ _tool: "t", _id: `y${j}`, v: "†state.a0", _outputPath: `†state.y${j}` });
  }
  return calls;
}

describe("streaming cycle check: the work stays linear when readers arrive before their writers", () => {
  // The whole-graph search visited ~n²/2 calls for each of these (4.5 M at 3,000; 122 s of CPU at 20,000).
  it.each([
    ["a reverse chain", reverseChain],
    ["a reverse chain that also reads a shared path", reverseChainWithRoot],
    ["a chain fed by many late writers", ladder],
    ["a chain read by many early readers", mirrorLadder],
  ])("%s of 1,000 calls: every call added, at most 8 calls visited per call", (_name, make) => {
    const calls = make(1_000);
    const { ok, visited } = stream(calls);
    expect(ok.every(Boolean)).toBe(true);
    expect(visited).toBeLessThanOrEqual(8 * calls.length);
  });

  it("a call closing a long cycle after the order was rearranged is still refused with the whole cycle", () => {
    const compiler = createIncrementalCompiler(registry);
    for (const call of reverseChain(1_000)) expect(compiler.addCall(call).ok).toBe(true);
    // c999 → … → c0 (each reads the next); closing it: z reads †state.p0 and writes what c999 reads
    const refused = compiler.addCall({ _tool: "t", _id: "z", v: "†state.p0", _outputPath: "†state.p1000" });
    expect(refused.ok).toBe(false);
    const cycle = refused.diagnostics.find((d) => d.code === "CYCLE");
    expect(cycle?.related).toEqual(["z", ...Array.from({ length: 1_000 }, (_, i) => `c${999 - i}`)]);
    // the same call without the closing read is added: it goes before c999 in the order
    expect(compiler.addCall({ _tool: "t", _id: "z", _outputPath: "†state.p1000" }).ok).toBe(true);
  });
});

const callArb = (n: number) =>
  fc.record({
    reads: fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: 3 }),
    list: fc.option(fc.integer({ min: 0, max: 1 }), { nil: undefined }),
    readsList: fc.option(fc.integer({ min: 0, max: 1 }), { nil: undefined }),
  });

/**
 * Streams of calls that read calls added before or after them, some of them accumulating into one of two
 * lists (commit order): a call is refused for CYCLE exactly when the batch compile of the calls added so far
 * and it finds a cycle, and the calls added are always acyclic.
 */
describe("streaming cycle check: refusals are exactly the cycles (property)", () => {
  it("refused ⇔ the batch compile of the added calls plus it has a CYCLE", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 16 }).chain((n) => fc.array(callArb(n), { minLength: n, maxLength: n })),
        (specs) => {
          const plan: Call[] = specs.map((spec, i) => {
            const call: Call = { _tool: "t", _id: `c${i}` };
            spec.reads.forEach((j, k) => {
              call[`r${k}`] = `†state.p${j}`;
            });
            if (spec.readsList !== undefined) call.l = `†state.l${spec.readsList}`;
            if (spec.list === undefined) call._outputPath = `†state.p${i}`;
            else Object.assign(call, { _outputPath: `†state.l${spec.list}`, _outputMethod: "push" });
            return call;
          });
          const compiler = createIncrementalCompiler(registry);
          const added: Call[] = [];
          for (const call of plan) {
            const result = compiler.addCall(call);
            const batch = compile({ plan: [...added, call] }, registry);
            const batchCycle = batch.diagnostics.some((d) => d.code === "CYCLE");
            expect(result.diagnostics.some((d) => d.code === "CYCLE")).toBe(batchCycle);
            expect(result.ok).toBe(!batchCycle);
            if (result.ok) added.push(call);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
