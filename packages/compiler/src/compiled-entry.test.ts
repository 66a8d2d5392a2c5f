import { describe, expect, it } from "vitest";
import type { BuilderSettings, CallEntry, WriterEntry } from "./builder-types.js";
import { compile } from "./compile.js";
import type { PlanBuilderOptions } from "./plan-builder.js";
import { PlanBuilderState } from "./plan-builder-state.js";
import { createToolRegistry } from "./tool-registry.js";
import { CompiledEntry, IndexedWriter } from "./writer-entry.js";

const registry = createToolRegistry([{ name: "t", cost: 3, run: () => 1 }]);

/** The writer index of a builder state, as a test sees it. */
class Probe extends PlanBuilderState {
  index(entry: CallEntry): void {
    this.indexTargets(entry, []);
  }
  found(path: string[]): WriterEntry[] {
    return this.writers.collectOverlapping("state", path, []);
  }
}

describe("CompiledEntry", () => {
  it("is its call's entry and the writer entry of its first target; later targets get their own", () => {
    const plan = {
      plan: [{ _tool: "t", _id: "a", _outputPath: "†state.x || †state.y", _outputMethod: "merge" }],
    };
    const call = compile(plan, registry).calls[0];
    const tool = registry.get("t");
    if (call?.outputPath === undefined || tool === undefined) throw new Error("not compiled");
    const entry = new CompiledEntry(call, tool, 7, call.outputPath.alternatives);
    expect([entry.id, entry.index, entry.cost, entry.position, entry.writers]).toEqual([
      "a",
      0,
      3,
      7,
      call.writers,
    ]);
    expect([entry.callId, entry.alternative, entry.target.text, entry.method, entry.total]).toEqual([
      "a",
      0,
      "†state.x",
      "merge",
      2,
    ]);
    const probe = new Probe(registry, {} as BuilderSettings, {} as PlanBuilderOptions);
    probe.index(entry);
    expect(probe.found(["x"])).toEqual([entry]);
    expect(probe.found(["x"])[0]).toBe(entry);
    const [second] = probe.found(["y"]);
    expect(second instanceof IndexedWriter && [second.entry, second.alternative, second.callId]).toEqual([
      entry,
      1,
      "a",
    ]);
  });
});
