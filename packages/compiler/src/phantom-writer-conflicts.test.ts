import type { Diagnostic } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const shown = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((d) => ({ code: d.code, pointer: d.pointer, message: d.message, related: d.related }));
const check = (...calls: unknown[]) => shown(compile({ plan: calls }, registry).diagnostics);
const conflicts = (...calls: unknown[]) => check(...calls).filter((d) => d.code === "OUTPUT_CONFLICT");

describe("calls that could not be compiled conflict with each other (decision 0091)", () => {
  it("two unknown tools writing one path: OUTPUT_CONFLICT at the later one, with both TOOL_UNKNOWN", () => {
    expect(
      check(
        { _tool: "greetUsr", userName: "a", _outputPath: "†state.g" },
        { _tool: "greetUsr", userName: "b", _outputPath: "†state.g" },
      ),
    ).toEqual([
      expect.objectContaining({ code: "TOOL_UNKNOWN", pointer: "/plan/0/_tool" }),
      expect.objectContaining({ code: "TOOL_UNKNOWN", pointer: "/plan/1/_tool" }),
      {
        code: "OUTPUT_CONFLICT",
        pointer: "/plan/1/_outputPath",
        message: "the call at /plan/0 and the call at /plan/1 both write †state.g",
        related: undefined,
      },
    ]);
    // but not accumulating writers of one path, nor calls with one repeated id (CALL_ID_DUPLICATE)
    const push = { _outputPath: "†state.list", _outputMethod: "push" };
    expect(
      conflicts({ _tool: "greetUsr", userName: "a", ...push }, { _tool: "greetUsr", userName: "b", ...push }),
    ).toEqual([]);
    expect(
      check(
        { _tool: "greetUsr", _id: "a", userName: "a", _outputPath: "†state.g" },
        { _tool: "greetUsr", _id: "a", userName: "b", _outputPath: "†state.g" },
      ).map((d) => d.code),
    ).toEqual(["TOOL_UNKNOWN", "TOOL_UNKNOWN", "CALL_ID_DUPLICATE"]);
  });

  it("names the calls by their ids when they have one, and an ancestor overlaps", () => {
    expect(
      conflicts(
        { _tool: "greetUsr", _id: "a", userName: "a", _outputPath: "†state.g" },
        { _tool: "greetUsr", userName: "b", _outputPath: "†state.g.x" },
        { _tool: "greetUsr", _id: "c", userName: "c", _outputPath: "†state.g.y" },
      ),
    ).toEqual([
      {
        code: "OUTPUT_CONFLICT",
        pointer: "/plan/1/_outputPath",
        message: 'calls "a" and the call at /plan/1 both write †state.g and †state.g.x',
        related: ["a"],
      },
      {
        code: "OUTPUT_CONFLICT",
        pointer: "/plan/2/_outputPath",
        message: 'calls "a" and "c" both write †state.g and †state.g.y',
        related: ["a", "c"],
      },
    ]);
  });

  it("n such writers of one path give n − 1, each naming the first", () => {
    const calls = Array.from({ length: 300 }, (_, i) => ({
      _tool: "greetUsr",
      userName: `${i}`,
      _outputPath: "†state.g",
    }));
    const found = conflicts(...calls);
    expect(found).toHaveLength(299);
    expect(found.every((d) => d.message.startsWith("the call at /plan/0 and "))).toBe(true);
    // fixing the tool name reveals nothing new: the same conflicts, now between compiled calls
    const fixed = calls.map((call) => ({ ...call, _tool: "greetUser" }));
    expect(conflicts(...fixed).map((d) => d.pointer)).toEqual(found.map((d) => d.pointer));
    // streaming refuses each such call as if never sent: no conflict between them
    const compiler = createIncrementalCompiler(registry);
    for (const userName of ["a", "b"]) {
      const answer = compiler.addCall({ _tool: "greetUsr", userName, _outputPath: "†state.g" });
      expect(answer.diagnostics.map((d) => d.code)).toEqual(["TOOL_UNKNOWN"]);
    }
  });

  it("with a compiled writer too: each pair once, in document order", () => {
    expect(
      conflicts(
        { _tool: "greetUsr", userName: "a", _outputPath: "†state.g" },
        { _tool: "greetUser", _id: "k", userName: "k", _outputPath: "†state.g" },
        { _tool: "greetUsr", userName: "b", _outputPath: "†state.g" },
      ).map((d) => [d.pointer, d.message]),
    ).toEqual([
      ["/plan/0/_outputPath", 'calls "k" and the call at /plan/0 both write †state.g'],
      ["/plan/2/_outputPath", 'calls "k" and the call at /plan/2 both write †state.g'],
      ["/plan/2/_outputPath", "the call at /plan/0 and the call at /plan/2 both write †state.g"],
    ]);
  });
});
