import type { JsonValue } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
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
    // another writer at or below the array may lengthen it first
    expect(codes({ list: [1, 2] }, write("†state.list[3]"), write("†state.list[2]"))).toEqual([]);
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
