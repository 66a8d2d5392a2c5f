import { describe, expect, it } from "vitest";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry([{ name: "t", run: () => 1 }]);

/** A stream of calls of tool `t` that must all be added. */
function streamOf(calls: readonly Record<string, unknown>[]) {
  const compiler = createIncrementalCompiler(registry);
  for (const call of calls)
    expect(compiler.addCall({ _tool: "t", ...call }).diagnostics).not.toContainEqual(
      expect.objectContaining({ severity: "error" }),
    );
  return compiler;
}

/** `call` (of tool `t`) is refused by the stream with a CYCLE naming `related`. */
function expectCycleRefused(
  compiler: ReturnType<typeof streamOf>,
  call: Record<string, unknown>,
  related: readonly string[],
): void {
  const refused = compiler.addCall({ _tool: "t", ...call });
  expect(refused.ok).toBe(false);
  expect(refused.diagnostics[0]).toMatchObject({ code: "CYCLE", related });
}

/** Five calls reading `†state.g` (a list of readers kept in place), `first` first. */
const readersOfG = (first: Record<string, unknown>) => [
  { ...first, g: "†state.g" },
  ...[1, 2, 3, 4].map((i) => ({ _id: `f${i}`, g: "†state.g", _outputPath: `†state.f${i}` })),
];

// The check of a call finds the earliest reader of what it writes and the latest writer of what it reads in
// the stream's order, each kept per list as calls arrive; these streams move one of them after it was kept.
/** Five chains a<i> → a<i>c1 → a<i>c2 → a<i>c3, each starting from a reader of †state.h. */
function fiveChainsFromH(): Record<string, unknown>[] {
  return [1, 2, 3, 4, 5].flatMap((i) => [
    { _id: `a${i}`, v: "†state.h", _outputPath: `†state.a${i}` },
    ...[1, 2, 3].map((j) => ({
      _id: `a${i}c${j}`,
      v: j === 1 ? `†state.a${i}` : `†state.a${i}c${j - 1}`,
      _outputPath: `†state.a${i}c${j}`,
    })),
  ]);
}

describe("a stream's cycle check after readers or writers of a path moved in the order", () => {
  it("refuses a cycle through a reader that is now the earliest because the earliest one moved later", () => {
    const compiler = streamOf([
      { _id: "z0", _outputPath: "†state.zz" },
      ...readersOfG({ _id: "e", u: "†state.u", _outputPath: "†state.e" }),
      { _id: "p", _outputPath: "†state.p" },
      // a writer of †state.g whose predecessor goes first: its check keeps e as †state.g's earliest reader
      { _id: "W1", v: "†state.zz", _outputPath: "†state.g.k1" },
      { _id: "y", _outputPath: "†state.y" },
      // e reads what X writes and X reads y, sent last: e moves after X, the f's stay before p
      { _id: "X", v: "†state.y", _outputPath: "†state.u.x" },
      { _id: "W2", v: "†state.p", w: "†state.w", _outputPath: "†state.g.k2" },
    ]);
    expectCycleRefused(compiler, { _id: "Q", v: "†state.f1", _outputPath: "†state.w" }, ["Q", "W2", "f1"]);
  });

  it("refuses a cycle through a reader that is now the earliest because it moved earlier", () => {
    const compiler = streamOf([
      { _id: "z0", _outputPath: "†state.zz" },
      ...fiveChainsFromH(),
      ...readersOfG({ _id: "y0", _outputPath: "†state.y0" }).reverse(),
      { _id: "e0", _outputPath: "†state.e0" },
      { _id: "G1", v: "†state.e0", _outputPath: "†state.g.k1" },
      // its predecessor goes first: the check keeps f4 as †state.g's earliest reader
      { _id: "G2", v: "†state.zz", _outputPath: "†state.g.k2" },
      // X's readers (the a's) have more descendants than y0 has ancestors: y0 moves before a1, so before the f's
      { _id: "X", v: "†state.y0", _outputPath: "†state.h.x" },
    ]);
    expectCycleRefused(compiler, { _id: "G3", v: "†state.y0", _outputPath: "†state.g.k3" }, ["G3", "y0"]);
  });

  it("refuses a cycle through a writer that is now its path's latest because it moved later", () => {
    const compiler = streamOf([
      { _id: "z0", _outputPath: "†state.zz" },
      { _id: "E", v: "†state.rr", _outputPath: "†state.e" },
      { _id: "m", v: "†state.mm", _outputPath: "†state.g.m" },
      { _id: "gw1", _outputPath: "†state.g.k" },
      // its check keeps gw1 as the latest writer of †state.g
      { _id: "R", v: "†state.g", _outputPath: "†state.rr" },
      { _id: "L", _outputPath: "†state.late" },
      // m reads what X writes and X reads L, sent last: m moves after X, past gw1
      { _id: "X", v: "†state.late", _outputPath: "†state.mm.x" },
    ]);
    expectCycleRefused(compiler, { _id: "Y", v: "†state.g", _outputPath: "†state.mm.y" }, ["Y", "m"]);
  });

  it("refuses a cycle through a writer that is now its path's latest because the latest one moved earlier", () => {
    const compiler = streamOf([
      { _id: "E2", v: "†state.rg", _outputPath: "†state.e2" },
      ...fiveChainsFromH(),
      { _id: "w", v: "†state.ww", _outputPath: "†state.g.w" },
      { _id: "L", _outputPath: "†state.g.l" },
      { _id: "P", v: "†state.g.l", _outputPath: "†state.p" },
      // its check keeps L as the latest writer of †state.g
      { _id: "Rg", v: "†state.g", _outputPath: "†state.rg" },
      // X's readers (the a's) have more descendants than P has ancestors (P, L): both move before a1, so L before w
      { _id: "X", v: "†state.p", _outputPath: "†state.h.x" },
    ]);
    expectCycleRefused(compiler, { _id: "Y", v: "†state.g", _outputPath: "†state.ww.y" }, ["Y", "w"]);
  });
});
