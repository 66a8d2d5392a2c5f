import { canonicalJson, sha256Hex } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
/** Item reads a compile may make of a value it refuses; the Proxy throws past it (and notes it). */
const BOUND = 1_000;

/** An array-like Proxy claiming a billion items, counting item reads (over BOUND: notes it, throws). */
function hugeArray(): { readonly value: unknown[]; readonly count: { reads: number; over: boolean } } {
  const count = { reads: 0, over: false };
  const value = new Proxy([] as unknown[], {
    get(target, key) {
      if (key === "length") return 1e9;
      if (typeof key !== "string" || !/^\d+$/.test(key)) return Reflect.get(target, key);
      if (++count.reads > BOUND) {
        count.over = true;
        throw new Error(`read past ${BOUND} items`);
      }
      return "x";
    },
  });
  return { value, count };
}

describe("a plan value whose JSON copy is refused is read once, by the copy", () => {
  it("compile refuses an array claiming a billion items at maxDocumentBytes, its hash naming the refusal", () => {
    const huge = hugeArray();
    const result = compile({ plan: [{ _tool: "greetUser", userName: huge.value }] }, registry);
    expect(result.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["PLAN_LIMIT", ""]]);
    expect(result.ok).toBe(false);
    expect(result.document).toBeUndefined();
    expect(huge.count.over).toBe(false);
    expect(result.planHash).toBe(`sha256:${sha256Hex(canonicalJson(result.diagnostics))}`);
  });

  it("a stream's call holding one is refused at its pointer, and not copied again", () => {
    const huge = hugeArray();
    const compiler = createIncrementalCompiler(registry);
    const added = compiler.addCall({ _tool: "greetUser", userName: huge.value });
    expect(added.ok).toBe(false);
    expect(added.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["PLAN_LIMIT", "/plan/0"]]);
    expect(huge.count.over).toBe(false);
    expect(compiler.close().ok).toBe(false);
  });
});
