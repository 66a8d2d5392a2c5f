import type { Diagnostic, JsonObject } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const codes = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => [d.code, d.pointer]);
const stateSchema: JsonObject = {
  type: "object",
  properties: { name: { type: "string" }, count: { type: "number" }, any: {} },
};
const compileWith = (schema: JsonObject | undefined, ...calls: JsonObject[]) =>
  compile({ type: "plan", plan: calls }, registry, {
    context: schema === undefined ? {} : { stateSchema: schema },
  });
// `now` has no output schema: what it writes is unknown, but every write must fit the state schema.
const untyped = (path: string, extra: JsonObject = {}) => ({ _tool: "now", _outputPath: path, ...extra });
const add = (a: string) => ({ _tool: "add", a, b: 1 });

describe("a read of a †state path written in the plan is typed by the state schema too", () => {
  it("an untyped writer: the schema's type decides (string into a number parameter)", () => {
    const result = compileWith(stateSchema, untyped("†state.name"), add("†state.name"));
    expect(codes(result.diagnostics)).toEqual([["REF_TYPE_MISMATCH", "/plan/1/a"]]);
    expect(compileWith(undefined, untyped("†state.name"), add("†state.name")).diagnostics).toEqual([]);
  });

  it("an accumulating writer (unknown value type) too; a fitting or untyped schema path stays quiet", () => {
    const merged = compileWith(
      stateSchema,
      untyped("†state.name", { _outputMethod: "merge" }),
      add("†state.name"),
    );
    expect(codes(merged.diagnostics)).toEqual([["REF_TYPE_MISMATCH", "/plan/1/a"]]);
    const fits = compileWith(stateSchema, untyped("†state.count"), add("†state.count"));
    expect(fits.diagnostics).toEqual([]);
    const any = compileWith(stateSchema, untyped("†state.any"), add("†state.any"));
    expect(any.diagnostics).toEqual([]);
  });

  it("either side proves a mismatch", () => {
    // add's output (number) fits †state.count; the schema says number: a string parameter cannot take it
    const typed = compileWith(
      stateSchema,
      { ...add("†state.count"), _id: "w", _outputPath: "†state.count" },
      {
        _tool: "log",
        message: "†state.count",
      },
    );
    expect(codes(typed.diagnostics)).toEqual([["REF_TYPE_MISMATCH", "/plan/1/message"]]);
    // add (a number) into †state.name (string): the write can only fail, and its reader is typed by it
    const breaking = compileWith(
      stateSchema,
      { _tool: "add", a: 1, b: 2, _outputPath: "†state.name" },
      {
        _tool: "log",
        message: "†state.name",
      },
    );
    expect(codes(breaking.diagnostics)).toEqual([
      ["REF_TYPE_MISMATCH", "/plan/0/_outputPath"],
      ["REF_TYPE_MISMATCH", "/plan/1/message"],
    ]);
  });

  it("streaming agrees with batch", () => {
    const calls = [untyped("†state.name"), add("†state.name")];
    const compiler = createIncrementalCompiler(registry, { context: { stateSchema } });
    const added = calls.map((call) => codes(compiler.addCall(call).diagnostics));
    expect(added).toEqual([[], [["REF_TYPE_MISMATCH", "/plan/1/a"]]]);
    expect(codes(compiler.close().diagnostics)).toEqual(
      codes(compileWith(stateSchema, ...calls).diagnostics),
    );
  });
});

describe("†state itself is always an object", () => {
  it("into a string or number parameter is a mismatch, with or without writers, schema or snapshot", () => {
    expect(codes(compileWith(undefined, { _tool: "log", message: "†state" }).diagnostics)).toEqual([
      ["REF_TYPE_MISMATCH", "/plan/0/message"],
    ]);
    expect(codes(compileWith(undefined, untyped("†state.t"), add("†state")).diagnostics)).toEqual([
      ["REF_TYPE_MISMATCH", "/plan/1/a"],
    ]);
  });
});
