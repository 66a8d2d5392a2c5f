import { describe, expect, it } from "vitest";
import { compile } from "./compile.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry([{ name: "t", run: () => 1 }]);
const fanOut = (n: number) => Array.from({ length: n }, (_, i) => `†state.t${i}`).join(" && ");

describe("maxOutputTargets: one call's _outputPath is bounded", () => {
  it("a fan-out beyond the limit is PLAN_LIMIT at the call's _outputPath, and compiles nothing", () => {
    const compiled = compile({ plan: [{ _tool: "t", _outputPath: fanOut(1_001) }] }, registry);
    expect(compiled.ok).toBe(false);
    expect(compiled.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ["PLAN_LIMIT", "/plan/0/_outputPath"],
    ]);
  });

  it("the engine's limit is the one held", () => {
    const plan = { plan: [{ _tool: "t", _outputPath: fanOut(3) }] };
    expect(compile(plan, registry, { limits: { maxOutputTargets: 2 } }).diagnostics[0]?.code).toBe(
      "PLAN_LIMIT",
    );
    expect(compile(plan, registry, { limits: { maxOutputTargets: 3 } }).ok).toBe(true);
  });
});
