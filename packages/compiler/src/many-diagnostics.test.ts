import { describe, expect, it } from "vitest";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry([{ name: "echo", input: { type: "object" }, run: () => 1 }]);
// One warning per item (text that mentions a reference without being one): more than a spread `push`
// can pass as arguments.
const items = 130_000;
const call = { _tool: "echo", v: Array<string>(items).fill("a †state.x") };

describe("a call with more diagnostics than a spread can pass", () => {
  it("compiles, reporting every one, instead of an internal compiler error", () => {
    const compiled = compile([call], registry);
    expect(compiled.diagnostics.some((d) => d.message.includes("internal compiler error"))).toBe(false);
    expect(compiled.diagnostics).toHaveLength(items);
    expect(compiled.ok).toBe(true);
  }, 60_000);

  it("streams too", () => {
    const stream = createIncrementalCompiler(registry);
    stream.addCall(call);
    const closed = stream.close();
    expect(closed.diagnostics.some((d) => d.message.includes("internal compiler error"))).toBe(false);
    expect(closed.diagnostics).toHaveLength(items);
  }, 60_000);
});
