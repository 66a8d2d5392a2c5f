import type { Diagnostic, JsonValue } from "@obelisk/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { pathQueryWork } from "./path-index.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
/** A call of `now` (no schemas: any method takes its value) writing `path` with `method`. */
const write = (path: string, method?: string, id?: string) => ({
  _tool: "now",
  ...(id === undefined ? {} : { _id: id }),
  _outputPath: path,
  ...(method === undefined ? {} : { _outputMethod: method }),
});
const found = (state: JsonValue | undefined, ...calls: unknown[]) =>
  compile({ plan: calls }, registry, state === undefined ? {} : { context: { state } }).diagnostics.map(
    (d) => ({
      code: d.code,
      pointer: d.pointer,
      message: d.message,
    }),
  );
const codes = (state: JsonValue | undefined, ...calls: unknown[]) =>
  found(state, ...calls).map((d) => d.code);

describe("a write the thread's stored state certainly refuses is REF_TYPE_MISMATCH (decision 0091)", () => {
  it("a target below a stored scalar, at /_outputPath, with what is there", () => {
    expect(found({ a: "str" }, write("†state.a.b"))).toEqual([
      {
        code: "REF_TYPE_MISMATCH",
        pointer: "/plan/0/_outputPath",
        message:
          "†state.a.b cannot be written: the thread's state holds a string at †state.a, and nothing can be written through it",
      },
    ]);
    for (const scalar of [1, true, null, "", 0])
      expect(codes({ a: { b: scalar } }, write("†state.a.b.c.d")), JSON.stringify(scalar)).toEqual([
        "REF_TYPE_MISMATCH",
      ]);
    // unknown state, a missing or container ancestor: nothing to say
    expect(codes(undefined, write("†state.a.b"))).toEqual([]);
    expect(codes({}, write("†state.a.b"))).toEqual([]);
    expect(codes({ a: { c: 1 } }, write("†state.a.b.c"))).toEqual([]);
    expect(codes({ a: "str" }, write("†state.a"))).toEqual([]);
  });

  it("an accumulating method onto a stored value of the wrong kind; onto the right one or nothing it applies", () => {
    const at = (state: JsonValue, method: string) => codes({ x: state }, write("†state.x", method));
    for (const method of ["push", "concat"]) {
      expect(at("str", method), method).toEqual(["REF_TYPE_MISMATCH"]);
      expect(at({}, method), method).toEqual(["REF_TYPE_MISMATCH"]);
      expect(at([], method), method).toEqual([]);
    }
    for (const method of ["merge", "assign"]) {
      expect(at([1], method), method).toEqual(["REF_TYPE_MISMATCH"]);
      expect(at(null, method), method).toEqual(["REF_TYPE_MISMATCH"]);
      expect(at({ k: 1 }, method), method).toEqual([]);
    }
    expect(at("str", "set")).toEqual([]);
    expect(codes({}, write("†state.x", "push"))).toEqual([]);
    expect(found({ x: "str" }, write("†state.x", "push"))[0]?.message).toBe(
      "†state.x cannot be written: the thread's state holds a string at †state.x, and push needs an array there",
    );
  });

  it("a key into a stored array, or an index past its end", () => {
    expect(codes({ list: [1, 2] }, write("†state.list.x"))).toEqual(["REF_TYPE_MISMATCH"]);
    expect(codes({ list: [1, 2] }, write("†state.list[3]"))).toEqual(["REF_TYPE_MISMATCH"]);
    expect(codes({ list: [1, 2] }, write("†state.list[2]"))).toEqual([]);
    expect(codes({ list: [1, { a: "s" }] }, write("†state.list[1].a.b"))).toEqual(["REF_TYPE_MISMATCH"]);
    // an earlier writer below the array may lengthen it first; a later one is not counted (see below)
    expect(codes({ list: [1, 2] }, write("†state.list[2]"), write("†state.list[3]"))).toEqual([]);
    expect(codes({ list: [1, 2] }, write("†state.list[3]"), write("†state.list[2]"))).toEqual([
      "REF_TYPE_MISMATCH",
    ]);
    expect(codes({ list: [1, 2] }, write("†state.list[3]"), write("†state.list", "push"))).toEqual([
      "OUTPUT_CONFLICT",
    ]);
  });

  it("not when a call of the plan (earlier or later, compiled or not) writes the stored path or above it", () => {
    expect(codes({ a: "str" }, write("†state.a.b"), write("†state.a"))).toEqual(["OUTPUT_CONFLICT"]);
    expect(codes({ a: "str" }, write("†state.a"), write("†state.a.b"))).toEqual(["OUTPUT_CONFLICT"]);
    expect(codes({ a: { b: 1 } }, write("†state.a.b.c"), { _tool: "nwo", _outputPath: "†state.a" })).toEqual([
      "TOOL_UNKNOWN",
      "OUTPUT_CONFLICT",
    ]);
    // the call's own other target above it, too
    const both = { _tool: "verifyUser", userId: "u", _outputPath: "†state.a || †state.a.b" };
    expect(codes({ a: "str" }, both)).toEqual([]);
    // a writer elsewhere changes nothing
    expect(codes({ a: "str" }, write("†state.a.b"), write("†state.c"))).toEqual(["REF_TYPE_MISMATCH"]);
  });

  it("co-accumulators of the stored path keep its kind: each of them is told", () => {
    expect(
      found({ s: "str" }, write("†state.s", "push"), write("†state.s", "merge")).map((d) => [
        d.code,
        d.pointer,
      ]),
    ).toEqual([
      ["REF_TYPE_MISMATCH", "/plan/0/_outputPath"],
      ["REF_TYPE_MISMATCH", "/plan/1/_outputPath"],
    ]);
  });

  it("every alternative's target (the failure branch too); an invalid _outputMethod judges the way down only", () => {
    const verify = { _tool: "verifyUser", userId: "u", _outputPath: "†state.ok || †state.bad.x" };
    expect(found({ bad: 3 }, verify).map((d) => [d.code, d.message.slice(0, 31)])).toEqual([
      ["REF_TYPE_MISMATCH", "†state.bad.x cannot be written:"],
    ]);
    const twice = {
      _tool: "verifyUser",
      userId: "u",
      _outputPath: "†state.s || †state.s",
      _outputMethod: "push",
    };
    expect(codes({ s: "str" }, twice)).toEqual(["REF_TYPE_MISMATCH"]);
    expect(codes({ s: "str" }, write("†state.s", "append"))).toEqual(["OUTPUT_METHOD_INVALID"]);
    expect(codes({ s: "str" }, write("†state.s.t", "append"))).toEqual([
      "REF_TYPE_MISMATCH",
      "OUTPUT_METHOD_INVALID",
    ]);
  });

  it("streaming refuses the call as it arrives, as batch says of it after the calls before it", () => {
    const state = { a: "str", s: "str" };
    const compiler = createIncrementalCompiler(registry, { context: { state } });
    expect(compiler.addCall(write("†state.c")).ok).toBe(true);
    const refused = compiler.addCall(write("†state.a.b"));
    expect(refused.ok).toBe(false);
    expect(refused.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ["REF_TYPE_MISMATCH", "/plan/1/_outputPath"],
    ]);
    expect(compiler.addCall(write("†state.s", "push")).diagnostics.map((d) => d.code)).toEqual([
      "REF_TYPE_MISMATCH",
    ]);
    // a refused call is no writer: the next one is judged alone
    expect(compiler.addCall(write("†state.s", "push")).ok).toBe(false);
    const closed = compiler.close();
    expect(closed.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ["REF_TYPE_MISMATCH", "/plan/1/_outputPath"],
      ["REF_TYPE_MISMATCH", "/plan/2/_outputPath"],
      ["REF_TYPE_MISMATCH", "/plan/3/_outputPath"],
    ]);
    // after an accepted writer of the path above it, a call is accepted (and its conflict refuses it)
    const other = createIncrementalCompiler(registry, { context: { state } });
    expect(other.addCall(write("†state.a", "set")).ok).toBe(true);
    expect(other.addCall(write("†state.a.b")).diagnostics.map((d) => d.code)).toEqual(["OUTPUT_CONFLICT"]);
  });
});

