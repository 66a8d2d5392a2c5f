import { describe, expect, it } from "vitest";
import { compile } from "./compile.js";
import { NO_ITEMS, outGroupAt, outGroupCount, WriterGroup, withOutGroup } from "./plan-dag.js";
import { createToolRegistry } from "./tool-registry.js";

const reference = (name: string) => ({ kind: "state", path: [name], text: `†state.${name}` });

describe("a call's out-groups", () => {
  it("are none, the one group itself, then a list of two or more", () => {
    const [a, b, c] = ["a", "b", "c"].map((name) => new WriterGroup(reference(name), [], undefined));
    const one = withOutGroup(NO_ITEMS, a as WriterGroup);
    expect(one).toBe(a);
    const two = withOutGroup(one, b as WriterGroup);
    const three = withOutGroup(two, c as WriterGroup);
    expect(two).toEqual([a, b]);
    expect([outGroupCount(NO_ITEMS), outGroupCount(one), outGroupCount(two), outGroupCount(three)]).toEqual([
      0, 1, 2, 3,
    ]);
    expect([outGroupAt(one, 0), outGroupAt(three, 0), outGroupAt(three, 2)]).toEqual([a, a, c]);
  });

  it("give the critical paths through writers read by one, two and three groups", () => {
    const registry = createToolRegistry([{ name: "t", cost: 2, run: () => 1 }]);
    const call = (id: string, reads: string[]) => ({
      _tool: "t",
      _id: id,
      x: reads,
      _outputPath: `†state.${id}`,
    });
    const plan = [
      call("w", []),
      call("r1", ["†state.w"]),
      call("r2", ["†state.w", "†state.r1"]),
      call("r3", ["†state.w.k", "†state.w.j", "†state.r2"]),
    ];
    const compiled = compile({ plan }, registry);
    expect(compiled.ok).toBe(true);
    expect([...(compiled.criticalPaths ?? [])]).toEqual([
      ["w", 8],
      ["r1", 6],
      ["r2", 4],
      ["r3", 2],
    ]);
  });
});
