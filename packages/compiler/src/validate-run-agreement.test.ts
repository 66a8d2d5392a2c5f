import type { Diagnostic, JsonObject } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { batchAndStreamed } from "./__fixtures__/batch-and-streamed.js";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import type { CompileContext } from "./compiled-plan.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

// Decision 0114 (review s42 q1): four places where validate said OK and the run failed, or the reverse.

const registry = createToolRegistry(exampleTools);
type StateWriter = NonNullable<CompileContext["stateWriter"]>;
const codes = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => [d.code, d.pointer]);
const full = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((d) => ({ code: d.code, pointer: d.pointer, message: d.message, hint: d.hint }));
/** Batch and streamed diagnostics (the same), as code and pointer. */
const both = (calls: readonly JsonObject[], context: CompileContext = { state: {} }) =>
  batchAndStreamed(registry, calls, context, codes);
/** A call of `now` (no schemas) writing `path` with `method`. */
const write = (id: string, path: string, method = "set"): JsonObject => ({
  _tool: "now",
  _id: id,
  _outputPath: path,
  _outputMethod: method,
});
/** `add` reads its `a` as a number. */
const reader = (reference: string): JsonObject => ({ _tool: "add", _id: "r", a: reference, b: 1 });

describe("a re-sent or resumed call is not judged by the stored value it wrote itself (finding 1)", () => {
  const merge = write("m", "†state.p", "merge");
  const writtenBy =
    (callId: string, tool: string): StateWriter =>
    (reference) =>
      reference === "†state.p" ? { callId, tool } : undefined;

  it("a merge that set a number is accepted again when the state says this call wrote it", () => {
    const context = (stateWriter?: StateWriter): CompileContext => ({
      state: { p: 1 },
      ...(stateWriter === undefined ? {} : { stateWriter }),
    });
    expect(both([merge], context(writtenBy("m", "now")))).toEqual([]);
    // another call's value, another tool under the id, or no answer: judged as before (decision 0091)
    for (const stateWriter of [undefined, writtenBy("other", "now"), writtenBy("m", "add")])
      expect(both([merge], context(stateWriter))).toEqual([["REF_TYPE_MISMATCH", "/plan/0/_outputPath"]]);
    // a host answer that throws is unknown: judged as before
    const throwing: StateWriter = () => {
      throw new Error("store gone");
    };
    expect(both([merge], context(throwing))).toEqual([["REF_TYPE_MISMATCH", "/plan/0/_outputPath"]]);
  });

  it("an unnamed call matches an automatic id of its tool (a re-send numbers it anew)", () => {
    const unnamed = { _tool: "now", _outputPath: "†state.p", _outputMethod: "merge" };
    const context = (callId: string, tool = "now"): CompileContext => ({
      state: { p: 1 },
      stateWriter: writtenBy(callId, tool),
    });
    expect(both([unnamed], context("now$7"))).toEqual([]);
    for (const [callId, tool] of [
      ["m", "now"],
      ["add$1", "add"],
    ] as const)
      expect(both([unnamed], context(callId, tool)), callId).toEqual([
        ["REF_TYPE_MISMATCH", "/plan/0/_outputPath"],
      ]);
    // a named call is not the unnamed call that wrote
    expect(both([merge], context("now$1"))).toEqual([["REF_TYPE_MISMATCH", "/plan/0/_outputPath"]]);
  });

  it("the writer is asked only for a write the stored state refuses, by the store's reference text", () => {
    const asked: string[] = [];
    const stateWriter: StateWriter = (reference) => {
      asked.push(reference);
      return undefined;
    };
    compile({ plan: [write("a", "†state.ok"), write("b", "†state.x[0]", "push")] }, registry, {
      context: { state: { x: [5] }, stateWriter },
    });
    expect(asked).toEqual(["†state.x[0]"]);
  });
});

describe("a reader's type when its writer leaves a container (finding 2)", () => {
  it("push and concat leave an array, assign an object: a number parameter is REF_TYPE_MISMATCH", () => {
    for (const method of ["push", "concat", "assign"])
      expect(both([write("w", "†state.a", method), reader("†state.a")]), method).toEqual([
        ["REF_TYPE_MISMATCH", "/plan/1/a"],
      ]);
  });

  it("a write below leaves an object (a name) or an array (an index; the stored object it names a key of)", () => {
    expect(both([write("w", "†state.a.z"), reader("†state.a")])).toEqual([
      ["REF_TYPE_MISMATCH", "/plan/1/a"],
    ]);
    expect(both([write("w", "†state.a.z"), reader("†state.a")], { state: { a: { c: 1 } } })).toEqual([
      ["REF_TYPE_MISMATCH", "/plan/1/a"],
    ]);
    expect(both([write("w", "†state.a[0]"), reader("†state.a")])).toEqual([
      ["REF_TYPE_MISMATCH", "/plan/1/a"],
    ]);
    // the message says what the writer leaves
    const [array] = compile({ plan: [write("w", "†state.a[0]"), reader("†state.a")] }, registry, {
      context: { state: {} },
    }).diagnostics;
    expect(array?.message).toContain("array");
    const [keyed] = compile({ plan: [write("w", "†state.a[0]"), reader("†state.a")] }, registry, {
      context: { state: { a: {} } },
    }).diagnostics;
    expect(keyed?.message).toContain("object");
    // without the state: array or object, neither a number
    expect(both([write("w", "†state.a[0]"), reader("†state.a")], {})).toEqual([
      ["REF_TYPE_MISMATCH", "/plan/1/a"],
    ]);
  });

  it("a merge leaves an object, or its value on a missing path: unknown when its value is", () => {
    const fetch = {
      _tool: "fetchUser",
      _id: "w",
      userId: "u",
      _outputPath: "†state.a",
      _outputMethod: "merge",
    };
    expect(both([fetch, reader("†state.a")])).toEqual([["REF_TYPE_MISMATCH", "/plan/1/a"]]);
    expect(both([write("w", "†state.a", "merge"), reader("†state.a")])).toEqual([]);
    const number = { _tool: "add", _id: "w", a: 1, b: 2, _outputPath: "†state.a", _outputMethod: "merge" };
    expect(both([number, reader("†state.a")])).toEqual([]);
  });

  it("what stays unknown: an item of an accumulated array, a negative index", () => {
    expect(both([write("w", "†state.a", "push"), reader("†state.a[0]")])).toEqual([]);
    expect(both([write("w", "†state.a[0].b"), reader("†state.a[-1]")])).toEqual([]);
  });
});

