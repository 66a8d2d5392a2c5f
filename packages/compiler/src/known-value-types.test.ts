import { createKindTable, type Diagnostic } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
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

  it("a value written by a call of the plan is not taken from the state", () => {
    const plan = [
      { _tool: "add", _id: "w", a: 1, b: 2, _outputPath: "†state.s" },
      { _tool: "add", a: "†state.s", b: 1 },
    ];
    expect(compile(plan, registry, { context: { state: { s: "old" } } }).diagnostics).toEqual([]);
  });
});
