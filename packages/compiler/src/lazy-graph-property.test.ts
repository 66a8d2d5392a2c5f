import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const calls = [
  { _tool: "greetUser", _id: "a", userName: "Ada", _outputPath: "†state.a" },
  { _tool: "greetUser", _id: "b", userName: "†state.a" },
];

const getterOf = (value: object) => Object.getOwnPropertyDescriptor(value, "graph")?.get;

describe("a compiled plan's graph", () => {
  it("is an enumerable getter that builds the DAG on first read and keeps it", () => {
    const compiled = compile(calls, registry);
    const descriptor = Object.getOwnPropertyDescriptor(compiled, "graph");
    expect(descriptor?.enumerable).toBe(true);
    expect(typeof descriptor?.get).toBe("function");
    expect(compiled.graph.hasEdge("a", "b")).toBe(true);
    expect(compiled.graph).toBe(compiled.graph);
  });

  it("comes along in a spread, and the builder function stays out of it", () => {
    const compiled = compile(calls, registry);
    const copy = { ...compiled };
    expect(Object.getOwnPropertyDescriptor(copy, "graph")?.value).toBe(compiled.graph);
    expect(Object.getOwnPropertySymbols(copy)).toEqual([]);
    expect(Object.keys(compiled)).toContain("graph");
  });

  // A getter closure per result is kept by V8 in old-generation memory and keeps the whole compile alive
  // through scavenges after the result is dropped (compiler.md, stop 35): one shared getter avoids that.
  it("is one getter shared by every result, batch and streaming", () => {
    const first = compile(calls, registry);
    const second = compile(calls.slice(0, 1), registry);
    const stream = createIncrementalCompiler(registry);
    for (const call of calls) stream.addCall(call);
    const closed = stream.close();
    expect(getterOf(first)).toBe(getterOf(second));
    expect(getterOf(closed)).toBe(getterOf(first));
    expect(second.graph.order).toBe(1);
    expect(closed.graph.hasEdge("a", "b")).toBe(true);
  });
});
