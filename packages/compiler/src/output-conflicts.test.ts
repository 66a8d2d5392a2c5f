import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);

function writers(count: number, method: string, path = "†state.x"): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => ({
    _tool: "log",
    _id: `w${i}`,
    message: "m",
    _outputPath: path,
    _outputMethod: method,
  }));
}

function conflicts(plan: readonly unknown[]) {
  return compile({ type: "plan", plan }, registry).diagnostics.filter((d) => d.code === "OUTPUT_CONFLICT");
}

describe("OUTPUT_CONFLICT (one per later writer, naming the first)", () => {
  it("n set writers of one path give n − 1 conflicts, each naming the first writer", () => {
    const found = conflicts(writers(50, "set"));
    expect(found).toHaveLength(49);
    expect(found.map((d) => d.related)).toEqual(Array.from({ length: 49 }, (_, i) => ["w0", `w${i + 1}`]));
    expect(found.map((d) => d.pointer)).toEqual(
      Array.from({ length: 49 }, (_, i) => `/plan/${i + 1}/_outputPath`),
    );
  });

  it("accumulating writers of the same path do not conflict; a set writer among them does", () => {
    const plan = writers(5, "push");
    expect(conflicts(plan)).toEqual([]);
    plan[2] = { ...plan[2], _outputMethod: "set" };
    expect(conflicts(plan).map((d) => d.related)).toEqual([
      ["w0", "w2"],
      ["w2", "w3"],
      ["w2", "w4"],
    ]);
  });

  it("prefix overlaps conflict whatever the method, naming the earliest overlapping writer", () => {
    const plan = [
      { _tool: "log", _id: "a", message: "m", _outputPath: "†state.x.y", _outputMethod: "push" },
      { _tool: "log", _id: "b", message: "m", _outputPath: "†state.x.z", _outputMethod: "push" },
      { _tool: "log", _id: "c", message: "m", _outputPath: "†state.x", _outputMethod: "push" },
      { _tool: "log", _id: "d", message: "m", _outputPath: "†state.x.y.w" },
    ];
    expect(conflicts(plan).map((d) => d.related)).toEqual([
      ["a", "c"],
      ["a", "d"],
    ]);
  });

  it("a call conflicting on two targets names each earlier call once", () => {
    const plan = [
      { _tool: "log", _id: "a", message: "m", _outputPath: "†state.p" },
      { _tool: "log", _id: "b", message: "m", _outputPath: "†state.q" },
      { _tool: "log", _id: "c", message: "m", _outputPath: "†state.p && †state.q" },
    ];
    expect(conflicts(plan).map((d) => d.related)).toEqual([
      ["a", "c"],
      ["b", "c"],
    ]);
  });
});