/** What streaming says of `calls` (each call's answer, then `close`), against `state`. */
function streamed(state: JsonValue, calls: readonly unknown[]) {
  const compiler = createIncrementalCompiler(registry, { context: { state } });
  const accepted = calls.map((call) => compiler.addCall(call).ok);
  const closed = compiler.close().diagnostics.map((d) => [d.code, d.pointer]);
  return { accepted, closed };
}
const batch = (state: JsonValue, calls: readonly unknown[]) =>
  compile({ plan: [...calls] }, registry, { context: { state } }).diagnostics.map((d) => [d.code, d.pointer]);

describe("an index past the end: batch and streaming say the same (decision 0091, amended)", () => {
  it("a later writer below the array does not count, an earlier one does, in either mode", () => {
    const state = { arr: [1] };
    const later = [write("†state.arr[2]"), write("†state.arr[1]")];
    expect(batch(state, later)).toEqual([["REF_TYPE_MISMATCH", "/plan/0/_outputPath"]]);
    expect(streamed(state, later)).toEqual({
      accepted: [false, true],
      closed: [["REF_TYPE_MISMATCH", "/plan/0/_outputPath"]],
    });
    const earlier = [write("†state.arr[1]"), write("†state.arr[2]")];
    expect(batch(state, earlier)).toEqual([]);
    expect(streamed(state, earlier)).toEqual({ accepted: [true, true], closed: [] });
    // a writer at or above the array counts wherever it is (a later one conflicts with the call)
    const above = [write("†state.arr[5]"), write("†state.arr", "push")];
    expect(batch(state, above)).toEqual([["OUTPUT_CONFLICT", "/plan/1/_outputPath"]]);
  });

  it("the call's own other target counts in both modes; a call that did not compile only when earlier", () => {
    const own = { _tool: "verifyUser", userId: "u", _outputPath: "†state.arr[1] || †state.arr[2]" };
    expect(batch({ arr: [] }, [own])).toEqual([]);
    expect(streamed({ arr: [] }, [own])).toEqual({ accepted: [true], closed: [] });
    const above = { _tool: "verifyUser", userId: "u", _outputPath: "†state.a || †state.a.b" };
    expect(batch({ a: "str" }, [above])).toEqual([]);
    expect(streamed({ a: "str" }, [above])).toEqual({ accepted: [true], closed: [] });
    const unknown = { _tool: "nwo", _outputPath: "†state.arr[0]" };
    expect(batch({ arr: [] }, [unknown, write("†state.arr[1]")]).map(([code]) => code)).toEqual([
      "TOOL_UNKNOWN",
    ]);
    expect(batch({ arr: [] }, [write("†state.arr[1]"), unknown])).toEqual([
      ["REF_TYPE_MISMATCH", "/plan/0/_outputPath"],
      ["TOOL_UNKNOWN", "/plan/1/_tool"],
    ]);
  });
});

