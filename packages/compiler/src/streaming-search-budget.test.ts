import { describe, expect, it } from "vitest";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { cycleSearches } from "./plan-dag.js";
import { SEARCH_VISITS, SEARCH_VISITS_PER_CALL } from "./streaming-order.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry([{ name: "t", run: () => 1 }]);
const LENGTH = 5000;

/** A stream holding a chain c0 → … → c4999 whose first call reads `†state.b`, which nothing writes yet. */
function chainStream(): ReturnType<typeof createIncrementalCompiler> {
  const stream = createIncrementalCompiler(registry);
  for (let i = 0; i < LENGTH; i++)
    stream.addCall({
      _tool: "t",
      _id: `c${i}`,
      v: i === 0 ? "†state.b" : `†state.a${i - 1}`,
      _outputPath: `†state.a${i}`,
    });
  return stream;
}

/** A call that reads the chain's end and writes what its start reads: it would close a 5,001-call cycle. */
const closing = (k: number): Record<string, string> => ({
  _tool: "t",
  _id: `r${k}`,
  v: `†state.a${LENGTH - 1}`,
  _outputPath: "†state.b",
});

describe("a stream's cycle searches have a budget (decision 0078)", () => {
  it("refuses calls that keep closing a long cycle with CYCLE, then with PLAN_LIMIT once the searches visited their limit", () => {
    const stream = chainStream();
    const before = cycleSearches.visited;
    const codes: string[] = [];
    for (let k = 0; k < 400; k++) {
      const answer = stream.addCall(closing(k));
      expect(answer.ok).toBe(false);
      codes.push(answer.diagnostics.map((d) => d.code).join(","));
    }
    const cycles = codes.filter((code) => code === "CYCLE").length;
    expect(cycles).toBeGreaterThan(10);
    expect(codes).toEqual([
      ...Array<string>(cycles).fill("CYCLE"),
      ...Array<string>(400 - cycles).fill("PLAN_LIMIT"),
    ]);
    // The searches stop within one search (a few times the cycle's length) of the budget.
    const budget = SEARCH_VISITS + SEARCH_VISITS_PER_CALL * LENGTH;
    expect(cycleSearches.visited - before).toBeLessThan(budget + 10 * LENGTH);
    const limit = stream.addCall(closing(400)).diagnostics[0];
    expect(limit).toMatchObject({
      code: "PLAN_LIMIT",
      severity: "error",
      pointer: `/plan/${LENGTH + 400}`,
      callId: "r400",
      hint: "send each call before the calls that read what it writes, or close this stream and send the whole plan at once (a plan compiled in one piece has no such limit)",
    });
  }, 30_000);

  it("still takes calls that need no search once the budget is spent", () => {
    const stream = chainStream();
    for (let k = 0; k < 400; k++) stream.addCall(closing(k));
    const next = stream.addCall({
      _tool: "t",
      _id: "tail",
      v: `†state.a${LENGTH - 1}`,
      _outputPath: "†state.tail",
    });
    expect(next).toMatchObject({ ok: true, diagnostics: [] });
    const closed = stream.close();
    expect(closed.calls).toHaveLength(LENGTH + 1);
    // Only the refusals' diagnostics: the plan itself (the chain and its tail) is fine.
    expect(new Set(closed.diagnostics.map((d) => d.code))).toEqual(new Set(["CYCLE", "PLAN_LIMIT"]));
    expect(closed.diagnostics.every((d) => d.callId?.startsWith("r"))).toBe(true);
  }, 30_000);

  it("counts the predecessors a search passes over (decision 0084): many of them end the stream's searches", () => {
    const stream = createIncrementalCompiler(registry);
    // 4,000 writers of †state.b, first in the order: each search below passes over them all
    for (let i = 0; i < 4_000; i++)
      stream.addCall({ _tool: "t", _id: `e${i}`, _outputPath: `†state.b.e${i}` });
    const answers: string[] = [];
    for (let j = 0; j < 400 && !answers.at(-1)?.startsWith("PLAN_LIMIT"); j++) {
      // r reads what c writes and has 9 readers (too many for the first search from it); p comes after them
      stream.addCall({ _tool: "t", _id: `r${j}`, v: `{†state.a.x${j}}`, _outputPath: `†state.r${j}` });
      for (let k = 0; k < 9; k++) stream.addCall({ _tool: "t", _id: `d${j}_${k}`, v: `{†state.r${j}}` });
      stream.addCall({ _tool: "t", _id: `p${j}`, _outputPath: `†state.p${j}` });
      const answer = stream.addCall({
        _tool: "t",
        _id: `c${j}`,
        v: `{†state.b} {†state.p${j}}`,
        _outputPath: `†state.a.x${j}`,
      });
      answers.push(answer.diagnostics.map((d) => `${d.code} ${d.callId}`).join(","));
    }
    // ~4,000 passed over per search: the budget (1,000,000 + 20 per call) is spent after ~290 searches
    expect(answers.length).toBeGreaterThan(200);
    expect(answers.slice(0, -1)).toEqual(Array<string>(answers.length - 1).fill(""));
    expect(answers.at(-1)).toBe(`PLAN_LIMIT c${answers.length - 1}`);
  }, 30_000);
});
