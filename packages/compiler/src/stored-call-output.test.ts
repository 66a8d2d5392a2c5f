import type { Diagnostic, JsonObject, JsonValue } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import type { CompileContext } from "./compiled-plan.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const codes = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => [d.code, d.pointer]);
const outputs: Record<string, JsonValue> = { named: { a: "x", list: [1, 2] }, other: 5 };

/** A context holding `outputs` (ids and lookup); `asked` records every lookup. */
function storedContext(asked: string[] = [], extra: Partial<CompileContext> = {}): CompileContext {
  return {
    callOutputs: new Set(Object.keys(outputs)),
    callOutput: (id) => {
      asked.push(id);
      const value = outputs[id];
      return value === undefined ? undefined : { value };
    },
    ...extra,
  };
}
const compileWith = (context: CompileContext, ...calls: JsonObject[]) =>
  compile({ type: "plan", plan: calls }, registry, { context });
const log = (message: string, extra: JsonObject = {}) => ({ _tool: "log", message, ...extra });
const add = (a: string) => ({ _tool: "add", a, b: 1 });

describe("paths below a stored call output are checked against its value (as the state snapshot's)", () => {
  it("a path the stored value lacks is REF_UNRESOLVED, with the nearest key of the value as hint", () => {
    const result = compileWith(storedContext(), log("†calls.named.zz"), log("†calls.named.lsit[0]"));
    expect(codes(result.diagnostics)).toEqual([
      ["REF_UNRESOLVED", "/plan/0/message"],
      ["REF_UNRESOLVED", "/plan/1/message"],
    ]);
    expect(result.diagnostics[0]?.hint).toBe(
      'the names known there: "a", "list" (the output stored for call "named" has no value there)',
    );
    expect(result.diagnostics[1]?.hint).toBe(
      'did you mean "†calls.named.list[0]"? (the output stored for call "named" has no value there)',
    );
  });

  it("paths the value holds resolve; its types are checked against the parameter", () => {
    const ok = compileWith(storedContext(), log("†calls.named.a"), add("†calls.named.list[-1]"));
    expect(ok.diagnostics).toEqual([]);
    const bad = compileWith(
      storedContext(),
      add("†calls.named.a"),
      add("$tool_output.named"),
      log("†calls.other"),
    );
    expect(codes(bad.diagnostics)).toEqual([
      ["REF_TYPE_MISMATCH", "/plan/0/a"],
      ["REF_TYPE_MISMATCH", "/plan/1/a"],
      ["REF_TYPE_MISMATCH", "/plan/2/message"],
    ]);
  });

  it("a call of the plan with the id is read instead (its output replaces the stored one)", () => {
    const result = compileWith(storedContext(), { _tool: "now", _id: "named" }, log("†calls.named.zz"));
    expect(result.diagnostics).toEqual([]);
  });

  it("a call reading its own id reads the stored value (as at run time)", () => {
    const result = compileWith(storedContext(), { ...add("†calls.named.a"), _id: "named" });
    expect(codes(result.diagnostics)).toEqual([["REF_TYPE_MISMATCH", "/plan/0/a"]]);
  });

  it("a stored fallback operand that certainly exists decides the fallback's type alone", () => {
    const result = compileWith(storedContext(), add("†calls.other || †state.text"));
    expect(result.diagnostics).toEqual([]);
    expect(codes(compileWith(storedContext(), log("†calls.other || †state.text")).diagnostics)).toEqual([
      ["REF_TYPE_MISMATCH", "/plan/0/message"],
    ]);
  });

  it("unknown is no diagnostic: no lookup, a lookup that does not know or throws", () => {
    const calls = [log("†calls.named.zz"), add("†calls.named.a")];
    const ids = new Set(Object.keys(outputs));
    for (const context of [
      { callOutputs: ids },
      { callOutputs: ids, callOutput: () => undefined },
      {
        callOutputs: ids,
        callOutput: () => {
          throw new Error("store closed");
        },
      },
    ])
      expect(compileWith(context, ...calls).diagnostics).toEqual([]);
  });

  it("only the outputs the plan reads are looked up, once each; an id not listed is never asked", () => {
    const asked: string[] = [];
    compileWith(
      storedContext(asked),
      log("†calls.named.a"),
      log("†calls.named.list[0]"),
      log("†calls.named.zz"),
      add("†calls.named.a"),
      log("†calls.evicted.a"),
      log("†state.x"),
    );
    expect(asked).toEqual(["named"]);
  });

  it("an output not listed (evicted) keeps REF_UNRESOLVED with its REF_EVICTED hint", () => {
    const context = storedContext([], {
      callOutputs: new Set(["other"]),
      evicted: (reference) => (reference === "†calls.named" ? "evicted at T (keepLastN)" : undefined),
    });
    const result = compileWith(context, log("†calls.named.a"));
    expect(codes(result.diagnostics)).toEqual([["REF_UNRESOLVED", "/plan/0/message"]]);
    expect(result.diagnostics[0]?.hint).toMatch(/^REF_EVICTED: †calls\.named was evicted at T/);
  });

  it("streaming agrees: add refuses the type mismatch at once, close reports the missing path", () => {
    const calls = [add("†calls.named.a"), log("†calls.named.zz"), log("†calls.named.a")];
    const compiler = createIncrementalCompiler(registry, { context: storedContext() });
    const added = calls.map((call) => compiler.addCall(call));
    expect(added.map((result) => codes(result.diagnostics))).toEqual([
      [["REF_TYPE_MISMATCH", "/plan/0/a"]],
      [],
      [],
    ]);
    const batch = compileWith(storedContext(), ...calls);
    expect(codes(compiler.close().diagnostics)).toEqual(codes(batch.diagnostics));
  });
});