describe("the stored-state check's work is linear in the plan (decision 0091's cost)", () => {
  /** Index nodes the check visits for `n` calls made by `make`, batch and streaming. */
  function visits(
    state: JsonValue,
    n: number,
    make: (i: number) => unknown,
  ): { batch: number; stream: number } {
    const calls = Array.from({ length: n }, (_, i) => make(i));
    let before = pathQueryWork.visits;
    compile({ plan: calls }, registry, { context: { state } });
    const inBatch = pathQueryWork.visits - before;
    before = pathQueryWork.visits;
    const compiler = createIncrementalCompiler(registry, { context: { state } });
    for (const call of calls) compiler.addCall(call);
    compiler.close();
    return { batch: inBatch, stream: pathQueryWork.visits - before };
  }

  it("filling a stored empty array item by item, and pushing onto a stored string: O(depth) per call", () => {
    const fill = (i: number) => write(`†state.arr[${i}]`);
    const push = () => write("†state.s", "push");
    for (const [state, make] of [
      [{ arr: [] }, fill],
      [{ s: "str" }, push],
    ] as const) {
      const small = visits(state, 400, make);
      const large = visits(state, 1600, make);
      for (const mode of ["batch", "stream"] as const) {
        // a few nodes per call (the path's depth), not one per earlier writer
        expect(large[mode], mode).toBeLessThanOrEqual(1600 * 8);
        expect(large[mode], mode).toBeLessThanOrEqual(4 * small[mode] + 64);
      }
    }
  });
});

