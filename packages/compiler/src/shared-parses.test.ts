import type { InputExpression } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import type { CompiledCall } from "./compiled-plan.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const write = (id: string, message: string, target: string) => ({
  _tool: "log",
  _id: id,
  message,
  _outputPath: target,
});

/** The expressions of a call's template parameter `message`. */
function templateParts(call: CompiledCall | undefined): InputExpression[] {
  const value = call?.references[0]?.value;
  if (value?.type !== "template") throw new Error("message is not a template");
  return value.parts.filter((part): part is InputExpression => typeof part !== "string");
}

describe("parsed references shared with the writers of a plan", () => {
  const plan = [
    write("a", "start", "†state.a.text"),
    write("b", "x {†state.a.text} y", "†state.b"),
    write("c", "{†state.b} and {†state.a.text} and {†state.c0}", "†state.c0"),
    write("d", "{†state.b }{†state.b}", "†state.d"),
  ];

  it("a template part that is a writer's target text is the writer's own parsed target", () => {
    const [a, b, c] = compile({ type: "plan", plan }, registry).calls;
    const [inB] = templateParts(b);
    const [first, second, self] = templateParts(c);
    expect(inB?.alternatives).toBe(a?.outputPath?.alternatives);
    expect(second?.alternatives).toBe(a?.outputPath?.alternatives);
    expect(first?.alternatives).toBe(b?.outputPath?.alternatives);
    // a call's own target is remembered after its parameters are parsed: parsed, not shared
    expect(self?.alternatives).not.toBe(c?.outputPath?.alternatives);
    expect(self?.alternatives).toEqual(c?.outputPath?.alternatives);
  });

  it("parts spelt otherwise than the canonical text are parsed to equal values", () => {
    const calls = compile({ type: "plan", plan }, registry).calls;
    const [spaced, exact] = templateParts(calls[3]);
    expect(spaced?.alternatives).not.toBe(calls[1]?.outputPath?.alternatives);
    expect(spaced?.alternatives).toEqual(calls[1]?.outputPath?.alternatives);
    expect(exact?.alternatives).toBe(calls[1]?.outputPath?.alternatives);
  });

  it("streaming shares them too, and its answers and close equal the batch compile", () => {
    const compiler = createIncrementalCompiler(registry);
    for (const call of plan) expect(compiler.addCall(call).ok).toBe(true);
    const closed = compiler.close();
    const [a, b] = closed.calls;
    expect(templateParts(b)[0]?.alternatives).toBe(a?.outputPath?.alternatives);
    const batch = compile({ type: "plan", plan }, registry);
    expect(closed.calls).toEqual(batch.calls);
    expect(closed.diagnostics).toEqual(batch.diagnostics);
  });
});
