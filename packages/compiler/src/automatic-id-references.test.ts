import type { Diagnostic } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { automaticIdTool } from "./automatic-id-references.js";
import { compile } from "./compile.js";
import type { CompileOptions } from "./compile-options.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const plan = (...calls: unknown[]) => ({ type: "plan", plan: calls });
const brief = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((d) => ({ code: d.code, severity: d.severity, pointer: d.pointer, hint: d.hint }));
const unnamedFetch = { _tool: "fetchUser", userId: "u1" };
const greet = (reference: string) => ({ _tool: "log", message: `Hi {${reference}}` });

describe("reading an automatic call id of a tool this plan calls unnamed", () => {
  it("warns at the reading parameter when the id is one of this plan's own calls", () => {
    const result = compile(plan(unnamedFetch, greet("†calls.fetchUser$1.name")), registry);
    expect(result.ok).toBe(true);
    expect(brief(result.diagnostics)).toEqual([
      {
        code: "REF_SUSPICIOUS",
        severity: "warning",
        pointer: "/plan/1/message",
        hint: 'give the fetchUser call an "_id" of its own and read †calls.<id>.name with that id',
      },
    ]);
    expect(result.diagnostics[0]?.message).toMatch(/numbered anew on every run/);
  });

  it("warns when the plan, sent again, reads the earlier run's stored output of that id", () => {
    const options: CompileOptions = {
      firstAutoIdNumber: 3,
      context: { callOutputs: new Set(["fetchUser$1", "log$2"]) },
    };
    const result = compile(plan(unnamedFetch, greet("†calls.fetchUser$1.name")), registry, options);
    expect(result.calls.map((call) => call.id)).toEqual(["fetchUser$3", "log$4"]);
    expect(brief(result.diagnostics).map((d) => [d.code, d.pointer])).toEqual([
      ["REF_SUSPICIOUS", "/plan/1/message"],
    ]);
  });

  it("says nothing when every call of that tool is named, or the id is the plan's own given id", () => {
    const context = { callOutputs: new Set(["fetchUser$1"]) };
    const named = { ...unnamedFetch, _id: "user" };
    expect(compile(plan(named, greet("†calls.fetchUser$1.name")), registry, { context }).diagnostics).toEqual(
      [],
    );
    expect(compile(plan(named, greet("†calls.user.name")), registry).diagnostics).toEqual([]);
    // A `$` id of another tool than the plan's unnamed ones is left alone.
    expect(
      compile(plan(unnamedFetch, greet("†calls.detectLanguage$1.name")), registry, {
        context: { callOutputs: new Set(["detectLanguage$1"]) },
      }).diagnostics,
    ).toEqual([]);
  });

  it("leaves an id that reads nothing to REF_UNRESOLVED, whose hint says to name the call", () => {
    const known = { context: { callOutputs: new Set<string>() } };
    const result = compile(plan(unnamedFetch, greet("†calls.fetchUser$7.name")), registry, known);
    expect(brief(result.diagnostics)).toEqual([
      {
        code: "REF_UNRESOLVED",
        severity: "error",
        pointer: "/plan/1/message",
        hint: 'did you mean this plan\'s unnamed call? give that fetchUser call an "_id" and read †calls.<that id>.name (its automatic id "fetchUser$1" is numbered anew on every run)',
      },
    ]);
  });

  it("points at what the unnamed call writes when it has one target", () => {
    const writer = { ...unnamedFetch, _outputPath: "†state.user" };
    const known = { context: { callOutputs: new Set<string>() } };
    const result = compile(plan(writer, greet("†calls.fetchUser$7.name")), registry, known);
    expect(result.diagnostics[0]?.hint).toBe(
      "did you mean this plan's unnamed call? read what that fetchUser call writes: †state.user.name",
    );
  });

  it("gives the same diagnostics when the plan is streamed", () => {
    const calls = [unnamedFetch, greet("†calls.fetchUser$1.name"), greet("†calls.fetchUser$1.age")];
    const batch = compile(plan(...calls), registry);
    const stream = createIncrementalCompiler(registry);
    for (const call of calls) stream.addCall(call);
    expect(brief(stream.close().diagnostics)).toEqual(brief(batch.diagnostics));
    expect(batch.diagnostics).toHaveLength(2);
  });
});

describe("automaticIdTool", () => {
  const tools = new Set(["fetchUser", "a$b"]);
  it.each([
    ["fetchUser$1", "fetchUser"],
    ["fetchUser$12", "fetchUser"],
    ["a$b$3", "a$b"],
    ["fetchUser$", undefined],
    ["fetchUser$1x", undefined],
    ["$1", undefined],
    ["other$1", undefined],
    ["fetchUser", undefined],
  ])("%s → %s", (id, tool) => {
    expect(automaticIdTool(id, tools)).toBe(tool);
  });
});
