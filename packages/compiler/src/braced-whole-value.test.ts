import type { Diagnostic } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { defineTool } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry([
  defineTool({
    name: "t",
    input: z.object({ user: z.object({ name: z.string() }).optional(), n: z.number().optional() }),
    run: (args) => args,
  }),
]);
const input = { user: { name: "Ada" }, count: 5, fallback: 3 };

const shape = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((d) => ({ code: d.code, severity: d.severity, pointer: d.pointer, hint: d.hint }));

function diagnosticsOf(params: Record<string, unknown>): readonly Diagnostic[] {
  return compile([{ _tool: "t", ...params, _outputPath: "†state.o" }], registry, { context: { input } })
    .diagnostics;
}

const mismatch = (pointer: string, hint?: string) => ({
  code: "REF_TYPE_MISMATCH",
  severity: "error",
  pointer,
  hint,
});

describe('a whole value that is one template slot ("{†input.count}") is a string: the message says so', () => {
  it.each([
    ["n", "{†input.count}", "†input.count"],
    ["n", "{†input.count }", "†input.count"],
    ["user", "{†input.user}", "†input.user"],
    ["n", "{†input.missing || †input.fallback}", "†input.missing || †input.fallback"],
  ])("%s: %s → drop the braces: %s", (parameter, value, fixed) => {
    const diagnostics = diagnosticsOf({ [parameter]: value });
    expect(shape(diagnostics)).toEqual([mismatch(`/0/${parameter}`, `drop the braces: "${fixed}"`)]);
    expect(diagnostics[0]?.message).toContain("template");
    expect(diagnostics[0]?.message).not.toContain("referenced value is string");
  });

  it("a template with text around the slot is a string too: said, without the braces hint", () => {
    const diagnostics = diagnosticsOf({ n: "n={†input.count}" });
    expect(shape(diagnostics)).toEqual([mismatch("/0/n")]);
    expect(diagnostics[0]?.message).toContain("template");
  });

  it("streaming says the same when the call is added", () => {
    const compiler = createIncrementalCompiler(registry, { context: { input } });
    const added = compiler.addCall({ _tool: "t", n: "{†input.count}", _outputPath: "†state.o" });
    expect(shape(added.diagnostics)).toEqual([mismatch("/plan/0/n", 'drop the braces: "†input.count"')]);
  });
});
