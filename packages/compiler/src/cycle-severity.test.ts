import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const a = { _tool: "log", _id: "a", message: "†state.b", _outputPath: "†state.a" };
const b = { _tool: "log", _id: "b", message: "†state.a", _outputPath: "†state.b" };

// SPEC §6's table: CYCLE is an error (compile.test.ts's per-code table asserts the others' severities).
describe("CYCLE is an error diagnostic with a pointer into the document", () => {
  it("batch: the plan is not ok; the diagnostic is severity error at the first call of the cycle", () => {
    const result = compile({ type: "plan", plan: [a, b] }, registry);
    expect(result.ok).toBe(false);
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({
      code: "CYCLE",
      severity: "error",
      pointer: "/plan/0",
      hint: expect.stringMatching(/^a → b → a: /),
    });
  });

  it("streaming: the call that would close the cycle is refused with an error at its own pointer", () => {
    const stream = createIncrementalCompiler(registry);
    expect(stream.addCall(a).ok).toBe(true);
    const refused = stream.addCall(b);
    expect(refused.ok).toBe(false);
    expect(refused.diagnostics.map((d) => [d.code, d.severity, d.pointer])).toEqual([
      ["CYCLE", "error", "/plan/1"],
    ]);
  });
});
