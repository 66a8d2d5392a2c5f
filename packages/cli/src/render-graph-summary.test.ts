import { graphToJson } from "@obelisk/compiler";
import { createEngine, defineTool, type ValidationResult } from "obelisk";
import pc from "picocolors";
import { describe, expect, it } from "vitest";
import type { Output } from "./output.js";
import { printGraphSummary, validationJson } from "./render-graph-summary.js";

const log = defineTool({ name: "log", input: { type: "object" }, run: () => 1 });

/** The text lines printGraphSummary writes. */
function summaryLines(result: ValidationResult): string[] {
  const lines: string[] = [];
  const output = {
    format: "text",
    colors: pc.createColors(false),
    line: (text = "") => lines.push(text),
    json: () => undefined,
  } as unknown as Output;
  printGraphSummary(output, result);
  return lines;
}

/** The result with a compiled plan whose graphology graph cannot be built. */
function withoutGraph(result: ValidationResult): ValidationResult {
  const compiled = Object.create(result.compiled, {
    graph: {
      get() {
        throw new Error("the text summary built the graph");
      },
    },
  });
  return { ...result, compiled };
}

describe("validate's text graph summary (stop 29 review: a million-edge fan-in took 35 s)", () => {
  it("reads the compiled calls, never the graph, and counts what a line's 'after' leaves out", async () => {
    const writers = Array.from({ length: 20 }, (_, index) => ({
      _tool: "log",
      _id: `w${index}`,
      _outputPath: `†state.out.v${index}`,
    }));
    const readers = [0, 1].map((index) => ({
      _tool: "log",
      _id: `r${index}`,
      all: "†state.out",
      _outputPath: `†state.r${index}`,
    }));
    const result = await createEngine({ tools: [log] }).validate([...writers, ...readers]);
    expect(result.ok).toBe(true);
    const lines = summaryLines(withoutGraph(result));
    expect(lines[1]).toBe("graph     22 calls, 40 dependencies, 20 can start at once");
    expect(lines).toContain("  r0 (log) after w0, w1, w2, w3, w4, w5, w6, w7, … (+12) → †state.r0");
    expect(lines).toContain("  w3 (log) → †state.out.v3");
    // the same counts as the exported graph
    expect(graphToJson(result.compiled).edges).toHaveLength(40);
  });

  it("json draws many writers × many readers of one path through a join; the text still counts each pair", async () => {
    const writers = Array.from({ length: 10 }, (_, index) => ({
      _tool: "log",
      _id: `w${index}`,
      _outputPath: "†state.items",
      _outputMethod: "push",
    }));
    const readers = Array.from({ length: 10 }, (_, index) => ({
      _tool: "log",
      _id: `r${index}`,
      all: "†state.items",
    }));
    const result = await createEngine({ tools: [log] }).validate([...writers, ...readers]);
    expect(result.ok).toBe(true);
    expect(summaryLines(withoutGraph(result))[1]).toBe(
      "graph     20 calls, 100 dependencies, 10 can start at once",
    );
    const { graph } = validationJson(result) as { graph: ReturnType<typeof graphToJson> };
    expect(graph.nodes).toHaveLength(20);
    expect(graph.joins).toEqual([{ id: "join#1", references: ["†state.items"], criticalPath: 1 }]);
    expect(graph.edges).toHaveLength(20);
    expect(graph.edges).toContainEqual(["w0", "join#1"]);
    expect(graph.edges).toContainEqual(["join#1", "r9"]);
  });

  it("counts the calls that did not compile, naming where and why (s32 review L11)", async () => {
    const result = await createEngine({ tools: [log] }).validate([
      { _tool: "lgo", _id: "a", _outputPath: "†state.a" },
      { _tool: "log", _id: "b" },
      { _tool: "log", _id: "c", v: "†state.a" },
      { _tool: "log", _id: "b", _outputPath: "†state.words" },
    ]);
    const lines = summaryLines(withoutGraph(result));
    expect(lines[1]).toBe(
      "graph     2 of 4 calls (2 not compiled: /0 TOOL_UNKNOWN, /3 CALL_ID_DUPLICATE), 0 dependencies, 2 can start at once",
    );
    const many = await createEngine({ tools: [log] }).validate(
      ["x", "y", "z", "w"].map((tool) => ({ _tool: tool })).concat([{ _tool: "log" }]),
    );
    expect(summaryLines(withoutGraph(many))[1]).toBe(
      "graph     1 of 5 calls (4 not compiled: /0 TOOL_UNKNOWN, /1 TOOL_UNKNOWN, /2 TOOL_UNKNOWN, … (+1)), 0 dependencies, 1 can start at once",
    );
  });

  it("names alternatives, fan-out and a call without _outputPath as the graph does", async () => {
    const result = await createEngine({ tools: [log] }).validate([
      { _tool: "log", _id: "a", _outputPath: "†state.x || †state.y && †state.z" },
      { _tool: "log", _id: "b", v: "†state.x" },
      { _tool: "log", _id: "c", v: "†calls.b" },
    ]);
    const lines = summaryLines(withoutGraph(result));
    expect(lines.slice(1)).toEqual([
      "graph     3 calls, 2 dependencies, 1 can start at once",
      "  a (log) → †state.x || †state.y && †state.z",
      "  b (log) after a → †calls.b",
      "  c (log) after b → †calls.c",
    ]);
  });

  it("never names a call among those it waits for, in a cycle of calls that read what they write below", async () => {
    const plan = ["c0", "c1", "c2"].map((id) => ({
      _tool: "log",
      _id: id,
      all: "†state",
      _outputPath: `†state.${id}`,
    }));
    const result = await createEngine({ tools: [log] }).validate(plan);
    expect(result.diagnostics.map((d) => d.code)).toEqual(["CYCLE"]);
    const lines = summaryLines(withoutGraph(result));
    expect(lines.slice(1)).toEqual([
      "graph     3 calls, 6 dependencies, 0 can start at once",
      "  c0 (log) after c1, c2 → †state.c0",
      "  c1 (log) after c0, c2 → †state.c1",
      "  c2 (log) after c0, c1 → †state.c2",
    ]);
    expect(graphToJson(result.compiled).edges).toHaveLength(6);
  });
});
