import { describe, expect, it } from "vitest";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry([{ name: "t", run: () => 1 }]);
const pusher = (id: string) => ({ _tool: "t", _id: id, _outputPath: "†state.acc", _outputMethod: "push" });
const elementReader = (id: string, index: number) => ({
  _tool: "t",
  _id: id,
  v: `†state.acc.${index}`,
  _outputPath: `†state.${id}`,
});
/** k pushers into one list, then n readers of its elements under n different references: n × k links. */
const elementsOfList = (k: number, n: number) => [
  ...Array.from({ length: k }, (_, i) => pusher(`w${i}`)),
  ...Array.from({ length: n }, (_, i) => elementReader(`r${i}`, i)),
];

describe("maxWriterLinks: what validating a plan's references may cost is bounded", () => {
  it("at the limit the plan compiles; one link over, PLAN_LIMIT alone at the call that crosses it", () => {
    const plan = { plan: elementsOfList(3, 4) }; // 4 distinct references × 3 writers
    expect(compile(plan, registry, { limits: { maxWriterLinks: 12 } }).ok).toBe(true);
    const over = compile(plan, registry, { limits: { maxWriterLinks: 11 } });
    expect(over.ok).toBe(false);
    expect(over.diagnostics.map((d) => [d.code, d.severity, d.pointer])).toEqual([
      ["PLAN_LIMIT", "error", "/plan/6"],
    ]);
    expect(over.diagnostics[0]?.message).toContain("more than 11 links");
    expect(over.diagnostics[0]?.hint).toContain("raise maxWriterLinks");
    expect(over.calls).toEqual([]);
    expect(over.graph.order).toBe(0);
  });

  it("readers of one reference share its links: a thousand-reader fan-in counts its writers once", () => {
    const readers = Array.from({ length: 1_000 }, (_, i) => ({
      _tool: "t",
      _id: `r${i}`,
      v: "†state.acc",
      _outputPath: `†state.r${i}`,
    }));
    const plan = { plan: [pusher("w0"), pusher("w1"), ...readers] };
    expect(compile(plan, registry, { limits: { maxWriterLinks: 2 } }).ok).toBe(true);
  });

  it("counts links made when a later writer joins the readers before it", () => {
    const plan = { plan: [elementReader("r0", 0), elementReader("r1", 1), pusher("w0")] };
    expect(compile(plan, registry, { limits: { maxWriterLinks: 2 } }).ok).toBe(true);
    const over = compile(plan, registry, { limits: { maxWriterLinks: 1 } });
    expect(over.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["PLAN_LIMIT", "/plan/2"]]);
  });

  it("streaming refuses the call that would cross it, and takes later ones that fit", () => {
    const compiler = createIncrementalCompiler(registry, { limits: { maxWriterLinks: 2 } });
    for (const call of [pusher("w0"), pusher("w1"), elementReader("r0", 0)])
      expect(compiler.addCall(call).ok).toBe(true);
    const refused = compiler.addCall(elementReader("r1", 1));
    expect(refused.ok).toBe(false);
    expect(refused.diagnostics.map((d) => d.code)).toEqual(["PLAN_LIMIT"]);
    expect(compiler.addCall({ _tool: "t", _id: "free", v: 1, _outputPath: "†state.free" }).ok).toBe(true);
    const closed = compiler.close();
    // the refusal stays among the run's diagnostics, as a refused cycle's does
    expect(closed.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["PLAN_LIMIT", "/plan/3"]]);
    expect(closed.calls.map((call) => call.id)).toEqual(["w0", "w1", "r0", "free"]);
  });
});
