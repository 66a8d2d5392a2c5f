import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const push = (id: string, message = "m") => ({
  _tool: "log",
  _id: id,
  message,
  _outputPath: "†state.items",
  _outputMethod: "push",
});
const read = (id: string) => ({ _tool: "log", _id: id, message: "{†state.items}" });
const writerIds = (
  calls: readonly { id: string; writers: ReadonlyMap<string, readonly { callId: string }[]> }[],
  id: string,
) =>
  calls
    .find((call) => call.id === id)
    ?.writers.get("†state.items")
    ?.map((link) => link.callId);

describe("writer groups (bug B6)", () => {
  it("readers of one path share one writer list, in plan order, with readers before and after writers", () => {
    const result = compile(
      { type: "plan", plan: [read("r0"), push("a"), read("r1"), push("b"), read("r2")] },
      registry,
    );
    expect(result.ok).toBe(true);
    for (const id of ["r0", "r1", "r2"]) expect(writerIds(result.calls, id)).toEqual(["a", "b"]);
    const lists = new Set(result.calls.flatMap((call) => [...call.writers.values()]));
    expect(lists.size).toBe(1);
    expect(result.graph.size).toBe(6);
    expect(result.criticalPaths?.get("a")).toBe(2);
  });

  it("a writer that reads the path it writes does not depend on itself; other readers see it", () => {
    const plan = [push("a"), push("b", "{†state.items}"), read("r"), push("c")];
    const result = compile({ type: "plan", plan }, registry);
    // b waits for c's contribution, and c commits only after b (plan order): that is a cycle, not b → b.
    expect(result.diagnostics.filter((d) => d.code === "CYCLE").map((d) => d.related)).toEqual([["b", "c"]]);
    expect(writerIds(result.calls, "b")).toEqual(["a", "c"]);
    expect(writerIds(result.calls, "r")).toEqual(["a", "b", "c"]);
    expect(result.graph.hasEdge("b", "b")).toBe(false);
  });

  it("streaming: a later writer joins the shared list; the live graph follows", () => {
    const compiler = createIncrementalCompiler(registry);
    compiler.addCall(read("r0"));
    compiler.addCall(read("r1"));
    expect(compiler.graph.size).toBe(0);
    compiler.addCall(push("a"));
    expect(compiler.graph.size).toBe(2);
    const closed = compiler.close();
    expect(writerIds(closed.calls, "r0")).toEqual(["a"]);
    expect(writerIds(closed.calls, "r1")).toEqual(["a"]);
  });

  it("streaming: a writer that would close a cycle through a shared list is refused", () => {
    const compiler = createIncrementalCompiler(registry);
    compiler.addCall({ _tool: "log", _id: "x", message: "{†state.items}", _outputPath: "†state.x" });
    const refused = compiler.addCall(push("y", "{†state.x}"));
    expect(refused.ok).toBe(false);
    expect(refused.diagnostics.map((d) => [d.code, d.hint])).toEqual([
      [
        "CYCLE",
        "y → x → y: x reads †state.items (written by y); y reads †state.x (written by x). Remove one of these reads, or have one of the calls write another path",
      ],
    ]);
    expect(compiler.graph.hasNode("y")).toBe(false);
  });

  describe("calls that each read a path and write below it (decision 0042)", () => {
    const selfReader = (id: string) => ({
      _tool: "log",
      _id: id,
      message: "{†state}",
      _outputPath: `†state.${id}`,
    });
    const plan = ["c0", "c1", "c2", "c3"].map(selfReader);
    const stateWriters = (
      calls: readonly { id: string; writers: ReadonlyMap<string, readonly { callId: string }[]> }[],
      id: string,
    ) => calls.find((call) => call.id === id)?.writers.get("†state");

    it("are one CYCLE, named as before, with every pair of them an edge and no self-loop", () => {
      const result = compile({ type: "plan", plan }, registry);
      const cycles = result.diagnostics.filter((d) => d.code === "CYCLE");
      expect(cycles.map((d) => [d.message, d.related])).toEqual([
        ["calls form a cycle: c0 → c1 → c0", ["c0", "c1"]],
      ]);
      expect(result.diagnostics.map((d) => d.code)).toEqual(["CYCLE"]);
      for (const writer of ["c0", "c1", "c2", "c3"])
        for (const reader of ["c0", "c1", "c2", "c3"])
          expect(result.graph.hasEdge(writer, reader), `${writer} → ${reader}`).toBe(writer !== reader);
    });

    it("share one writer list after the first of them, so n of them cost n links, not n²", () => {
      const result = compile({ type: "plan", plan }, registry);
      // the first keeps its own list, without itself
      expect(stateWriters(result.calls, "c0")?.map((link) => link.callId)).toEqual(["c1", "c2", "c3"]);
      const shared = stateWriters(result.calls, "c1");
      expect(shared?.map((link) => link.callId)).toEqual(["c0", "c1", "c2", "c3"]);
      expect(stateWriters(result.calls, "c2")).toBe(shared);
      expect(stateWriters(result.calls, "c3")).toBe(shared);
    });

    it("accumulating co-writers that read their accumulator too", () => {
      const merger = (id: string) => ({
        _tool: "fetchUser",
        _id: id,
        userId: "{†state.profile}",
        _outputPath: "†state.profile",
        _outputMethod: "merge",
      });
      const result = compile({ type: "plan", plan: ["m0", "m1", "m2"].map(merger) }, registry);
      expect(result.diagnostics.map((d) => [d.code, d.message])).toEqual([
        ["CYCLE", "calls form a cycle: m0 → m1 → m0"],
      ]);
      expect(result.graph.hasEdge("m1", "m1")).toBe(false);
      expect(result.graph.hasEdge("m2", "m1")).toBe(true);
    });

    it("streaming refuses the second of them, as a batch compile reports the cycle", () => {
      const compiler = createIncrementalCompiler(registry);
      expect(compiler.addCall(selfReader("c0")).ok).toBe(true);
      const refused = compiler.addCall(selfReader("c1"));
      expect(refused.diagnostics.map((d) => [d.code, d.message])).toEqual([
        ["CYCLE", 'adding call "c1" would close a cycle: c1 → c0 → c1'],
      ]);
      expect(compiler.graph.hasNode("c1")).toBe(false);
    });
  });
});
