import type { Diagnostic, JsonObject } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createIncrementalCompiler, type IncrementalCompileOptions } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const codes = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => [d.code, d.pointer]);
const numberWriter = (id: string, extra: JsonObject = {}) => ({
  _tool: "add",
  _id: id,
  a: 1,
  b: 2,
  ...extra,
});
const stateSchema: JsonObject = {
  type: "object",
  properties: { count: { type: "integer" }, name: { type: "string" } },
};

/**
 * Adds every call (then `more`, the corrections); returns each add's codes, then the calls compiled, the
 * graph and the close diagnostics.
 */
function stream(
  calls: readonly JsonObject[],
  options: IncrementalCompileOptions = {},
  more: JsonObject[] = [],
) {
  const compiler = createIncrementalCompiler(registry, options);
  const adds = [...calls, ...more].map((call) => compiler.addCall(call));
  const closed = compiler.close();
  return {
    adds: adds.map((added) => (added.ok ? "ok" : codes(added.diagnostics))),
    ids: compiler.calls.map((call) => call.id),
    graph: compiler.graph,
    closed: codes(closed.diagnostics),
  };
}

/** What batch `compile` says of the same plan. */
function batch(calls: readonly JsonObject[], options: IncrementalCompileOptions = {}) {
  const { inputSchema, ...rest } = options;
  const document = { type: "plan", plan: calls, ...(inputSchema === undefined ? {} : { inputSchema }) };
  return codes(compile(document, registry, rest).diagnostics);
}

describe("streaming add refuses what is already known to be wrong (as batch compile does)", () => {
  it("a reader of an earlier writer's †state target whose output schema cannot fit the parameter", () => {
    const calls = [
      numberWriter("w", { _outputPath: "†state.v" }),
      { _tool: "log", _id: "r", message: "†state.v" },
    ];
    const result = stream(calls);
    expect(result.adds).toEqual(["ok", [["REF_TYPE_MISMATCH", "/plan/1/message"]]]);
    expect(result.closed).toEqual(batch(calls));
    // refused: no node, no edge
    expect(result.ids).toEqual(["w"]);
    expect(result.graph.hasNode("r")).toBe(false);
    expect(result.graph.size).toBe(0);
    // its id is free for the corrected call, which is wired to the writer
    const corrected = stream(calls, {}, [{ _tool: "add", _id: "r", a: "†state.v", b: 1 }]);
    expect(corrected.adds).toEqual(["ok", [["REF_TYPE_MISMATCH", "/plan/1/message"]], "ok"]);
    expect(corrected.ids).toEqual(["w", "r"]);
    expect(corrected.graph.hasEdge("w", "r")).toBe(true);
  });

  it("a reader of an earlier writer's †calls output", () => {
    const calls = [numberWriter("w"), { _tool: "log", _id: "r", message: "†calls.w" }];
    const result = stream(calls);
    expect(result.adds).toEqual(["ok", [["REF_TYPE_MISMATCH", "/plan/1/message"]]]);
    expect(result.closed).toEqual(batch(calls));
  });

  it("a reader of the given input, and of a path the given input lacks (nothing can ever write †input)", () => {
    const options = { context: { input: { a: 1 } } };
    const calls = [
      { _tool: "log", _id: "r", message: "†input.a" },
      { _tool: "add", _id: "m", a: "†input.missing", b: 1 },
      { _tool: "add", _id: "ok", a: "†input.a", b: 1 },
    ];
    const result = stream(calls, options);
    expect(result.adds).toEqual([
      [["REF_TYPE_MISMATCH", "/plan/0/message"]],
      [["REF_UNRESOLVED", "/plan/1/a"]],
      "ok",
    ]);
    expect(result.ids).toEqual(["ok"]);
    expect(result.closed).toEqual(batch(calls, options));
  });

  it("a reader of the input judged by the input schema (the plan's or the context's)", () => {
    const inputSchema: JsonObject = {
      type: "object",
      properties: { a: { type: "number" } },
      additionalProperties: false,
    };
    const calls = [
      { _tool: "log", _id: "r", message: "†input.a" },
      { _tool: "log", _id: "u", message: "†input.undeclared" },
    ];
    const expected = [[["REF_TYPE_MISMATCH", "/plan/0/message"]], [["REF_UNRESOLVED", "/plan/1/message"]]];
    for (const options of [{ inputSchema }, { context: { inputSchema } }]) {
      const result = stream(calls, options);
      expect(result.adds).toEqual(expected);
      expect(result.closed).toEqual(batch(calls, options));
    }
  });

  it("a reader of a path the state schema types, stored or not, with no writer yet", () => {
    const options = { context: { state: { count: 3 }, stateSchema } };
    const stored = [{ _tool: "log", _id: "stored", message: "†state.count" }];
    const result = stream(stored, options);
    expect(result.adds).toEqual([[["REF_TYPE_MISMATCH", "/plan/0/message"]]]);
    expect(result.closed).toEqual(batch(stored, options));
    // every value a later writer could put there obeys the schema (writes are checked against it)
    const typed = [{ _tool: "add", _id: "typed", a: "†state.name", b: 1 }];
    expect(stream(typed, options).adds).toEqual([[["REF_TYPE_MISMATCH", "/plan/0/a"]]]);
    // (batch also says REF_UNRESOLVED: nothing writes †state.name; `add` leaves that to close)
    expect(batch(typed, options)).toEqual([
      ["REF_UNRESOLVED", "/plan/0/a"],
      ["REF_TYPE_MISMATCH", "/plan/0/a"],
    ]);
  });

  it("a reader of a value the thread's state holds, with no writer yet (the stream reads it at once)", () => {
    const options = { context: { state: { count: 3 } } };
    const calls = [{ _tool: "log", _id: "stored", message: "†state.count" }];
    expect(stream(calls, options).adds).toEqual([[["REF_TYPE_MISMATCH", "/plan/0/message"]]]);
  });
});

describe("streaming add stays conservative about what a later call may still change", () => {
  it("a reader whose writer arrives later is accepted; close reports the mismatch as batch does", () => {
    const options = { context: { state: {} } };
    const calls = [
      { _tool: "log", _id: "r", message: "†state.v" },
      numberWriter("w", { _outputPath: "†state.v" }),
    ];
    const result = stream(calls, options);
    expect(result.adds).toEqual(["ok", "ok"]);
    expect(result.closed).toEqual([["REF_TYPE_MISMATCH", "/plan/0/message"]]);
    expect(result.closed).toEqual(batch(calls, options));
  });

  it("†state and †calls paths nothing writes yet wait for a writer: REF_UNRESOLVED only at close", () => {
    const options = { context: { state: {}, callOutputs: new Set<string>() } };
    const calls = [
      { _tool: "log", _id: "s", message: "†state.later" },
      { _tool: "log", _id: "c", message: "†calls.later" },
    ];
    const result = stream(calls, options);
    expect(result.adds).toEqual(["ok", "ok"]);
    expect(result.closed).toEqual(batch(calls, options));
    expect(result.closed.map(([code]) => code)).toEqual(["REF_UNRESOLVED", "REF_UNRESOLVED"]);
  });

  it("a fallback whose first alternative may still be written is not judged by the second alone", () => {
    const options = { context: { state: {}, input: { a: 1 } } };
    const calls = [{ _tool: "log", _id: "r", message: "†state.later || †input.a" }];
    expect(stream(calls, options).adds).toEqual(["ok"]);
  });
});
