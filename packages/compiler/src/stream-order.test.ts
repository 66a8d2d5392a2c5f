import type { Diagnostic, JsonObject } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createIncrementalCompiler, type IncrementalCompileOptions } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const push = (id: string, path = "†state.results") => ({
  _tool: "log",
  _id: id,
  message: id,
  _outputPath: path,
  _outputMethod: "push",
});
const reader = (id: string, path = "†state.results") => ({ _tool: "log", _id: id, message: `{${path}}` });
const orderWarnings = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.filter((diagnostic) => diagnostic.code === "STREAM_ORDER");

/** Each add's STREAM_ORDER warnings, and the close diagnostics. */
function stream(calls: readonly JsonObject[], options: IncrementalCompileOptions = {}) {
  const compiler = createIncrementalCompiler(registry, options);
  const adds = calls.map((call) => {
    const added = compiler.addCall(call);
    expect(added.ok).toBe(true);
    return orderWarnings(added.diagnostics);
  });
  return { adds, closed: compiler.close().diagnostics };
}

describe("STREAM_ORDER: a streamed writer that earlier readers will not wait for", () => {
  it("warns when a reader already had writers of the path (a join that would see one search of two)", () => {
    const { adds, closed } = stream([push("s1"), reader("join"), push("s2")]);
    expect(adds[0]).toEqual([]);
    expect(adds[1]).toEqual([]);
    expect(adds[2]).toEqual([
      {
        code: "STREAM_ORDER",
        severity: "warning",
        pointer: "/plan/2/_outputPath",
        callId: "s2",
        related: ["join"],
        message: expect.stringContaining(
          'call "s2" writes †state.results, which call "join" added before it',
        ),
        hint: "send writers before their readers; a batch run of the same plan waits for every writer",
      },
    ]);
    // the answer of that add only: close and a batch compile of the same calls have no order to warn about
    expect(orderWarnings(closed)).toEqual([]);
    expect(
      orderWarnings(compile({ plan: [push("s1"), reader("join"), push("s2")] }, registry).diagnostics),
    ).toEqual([]);
  });

  it("warns when the reader read a value the thread holds, which a later writer does not replace for it", () => {
    const { adds } = stream([reader("join", "†state.topic"), push("w", "†state.topic")], {
      context: { state: { topic: ["earlier"] } },
    });
    expect(adds[1]).toMatchObject([{ code: "STREAM_ORDER", callId: "w", related: ["join"] }]);
  });

  it("warns for a reader of a stored call output whose call is sent again after it", () => {
    const { adds } = stream([reader("join", "†calls.w"), { _tool: "log", _id: "w", message: "new" }], {
      context: { callOutputs: new Set(["w"]) },
    });
    expect(adds[1]).toMatchObject([
      { code: "STREAM_ORDER", callId: "w", pointer: "/plan/1", related: ["join"] },
    ]);
  });

  it("stays quiet when the reader waits for the writer: no writer yet and nothing stored there", () => {
    const { adds } = stream([reader("join", "†state.topic"), push("w", "†state.topic")], {
      context: { state: {} },
    });
    expect(adds).toEqual([[], []]);
  });

  it("stays quiet for writers sent before their readers", () => {
    const { adds } = stream([push("s1"), push("s2"), reader("join")]);
    expect(adds).toEqual([[], [], []]);
  });

  it("names at most five readers and counts the rest; each reader once", () => {
    const readers = ["r1", "r2", "r3", "r4", "r5", "r6", "r7"].map((id) => reader(id));
    const { adds } = stream([push("s1"), ...readers, push("s2")]);
    const [warning] = adds.at(-1) ?? [];
    expect(warning?.related).toEqual(["r1", "r2", "r3", "r4", "r5", "r6", "r7"]);
    expect(warning?.message).toContain(
      'calls "r1", "r2", "r3", "r4", "r5" and 2 more added before it already read',
    );
  });
});
