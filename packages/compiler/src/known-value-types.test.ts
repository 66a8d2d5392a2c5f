import { createKindTable, type Diagnostic } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const shape = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => [d.code, d.severity, d.pointer]);
const mismatch = ["REF_TYPE_MISMATCH", "error", "/0/a"];
const add = (a: string) => [{ _tool: "add", a, b: 1 }];

describe("REF_TYPE_MISMATCH from a value the context already holds (review4 M2)", () => {
  it("a stored thread state value", () => {
    expect(
      shape(compile(add("†state.s"), registry, { context: { state: { s: "str" } } }).diagnostics),
    ).toEqual([mismatch]);
    expect(compile(add("†state.n"), registry, { context: { state: { n: 2 } } }).diagnostics).toEqual([]);
  });

  it("a host kind's value", () => {
    const kinds = createKindTable([
      { kind: "env", writable: false, engineManaged: false, description: "env" },
    ]);
    const context = { extraKinds: { env: { x: "s", n: 3 } } };
    expect(shape(compile(add("†env.x"), registry, { kinds, context }).diagnostics)).toEqual([mismatch]);
    expect(compile(add("†env.n"), registry, { kinds, context }).diagnostics).toEqual([]);
  });

  it("a fallback whose first operand exists has that operand's value; otherwise every alternative counts", () => {
    const input = { a: "s", b: 1 };
    expect(shape(compile(add("†input.a || †input.b"), registry, { context: { input } }).diagnostics)).toEqual(
      [mismatch],
    );
    expect(compile(add("†input.b || †input.a"), registry, { context: { input } }).diagnostics).toEqual([]);
    // †input.zz is missing: the value is †input.b's (a number), so no mismatch and no REF_UNRESOLVED.
    expect(compile(add("†input.zz || †input.b"), registry, { context: { input } }).diagnostics).toEqual([]);
  });

  it("a fallback skips an alternative that certainly does not exist: the value is the next one's", () => {
    const state = { s: "str", n: 2 };
    // †state.nope: nothing writes it and the state lacks it, so the value is †state.s's, a string
    expect(
      shape(compile(add("†state.nope || †state.s"), registry, { context: { state } }).diagnostics),
    ).toEqual([mismatch]);
    expect(compile(add("†state.nope || †state.n"), registry, { context: { state } }).diagnostics).toEqual([]);
    // a call of the plan may write it: it is not skipped (the writer's type is unknown: no diagnostic)
    const written = [
      { _tool: "now", _id: "w", _outputPath: "†state.nope" },
      ...add("†state.nope || †state.s"),
    ];
    expect(compile(written, registry, { context: { state } }).diagnostics).toEqual([]);
  });

  it("streaming: an operand a later call may write is not skipped when the call arrives, only at close", () => {
    const compiler = createIncrementalCompiler(registry, { context: { state: { s: "str" } } });
    expect(compiler.addCall({ _tool: "add", _id: "r", a: "†state.nope || †state.s", b: 1 }).ok).toBe(true);
    expect(shape(compiler.close().diagnostics)).toEqual([["REF_TYPE_MISMATCH", "error", "/plan/0/a"]]);
  });

  it("a value written by a call of the plan is not taken from the state", () => {
    const plan = [
      { _tool: "add", _id: "w", a: 1, b: 2, _outputPath: "†state.s" },
      { _tool: "add", a: "†state.s", b: 1 },
    ];
    expect(compile(plan, registry, { context: { state: { s: "old" } } }).diagnostics).toEqual([]);
  });
});
