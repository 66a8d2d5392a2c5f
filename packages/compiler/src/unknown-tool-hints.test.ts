import { afterEach, describe, expect, it, vi } from "vitest";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";
import { MAX_TOOL_HINTS } from "./unknown-tool-hints.js";

const tools = Array.from({ length: 300 }, (_, i) => ({
  name: `tool_${i}_name`,
  input: { type: "object" as const },
  run: () => 1,
}));
const registry = createToolRegistry(tools);
const unknown = (i: number) => ({ _tool: `tol_${i}_name`, _id: `c${i}` });
const hintOf = (diagnostics: readonly { code: string; hint?: string }[], at: number) =>
  diagnostics.filter((diagnostic) => diagnostic.code === "TOOL_UNKNOWN")[at]?.hint;

afterEach(() => {
  vi.restoreAllMocks();
});

describe("TOOL_UNKNOWN did-you-means of a plan with many unknown tools", () => {
  it("compares the first MAX_TOOL_HINTS names with the registry; later ones get the known tools", () => {
    const plan = [...Array.from({ length: 1_000 }, (_, i) => unknown(i)), { ...unknown(7), _id: "again" }];
    const lower = vi.spyOn(String.prototype, "toLowerCase");
    const { diagnostics } = compile(plan, registry);
    // each comparison lower-cases the candidate: 1,000 names × 300 tools compared 300,000 times
    expect(lower.mock.calls.length).toBeLessThan(MAX_TOOL_HINTS * 300 + 20_000);
    expect(hintOf(diagnostics, 0)).toBe('did you mean "tool_0_name"?');
    expect(hintOf(diagnostics, MAX_TOOL_HINTS - 1)).toBe(`did you mean "tool_${MAX_TOOL_HINTS - 1}_name"?`);
    expect(hintOf(diagnostics, MAX_TOOL_HINTS)).toMatch(/^known tools: tool_0_name, tool_1_name, /);
    // a name met again keeps its hint
    expect(hintOf(diagnostics, 1_000)).toBe('did you mean "tool_7_name"?');
  });

  it("gives each streamed call the budget again: every unknown name added one by one gets its did-you-mean", () => {
    const stream = createIncrementalCompiler(registry);
    const hints = Array.from({ length: MAX_TOOL_HINTS + 50 }, (_, i) =>
      hintOf(stream.addCall(unknown(i)).diagnostics, 0),
    );
    expect(hints[MAX_TOOL_HINTS + 49]).toBe(`did you mean "tool_${MAX_TOOL_HINTS + 49}_name"?`);
    expect(hints.every((hint, i) => hint === `did you mean "tool_${i}_name"?`)).toBe(true);
  });
});
