import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { graphToJson } from "./graph-to-json.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry([...exampleTools, { name: "slow", cost: 4, run: () => 1 }]);

describe("the critical-path figure weighs calls by their tools' cost hints (issue 3)", () => {
  it("a call's remaining critical path is its own cost plus the longest path after it", () => {
    const compiled = compile(
      [
        // a chain of three default-cost calls: 3, 2, 1
        { _tool: "log", _id: "a1", message: "x", _outputPath: "†state.a1" },
        { _tool: "log", _id: "a2", message: "†state.a1", _outputPath: "†state.a2" },
        { _tool: "log", _id: "a3", message: "†state.a2", _outputPath: "†state.a3" },
        // one costly call before a default-cost one: 4 + 1, longer than the three-call chain
        { _tool: "slow", _id: "b1", _outputPath: "†state.b1" },
        { _tool: "log", _id: "b2", message: "{†state.b1}", _outputPath: "†state.b2" },
        // `now` declares cost 5
        { _tool: "now", _id: "c", _outputPath: "†state.c" },
      ],
      registry,
    );
    expect(compiled.ok).toBe(true);
    const paths = Object.fromEntries(graphToJson(compiled).nodes.map((node) => [node.id, node.criticalPath]));
    expect(paths).toEqual({ a1: 3, a2: 2, a3: 1, b1: 5, b2: 1, c: 5 });
    expect(compiled.criticalPaths?.get("b1")).toBe(5);
  });
});