describe("co-writers of one path whose methods cannot both apply are OUTPUT_CONFLICT (finding 3)", () => {
  it("an array method and an object method, either order, naming both calls", () => {
    expect(
      batchAndStreamed(
        registry,
        [write("o", "†state.l", "assign"), write("p", "†state.l", "push")],
        { state: {} },
        full,
      ),
    ).toEqual([
      {
        code: "OUTPUT_CONFLICT",
        pointer: "/plan/1/_outputPath",
        message:
          'calls "o" and "p" both write †state.l: assign leaves an object there, and push needs an array',
        hint: "co-writers of one path accumulate into one container: push and concat into an array, merge and assign into an object — give both the same kind of method, or write to different paths",
      },
    ]);
    for (const [a, b] of [
      ["push", "merge"],
      ["concat", "assign"],
    ] as const)
      expect(both([write("x", "†state.l", a), write("y", "†state.l", b)]), `${a} ${b}`).toEqual([
        ["OUTPUT_CONFLICT", "/plan/1/_outputPath"],
      ]);
    // a first merge sets a missing path to its value: an array value (unknown here) leaves an array to push onto
    expect(both([write("x", "†state.l", "merge"), write("y", "†state.l", "concat")])).toEqual([]);
    const objectMerge = {
      _tool: "fetchUser",
      _id: "x",
      userId: "u",
      _outputPath: "†state.l",
      _outputMethod: "merge",
    };
    expect(both([objectMerge, write("y", "†state.l", "concat")])).toEqual([
      ["OUTPUT_CONFLICT", "/plan/1/_outputPath"],
    ]);
  });

  it("one family is fine, as is a single co-writer; each later mismatch is told against the first", () => {
    for (const [a, b] of [
      ["push", "concat"],
      ["merge", "assign"],
      ["merge", "merge"],
    ] as const)
      expect(both([write("x", "†state.l", a), write("y", "†state.l", b)]), `${a} ${b}`).toEqual([]);
    expect(
      both([
        write("x", "†state.l", "push"),
        write("y", "†state.l", "push"),
        write("z", "†state.l", "assign"),
      ]),
    ).toEqual([["OUTPUT_CONFLICT", "/plan/2/_outputPath"]]);
  });

  it("a merge co-writer whose value is never an object (its tool's output schema)", () => {
    const log = (id: string): JsonObject => ({
      _tool: "log",
      _id: id,
      message: "hi",
      _outputPath: "†state.m",
      _outputMethod: "merge",
    });
    const fetch = {
      _tool: "fetchUser",
      _id: "f",
      userId: "u",
      _outputPath: "†state.m",
      _outputMethod: "merge",
    };
    const [diagnostic] = batchAndStreamed(registry, [log("a"), log("b")], { state: {} }, full);
    expect(diagnostic?.message).toBe(
      'calls "a" and "b" both write †state.m: "a" merges a value typed string (never an object), which only a missing path takes, so the other write fails',
    );
    expect(both([fetch, log("b")])).toEqual([["OUTPUT_CONFLICT", "/plan/1/_outputPath"]]);
    expect(both([log("a"), fetch])).toEqual([["OUTPUT_CONFLICT", "/plan/1/_outputPath"]]);
    // a lone merge sets a missing path to its value; unknown values stay silent
    expect(both([log("a")])).toEqual([]);
    expect(both([fetch, write("n", "†state.m", "merge")])).toEqual([]);
  });
});

describe("a streamed call reading its own †calls output the thread lacks is refused at add (finding 4)", () => {
  const self = { _tool: "log", _id: "self", message: "{†calls.self}" };

  it("refused at add, as batch refuses it", () => {
    const stream = createIncrementalCompiler(registry, { context: { state: {}, callOutputs: new Set() } });
    const added = stream.addCall(self);
    expect(added.ok).toBe(false);
    expect(codes(added.diagnostics)).toEqual([["REF_UNRESOLVED", "/plan/0/message"]]);
    expect(added.diagnostics[0]?.hint).toContain("a call cannot read its own output");
    expect(both([self], { state: {}, callOutputs: new Set() })).toEqual([
      ["REF_UNRESOLVED", "/plan/0/message"],
    ]);
  });

  it("accepted when the thread holds it, or when the stored outputs are unknown", () => {
    for (const context of [{ state: {}, callOutputs: new Set(["self"]) }, {}]) {
      const stream = createIncrementalCompiler(registry, { context });
      expect(stream.addCall(self).ok).toBe(true);
    }
  });
});
