import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);

/** A `log` call pushing `message` (a literal or a `{†…}` template) to `outputPath`. */
const push = (id: string, message: string, outputPath: string) => ({
  _tool: "log",
  _id: id,
  message,
  _outputPath: outputPath,
  _outputMethod: "push",
});

const cycles = (plan: readonly unknown[]) =>
  compile(plan, registry).diagnostics.filter((d) => d.code === "CYCLE");

/** Streaming: the diagnostics of each call added in turn. */
const streamed = (plan: readonly unknown[]) => {
  const compiler = createIncrementalCompiler(registry);
  return plan.map((call) => compiler.addCall(call));
};

/** w0 reads what w1 (a later co-writer of †state.N) writes: w1 cannot commit before w0, which waits for it. */
const DEADLOCK = [push("w0", "{†state.N}", "†state.N"), push("w1", "b", "†state.N")];

/** w0 waits for m, m for e, which only the later co-writer w1 writes (its second alternative). */
const TRANSITIVE = [
  push("w0", "{†state.m}", "†state.P"),
  { _tool: "log", _id: "m", message: "{†state.e}", _outputPath: "†state.m" },
  push("w1", "b", "†state.P || †state.e"),
];

describe("accumulating co-writers commit in plan order: a read against that order is a CYCLE", () => {
  it("an earlier co-writer reading a later one's target: CYCLE w0 → w1 → w0 at w0, the plan order explained", () => {
    const [cycle, ...others] = cycles(DEADLOCK);
    expect(others).toEqual([]);
    expect(cycle?.pointer).toBe("/0");
    expect(cycle?.related).toEqual(["w0", "w1"]);
    expect(cycle?.hint).toMatch(/^w0 → w1 → w0: list w0 after w1/);
    expect(cycle?.message).toContain("w0 → w1 is plan order");
    expect(cycle?.message).toContain("†state.N");
  });

  it("transitively, through another call and another alternative of the later co-writer", () => {
    const [cycle] = cycles(TRANSITIVE);
    expect(cycle?.hint).toMatch(/^w0 → w1 → m → w0: list w0 after w1/);
  });

  it("no cycle when the later co-writer reads the earlier one, or the reader comes after both", () => {
    expect(cycles([push("w0", "a", "†state.M"), push("w1", "{†state.M}", "†state.M")])).toEqual([]);
    const between = [
      push("w0", "a", "†state.P"),
      { _tool: "log", _id: "mid", message: "{†state.Q}", _outputPath: "†state.mid" },
      push("w1", "{†state.mid}", "†state.P"),
      { _tool: "log", _id: "q", message: "1", _outputPath: "†state.Q" },
    ];
    expect(compile(between, registry).ok).toBe(true);
    const reordered = [DEADLOCK[1], DEADLOCK[0]];
    expect(compile(reordered, registry).ok).toBe(true);
  });

  it("the commit order is no edge of the exported graph and leaves critical paths alone", () => {
    const plan = [
      push("a", "x", "†state.L"),
      push("b", "y", "†state.L"),
      push("c", "{†state.z}", "†state.L"),
    ];
    const compiled = compile(
      [...plan, { _tool: "log", _id: "z", message: "1", _outputPath: "†state.z" }],
      registry,
    );
    expect(compiled.ok).toBe(true);
    expect(compiled.graph.edges().map((edge) => compiled.graph.extremities(edge))).toEqual([["z", "c"]]);
    expect([...(compiled.criticalPaths ?? new Map())]).toEqual([
      ["a", 1],
      ["b", 1],
      ["c", 1],
      ["z", 2],
    ]);
  });

  it("streaming refuses the call that closes it, directly or through a commit between earlier calls", () => {
    const [first, second] = streamed(DEADLOCK);
    expect(first?.ok).toBe(true);
    expect(second?.diagnostics.map((d) => [d.code, d.pointer, d.hint?.split(":")[0]])).toEqual([
      ["CYCLE", "/plan/1", "w1 → w0 → w1"],
    ]);
    expect(second?.diagnostics[0]?.message).toContain("w0 → w1 is plan order");
    // c closes a → b (commit order) → c (reads e) → a (reads x): the search crosses the a → b commit.
    const through = streamed([
      push("a", "{†state.x}", "†state.P"),
      push("b", "1", "†state.P || †state.e"),
      { _tool: "log", _id: "c", message: "{†state.e}", _outputPath: "†state.x" },
    ]);
    expect(through.map((result) => result.ok)).toEqual([true, true, false]);
    expect(through[2]?.diagnostics[0]?.hint?.split(":")[0]).toBe("c → a → b → c");
  });
});

/** Calls of a few shared lists (push), reading any call's output, earlier or later. */
const coWriterArb = fc.record({
  list: fc.integer({ min: 0, max: 2 }),
  alternatives: fc.integer({ min: 1, max: 2 }),
  reads: fc.array(fc.nat(), { maxLength: 2 }),
});

describe("batch and incremental agree on cycles through the commit order", () => {
  it("batch reports CYCLE exactly when streaming refuses a call for one", () => {
    fc.assert(
      fc.property(fc.array(coWriterArb, { minLength: 1, maxLength: 8 }), (specs) => {
        const plan = specs.map((spec, i) => {
          const reads = spec.reads.map((r) => `{†state.own${r % specs.length}}`);
          const own = spec.alternatives === 2 ? ` || †state.own${i}` : "";
          return push(`c${i}`, reads.length === 0 ? "x" : reads.join("-"), `†state.list${spec.list}${own}`);
        });
        const batch = compile(plan, registry);
        const refused = streamed(plan).some((result) => result.diagnostics.some((d) => d.code === "CYCLE"));
        expect(batch.diagnostics.some((d) => d.code === "CYCLE")).toBe(refused);
        expect(batch.ok).toBe(!refused);
      }),
      { numRuns: 300 },
    );
  });
});
