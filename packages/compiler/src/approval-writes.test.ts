import type { Diagnostic } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const shape = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => [d.code, d.severity, d.pointer]);
const readonly = (pointer: string) => ["OUTPUT_PATH_READONLY", "error", pointer];

describe("a plan cannot give its own approval (SPEC §7, decision 0011)", () => {
  it("a latent call writing †state.approvals.<name> is OUTPUT_PATH_READONLY, with a hint naming state set", () => {
    const result = compile(
      [
        { _tool: "approve", _id: "a", _output: { approved: true }, _outputPath: "†state.approvals.pay" },
        { _tool: "log", _id: "pay", message: "†state.approvals.pay && †state.x" },
      ],
      registry,
      { context: { state: { x: "go" } } },
    );
    expect(result.ok).toBe(false);
    expect(shape(result.diagnostics)).toEqual([readonly("/0/_outputPath")]);
    expect(result.diagnostics[0]?.hint).toContain("state set");
    expect(result.diagnostics[0]?.hint).toContain("engine.set");
  });

  it("every spelling, at or under †state.approvals, in any || alternative or && target", () => {
    const codes = (outputPath: string) =>
      shape(compile([{ _tool: "log", message: "m", _outputPath: outputPath }], registry).diagnostics);
    const refused = [readonly("/0/_outputPath")];
    expect(codes("†state.approvals")).toEqual(refused);
    expect(codes("†state.approvals.pay.by")).toEqual(refused);
    expect(codes('†state["approvals"]["pay"]')).toEqual(refused);
    expect(codes("†state.ok && †state.approvals.pay")).toEqual(refused);
    expect(codes("†state.ok || †state.approvals.pay")).toEqual(refused);
    // Other paths stay writable: a key named approvals deeper down is no approval gate.
    expect(codes("†state.user.approvals.pay")).toEqual([]);
    expect(codes("†state.approvalsLog")).toEqual([]);
  });

  it("also for an unknown tool, and when a call is streamed", () => {
    const unknown = compile([{ _tool: "nope", _outputPath: "†state.approvals.x" }], registry);
    expect(unknown.diagnostics.map((d) => d.code)).toEqual(["TOOL_UNKNOWN", "OUTPUT_PATH_READONLY"]);
    const compiler = createIncrementalCompiler(registry);
    const added = compiler.addCall({ _tool: "log", message: "m", _outputPath: "†state.approvals.x" });
    expect(added.ok).toBe(false);
    expect(shape(added.diagnostics)).toEqual([readonly("/plan/0/_outputPath")]);
  });

  it("reading an approval stays fine (it is a gate), and †state alone is no target", () => {
    const read = compile([{ _tool: "log", message: "†state.approvals.pay" }], registry, {
      context: { state: {} },
    });
    expect(read.diagnostics).toEqual([]);
    const root = compile([{ _tool: "log", message: "m", _outputPath: "†state" }], registry);
    expect(root.diagnostics.map((d) => d.code)).toEqual(["OUTPUT_PATH_SYNTAX"]);
  });
});
