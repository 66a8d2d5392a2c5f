import type { Diagnostic } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry([
  { name: "translate", input: { type: "object" }, outputPath: { const: "†state.translation" }, run: () => 1 },
  { name: "note", outputPath: { pattern: "^†state\\.notes\\." }, run: () => 1 },
  { name: "pick", outputPath: { enum: ["†state.a", "†state.b"] }, run: () => 1 },
  { name: "free", run: () => 1 },
  { name: "draft", output: { type: "string" }, outputPath: { const: "†state.draft" } },
]);
const plan = (...calls: unknown[]) => ({ type: "plan", plan: calls });
const errors = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.filter((d) => d.severity === "error").map((d) => [d.code, d.pointer]);

describe("a tool with an _outputPath rule needs an _outputPath (SPEC §3: prescribed paths cannot be skipped)", () => {
  it("refuses a call without _outputPath, at the call, for const, pattern and enum rules", () => {
    const result = compile(
      plan(
        { _tool: "translate", text: "bonjour" },
        { _tool: "note" },
        { _tool: "pick" },
        { _tool: "free" },
        { _tool: "translate", _outputPath: "†state.translation" },
        { _tool: "note", _outputPath: "†state.notes.x" },
      ),
      registry,
    );
    expect(errors(result.diagnostics)).toEqual([
      ["OUTPUT_PATH_NOT_ALLOWED", "/plan/0"],
      ["OUTPUT_PATH_NOT_ALLOWED", "/plan/1"],
      ["OUTPUT_PATH_NOT_ALLOWED", "/plan/2"],
    ]);
    expect(result.ok).toBe(false);
  });

  it("names the prescribed path in the hint of a const rule", () => {
    const [diagnostic] = compile(plan({ _tool: "translate" }), registry).diagnostics;
    expect(diagnostic?.hint).toContain('"_outputPath": "†state.translation"');
  });

  it("holds for latent calls", () => {
    const result = compile(plan({ _tool: "draft", _output: "text" }), registry);
    expect(errors(result.diagnostics)).toEqual([["OUTPUT_PATH_NOT_ALLOWED", "/plan/0"]]);
    const given = compile(plan({ _tool: "draft", _output: "text", _outputPath: "†state.draft" }), registry);
    expect(errors(given.diagnostics)).toEqual([]);
  });

  it("holds for streaming: addCall refuses the call", () => {
    const compiler = createIncrementalCompiler(registry);
    const added = compiler.addCall({ _tool: "translate", _id: "t" });
    expect(added.ok).toBe(false);
    expect(errors(added.diagnostics)).toEqual([["OUTPUT_PATH_NOT_ALLOWED", "/plan/0"]]);
    expect(compiler.addCall({ _tool: "free", _id: "f" }).ok).toBe(true);
    expect(errors(compiler.close().diagnostics)).toEqual([["OUTPUT_PATH_NOT_ALLOWED", "/plan/0"]]);
  });
});
