import type { Diagnostic } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const shown = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((d) => ({ code: d.code, severity: d.severity, pointer: d.pointer, hint: d.hint }));
const check = (...calls: unknown[]) =>
  shown(compile({ type: "plan", plan: calls }, registry, { context: { state: {} } }).diagnostics);
const hint = expect.any(String);

describe("a call with an unknown tool still takes part in the plan-wide checks (batch)", () => {
  it("its OUTPUT_CONFLICT with another writer is reported with its TOOL_UNKNOWN", () => {
    expect(
      check(
        { _tool: "log", message: "a", _outputPath: "†state.x" },
        { _tool: "lgo", _id: "b", message: "b", _outputPath: "†state.x" },
      ),
    ).toEqual([
      { code: "TOOL_UNKNOWN", severity: "error", pointer: "/plan/1/_tool", hint: 'did you mean "log"?' },
      { code: "OUTPUT_CONFLICT", severity: "error", pointer: "/plan/1/_outputPath", hint },
    ]);
    // earlier in the plan than the compiled writer too, and without an _id
    expect(
      check(
        { _tool: "lgo", message: "b", _outputPath: "†state.x.y" },
        { _tool: "log", message: "a", _outputPath: "†state.x" },
      ).map((d) => [d.code, d.pointer]),
    ).toEqual([
      ["TOOL_UNKNOWN", "/plan/0/_tool"],
      ["OUTPUT_CONFLICT", "/plan/0/_outputPath"],
    ]);
  });

  it("accumulating writers of one path do not conflict with it", () => {
    const push = { _outputPath: "†state.list", _outputMethod: "push" };
    expect(
      check({ _tool: "log", message: "a", ...push }, { _tool: "lgo", message: "b", ...push }).map(
        (d) => d.code,
      ),
    ).toEqual(["TOOL_UNKNOWN"]);
  });

  it("its unresolved references are reported with its TOOL_UNKNOWN; what the plan writes resolves", () => {
    expect(
      check(
        { _tool: "log", message: "a", _outputPath: "†state.user" },
        { _tool: "lgo", message: "†state.nothing", other: "{†state.user} {†state.gone}" },
      ),
    ).toEqual([
      { code: "TOOL_UNKNOWN", severity: "error", pointer: "/plan/1/_tool", hint: 'did you mean "log"?' },
      { code: "REF_UNRESOLVED", severity: "error", pointer: "/plan/1/message", hint },
      { code: "REF_UNRESOLVED", severity: "error", pointer: "/plan/1/other", hint },
    ]);
  });

  it("streaming still refuses the call, as if never sent", () => {
    const compiler = createIncrementalCompiler(registry, { context: { state: {} } });
    compiler.addCall({ _tool: "log", message: "a", _outputPath: "†state.x" });
    const refused = compiler.addCall({ _tool: "lgo", message: "†state.nothing", _outputPath: "†state.x" });
    expect(refused.ok).toBe(false);
    expect(refused.diagnostics.map((d) => d.code)).toEqual(["TOOL_UNKNOWN"]);
  });
});
