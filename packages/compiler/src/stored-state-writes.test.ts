import type { Diagnostic, JsonObject, JsonValue, OutputMethod, Path } from "@obelisk/core";
import { applyOutput, formatReference } from "@obelisk/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { batchAndStreamed } from "./__fixtures__/batch-and-streamed.js";
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
      found({ s: "str" }, write("†state.s", "push"), write("†state.s", "concat")).map((d) => [
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

describe("an index past 0 into an array the write itself creates is REF_TYPE_MISMATCH (decision 0107)", () => {
  const one = (state: JsonValue, path: string, method?: string) => found(state, write(path, method));
  const empty = (index: number) =>
    `cannot write at index ${index} of an array of length 0: the array is empty: write at index 0, or append with _outputMethod "push"`;

  it("names what is missing, the array the write creates and the index, at /_outputPath", () => {
    expect(one({}, "†state.a[1].b")).toEqual([
      {
        code: "REF_TYPE_MISMATCH",
        pointer: "/plan/0/_outputPath",
        message: `†state.a[1].b cannot be written: the thread's state holds nothing at †state.a, and the write creates an empty array there: ${empty(1)}`,
      },
    ]);
    expect(one({}, "†state.x[3]")[0]?.message).toBe(
      `†state.x[3] cannot be written: the thread's state holds nothing at †state.x, and the write creates an empty array there: ${empty(3)}`,
    );
    expect(one({}, "†state.a.b[2]")[0]?.message).toBe(
      `†state.a.b[2] cannot be written: the thread's state holds nothing at †state.a, and the write creates †state.a.b as an empty array: ${empty(2)}`,
    );
    expect(one({ a: {} }, "†state.a.b[1]")[0]?.message).toBe(
      `†state.a.b[1] cannot be written: the thread's state holds nothing at †state.a.b, and the write creates an empty array there: ${empty(1)}`,
    );
    // below an index that appends to a stored array, and below a created array's item 0
    expect(codes({ a: [[]] }, write("†state.a[1][2]"))).toEqual(["REF_TYPE_MISMATCH"]);
    expect(one({}, "†state.a[0][1]")[0]?.message).toBe(
      `†state.a[0][1] cannot be written: the thread's state holds nothing at †state.a, and the write creates †state.a[0] as an empty array: ${empty(1)}`,
    );
    const compiled = compile({ plan: [write("†state.a[1]")] }, registry, { context: { state: {} } });
    expect(compiled.diagnostics[0]?.hint).toBe(
      'write to †state.a[0] (a missing array is created empty), or let an earlier call write it first, or append with _outputMethod "push" onto †state.a',
    );
    // index 0 appends to the created array, a name creates an object; unknown state says nothing
    for (const path of ["†state.a[0]", "†state.a[0].b", "†state.a.b[0]", "†state.a[0][0].c", "†state.a.b"])
      expect(codes({}, write(path)), path).toEqual([]);
    expect(codes({ a: {} }, write("†state.a.b[0]"))).toEqual([]);
    // a stored object takes an index as a key (core writes "1" into it)
    expect(codes({ a: {} }, write("†state.a[1]"))).toEqual([]);
    expect(codes(undefined, write("†state.a[1].b"))).toEqual([]);
  });

  it("whatever the method: each combines into what the created array holds at that index, which it never reaches", () => {
    for (const method of ["set", "push", "concat", "merge", "assign"]) {
      expect(codes({}, write("†state.list[1]", method)), method).toEqual(["REF_TYPE_MISMATCH"]);
      // onto the missing array itself: push and concat create it, the others set it
      expect(codes({}, write("†state.list", method)), method).toEqual([]);
      expect(codes({}, write("†state.list[0]", method)), method).toEqual([]);
    }
  });

  it("not when another call may create or lengthen the array first (0091's rule for an index past the end)", () => {
    const reads = { _tool: "log", message: "†state.a[0]", _outputPath: "†state.a[1]" };
    expect(codes({}, write("†state.a[0]"), reads)).toEqual([]);
    expect(codes({}, write("†state.a[0]"), write("†state.a[1]"))).toEqual([]);
    // a later writer below it does not count, one at or above it does (and conflicts)
    expect(found({}, write("†state.a[1]"), write("†state.a[0]")).map((d) => d.pointer)).toEqual([
      "/plan/0/_outputPath",
    ]);
    expect(codes({}, write("†state.a[1]"), write("†state.a", "push"))).toEqual(["OUTPUT_CONFLICT"]);
    // above the created array, between it and what is missing: †state.a.b[2] with a missing
    expect(codes({}, write("†state.a"), write("†state.a.b[2]"))).toEqual(["OUTPUT_CONFLICT"]);
    expect(codes({}, write("†state.a.b.x"), write("†state.a.b[2]"))).toEqual([]);
    // a writer beside it creates †state.a but not †state.a.b
    expect(codes({}, write("†state.a.c"), write("†state.a.b[2]"))).toEqual(["REF_TYPE_MISMATCH"]);
    // the call's own other target, and an earlier call that did not compile
    const own = { _tool: "verifyUser", userId: "u", _outputPath: "†state.a[0] || †state.a[1]" };
    expect(codes({}, own)).toEqual([]);
    expect(codes({}, { _tool: "now", _outputPath: "†state.a[0] && †state.a[1]" })).toEqual([]);
    expect(codes({}, { _tool: "nwo", _outputPath: "†state.a[0]" }, write("†state.a[1]"))).toEqual([
      "TOOL_UNKNOWN",
    ]);
  });

  it("batch and streaming say the same, a stream refusing the call as it arrives", () => {
    const shape = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => [d.code, d.pointer]);
    const plans: [JsonValue, ReturnType<typeof write>[], string[][]][] = [
      [{}, [write("†state.a[1]"), write("†state.a[0]")], [["REF_TYPE_MISMATCH", "/plan/0/_outputPath"]]],
      [{}, [write("†state.a[0]"), write("†state.a[1]")], []],
      [
        { a: {} },
        [write("†state.a.c"), write("†state.a.b[1]")],
        [["REF_TYPE_MISMATCH", "/plan/1/_outputPath"]],
      ],
      [{}, [write("†state.a.b.x"), write("†state.a.b[2]")], []],
    ];
    for (const [state, calls, expected] of plans)
      expect(batchAndStreamed(registry, calls, { state }, shape)).toEqual(expected);
    expect(streamed({}, [write("†state.a[1]"), write("†state.a[0]")]).accepted).toEqual([false, true]);
  });

  it("a container the write creates that the state schema types as the other kind, unless a writer may make it first", () => {
    const stateSchema = {
      type: "object",
      properties: {
        obj: { type: ["object", "null"], properties: { b: { type: "object" } } },
        arr: { type: "array" },
        either: { anyOf: [{ type: "object" }, { type: "array" }] },
      },
    };
    const against = (state: JsonValue | undefined, ...calls: unknown[]) =>
      compile({ plan: calls }, registry, {
        context: { stateSchema, ...(state === undefined ? {} : { state }) },
      }).diagnostics.map((d) => [d.code, d.message]);
    expect(against({}, write("†state.obj[0]"))).toEqual([
      [
        "REF_TYPE_MISMATCH",
        "†state.obj[0] cannot be written: the thread's state holds nothing at †state.obj, and the write creates an array there, which the state schema types as object or null",
      ],
    ]);
    expect(against({}, write("†state.arr.x"))[0]?.[1]).toBe(
      "†state.arr.x cannot be written: the thread's state holds nothing at †state.arr, and the write creates an object there, which the state schema types as array",
    );
    expect(against({}, write("†state.obj.b[0]"))[0]?.[1]).toBe(
      "†state.obj.b[0] cannot be written: the thread's state holds nothing at †state.obj, and the write creates †state.obj.b as an array, which the state schema types as object",
    );
    // an index past 0 fails in core's write before the schema is asked: that is what is said
    expect(against({}, write("†state.obj[1]"))[0]?.[1]).toContain(
      "cannot write at index 1 of an array of length 0",
    );
    // the kind the schema wants, a schema that leaves it open, a stored value, no stored state: nothing
    for (const path of [
      "†state.arr[0]",
      "†state.obj.x",
      "†state.either.x",
      "†state.either[0]",
      "†state.free[0]",
    ])
      expect(against({}, write(path)), path).toEqual([]);
    expect(against({ obj: {} }, write("†state.obj[0]"))).toEqual([]);
    expect(against(undefined, write("†state.obj[0]"))).toEqual([]);
    // an earlier writer below it makes the object first (core writes the key "0" into it); a later one does not
    expect(against({}, write("†state.obj.k"), write("†state.obj[0]"))).toEqual([]);
    expect(against({}, write("†state.obj[0]"), write("†state.obj.k")).map(([code]) => code)).toEqual([
      "REF_TYPE_MISMATCH",
    ]);
    const shape = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => [d.code, d.pointer]);
    const context = { state: {}, stateSchema };
    expect(
      batchAndStreamed(registry, [write("†state.obj.k"), write("†state.obj[0]")], context, shape),
    ).toEqual([]);
    expect(
      batchAndStreamed(registry, [write("†state.obj[0]"), write("†state.obj.k")], context, shape),
    ).toEqual([["REF_TYPE_MISMATCH", "/plan/0/_outputPath"]]);
  });

  it("beside a state schema: the schema cannot tell a missing array, the stored state does; one diagnostic", () => {
    const stateSchema = { type: "object", properties: { a: { type: "array", items: { type: "number" } } } };
    const withSchema = (state: JsonValue | undefined) =>
      compile({ plan: [write("†state.a[1]")] }, registry, {
        context: { stateSchema, ...(state === undefined ? {} : { state }) },
      }).diagnostics.map((d) => d.code);
    expect(withSchema({})).toEqual(["REF_TYPE_MISMATCH"]);
    expect(withSchema({ a: [1] })).toEqual([]);
    expect(withSchema(undefined)).toEqual([]);
  });
});