describe("batch and streaming agree on the stored-state check", () => {
  const state = { arr: [1], s: "str", o: { k: 1 }, n: null };
  const paths = [
    "arr",
    "arr[0]",
    "arr[1]",
    "arr[2]",
    "arr[3]",
    "arr[1].x",
    "arr.x",
    "s",
    "s.t",
    "o",
    "o.k",
    "o.k.z",
    "n.q",
  ];
  const callArb = fc.record({
    alternatives: fc.boolean(),
    targets: fc.array(fc.constantFrom(...paths), { minLength: 1, maxLength: 2 }),
    method: fc.constantFrom("set", "push", "merge"),
  });
  const plan = (specs: readonly { alternatives: boolean; targets: readonly string[]; method: string }[]) =>
    specs.map((spec, i) => ({
      _tool: spec.alternatives ? "verifyUser" : "now",
      ...(spec.alternatives ? { userId: "u" } : {}),
      _id: `c${i}`,
      _outputPath: spec.targets.map((path) => `†state.${path}`).join(spec.alternatives ? " || " : " && "),
      _outputMethod: spec.method,
    }));
  const sorted = (diagnostics: readonly Diagnostic[]) =>
    diagnostics.map((d) => `${d.code} ${d.pointer} ${d.message}`).sort();

  it("each add answers what batch says of that call after the calls accepted before it", () => {
    fc.assert(
      fc.property(fc.array(callArb, { minLength: 1, maxLength: 8 }), (specs) => {
        const compiler = createIncrementalCompiler(registry, { context: { state } });
        const accepted: unknown[] = [];
        for (const [i, call] of plan(specs).entries()) {
          const added = compiler.addCall(call);
          const own = `/plan/${accepted.length}`;
          // a call refused for OUTPUT_CONFLICT is refused before its stored-state check
          const conflict = added.diagnostics.some((d) => d.code === "OUTPUT_CONFLICT");
          const expected = compile({ plan: [...accepted, call] }, registry, { context: { state } })
            .diagnostics.filter((d) => d.pointer === own || d.pointer.startsWith(`${own}/`))
            .filter((d) => !conflict || !d.message.includes(" cannot be written: "))
            .map((d) => ({ ...d, pointer: `/plan/${i}${d.pointer.slice(own.length)}` }));
          expect(sorted(added.diagnostics)).toEqual(sorted(expected));
          if (added.ok) accepted.push(call);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("a plan batch finds nothing wrong with is accepted call by call; one streaming accepts closes as batch", () => {
    fc.assert(
      fc.property(fc.array(callArb, { minLength: 1, maxLength: 8 }), (specs) => {
        const calls = plan(specs);
        const inBatch = compile({ plan: calls }, registry, { context: { state } }).diagnostics;
        const compiler = createIncrementalCompiler(registry, { context: { state } });
        const accepted = calls.map((call) => compiler.addCall(call).ok);
        const closed = compiler.close().diagnostics;
        if (inBatch.length === 0) expect(accepted.every(Boolean)).toBe(true);
        if (accepted.every(Boolean)) expect(sorted(closed)).toEqual(sorted(inBatch));
      }),
      { numRuns: 300 },
    );
  });
});