describe("the check says what core's applyOutput does at run time (decisions 0091, 0107)", () => {
  const leaf = fc.constantFrom<JsonValue>("s", 1, true, null);
  const { node } = fc.letrec<{ node: JsonValue }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leaf,
      fc.array(tie("node"), { maxLength: 2 }),
      fc.record({ a: tie("node"), b: tie("node") }, { requiredKeys: [] }),
    ),
  }));
  const stateArb = fc.record({ a: node, b: node }, { requiredKeys: [] });
  const pathArb = fc.tuple(
    fc.constantFrom("a", "b"),
    fc.array(fc.constantFrom<string | number>("a", "b", 0, 1, 2), { maxLength: 3 }),
  );
  /** A value each method can take (the value's type is the run's business, not this check's). */
  const VALUES: Record<string, JsonValue> = {
    set: 1,
    push: 1,
    concat: [1],
    merge: { k: 1 },
    assign: { k: 1 },
  };

  it("a lone write is refused exactly when applyOutput fails on the stored state, with its message", () => {
    fc.assert(
      fc.property(
        stateArb,
        pathArb,
        fc.constantFrom(...Object.keys(VALUES)),
        (state, [first, rest], method) => {
          const path: Path = [first, ...rest];
          const text = formatReference("state", path);
          const diagnostics = found(state as JsonValue, write(text, method));
          const applied = applyOutput(
            state as JsonValue,
            path,
            method as OutputMethod,
            VALUES[method] as JsonValue,
          );
          expect(diagnostics.map((d) => d.code)).toEqual(applied.ok ? [] : ["REF_TYPE_MISMATCH"]);
          // an index past an array's end is worded as core words it
          if (!applied.ok && applied.message.startsWith("cannot write at index"))
            expect(diagnostics[0]?.message.endsWith(applied.message)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
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

describe("a writer below the array that the call waits for counts, listed before or after it (review s42 rv #2)", () => {
  /** A call of `log` reading `message` (a reference, a template or a literal) and writing `path`. */
  const reads = (message: string, path: string, id?: string) => ({
    _tool: "log",
    ...(id === undefined ? {} : { _id: id }),
    message,
    _outputPath: path,
  });
  const shape = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => [d.code, d.pointer]);
  const both = (state: JsonValue, calls: readonly JsonObject[]) =>
    batchAndStreamed(registry, calls, { state }, shape);
  const mismatch = [["REF_TYPE_MISMATCH", "/plan/0/_outputPath"]];

  it("the reader listed first: valid in batch and in a stream, on an empty thread and a stored []", () => {
    const calls = [reads("†state.a[0]", "†state.a[1]", "B"), reads("first", "†state.a[0]", "A")];
    expect(both({}, calls)).toEqual([]);
    expect(both({ a: [] }, calls)).toEqual([]);
    expect(streamed({}, calls)).toEqual({ accepted: [true, true], closed: [] });
    // a read below the writer's target, and a template's operand, wait for it too
    expect(both({}, [reads("†state.a[0].x", "†state.a[1]"), write("†state.a[0]")])).toEqual([]);
    expect(both({}, [reads("x{†state.a[0]}", "†state.a[1]"), reads("first", "†state.a[0]")])).toEqual([]);
    // a stored array of one: the reader of the item that lengthens it
    expect(both({ a: ["s"] }, [reads("†state.a[1]", "†state.a[2]"), reads("t", "†state.a[1]")])).toEqual([]);
  });

  it("not a read the stored state answers, a fallback, another path, or a writer reached through a third call", () => {
    // the thread holds a[0]: the reader does not wait (a stream would not either), the later a[1] does not count
    expect(both({ a: ["s"] }, [reads("†state.a[0]", "†state.a[2]"), reads("t", "†state.a[1]")])).toEqual(
      mismatch,
    );
    // `||`: the reader may take the other alternative without waiting
    expect(both({}, [reads("†state.a[0] || †state.q", "†state.a[1]"), reads("t", "†state.a[0]")])).toEqual(
      mismatch,
    );
    expect(
      both({}, [reads("†state.q", "†state.a[1]"), reads("t", "†state.a[0]"), reads("u", "†state.q")]),
    ).toEqual(mismatch);
    const chained = [
      reads("†state.b.done", "†state.a[1]"),
      reads("x", "†state.a[0]"),
      reads("†state.a[0]", "†state.b.done"),
    ];
    expect(both({}, chained)).toEqual(mismatch);
  });

  it("a reader no call writes for: its unresolved read is what is said, in batch and at a stream's close", () => {
    expect(both({}, [reads("†state.a[0]", "†state.a[1]")])).toEqual([["REF_UNRESOLVED", "/plan/0/message"]]);
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
      // no stored arr: each write past index 0 creates it empty (decision 0107), each silenced by the one before
      [{}, fill],
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
    // missing: an array the write creates (decision 0107)
    "m",
    "m[0]",
    "m[1]",
    "o.q[1]",
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
