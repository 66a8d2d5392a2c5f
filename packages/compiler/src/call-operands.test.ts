import type { JsonObject } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { compile } from "./compile.js";
import type { CompiledCall } from "./compiled-plan.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry([{ name: "t", run: () => 1 }]);

/** Each operand of a call as `text ← writer ids`. */
function operandsOf(call: CompiledCall | undefined): string[] {
  return (call?.operands ?? []).map(
    (operand) => `${operand.reference.text} ← ${operand.links.map((link) => link.callId).join(",")}`,
  );
}

describe("a compiled call's operands (the readiness walk's flat list)", () => {
  it("lists every operand in the order readiness decides them, with the expressions' shape", () => {
    const result = compile(
      {
        plan: [
          { _tool: "t", _id: "x", _outputPath: "†state.x" },
          { _tool: "t", _id: "y", _outputPath: "†state.y" },
          {
            _tool: "t",
            _id: "r",
            first: "†state.x && †state.y || †state.z",
            text: "{†state.x} and {†state.w || †state.y}",
            last: "†state.x",
          },
        ],
      },
      registry,
      { context: { state: { z: 1, w: 2 } } },
    );
    expect(result.ok).toBe(true);
    const reader = result.calls[2];
    expect(operandsOf(reader)).toEqual([
      "†state.x ← x",
      "†state.y ← y",
      "†state.z ← ",
      "†state.x ← x",
      "†state.w ← ",
      "†state.y ← y",
      "†state.x ← x",
    ]);
    // per expression: its alternatives, then each one's operands
    expect(reader?.operandShape).toEqual([2, 2, 1, 1, 1, 2, 1, 1, 1, 1]);
    // an operand read twice is one operand, whose links are those `writers` gives for its text
    expect(reader?.operands[3]).toBe(reader?.operands[0]);
    for (const operand of reader?.operands ?? [])
      expect(reader?.writers.get(operand.reference.text)).toBe(operand.links);
    expect(reader?.writers.size).toBe(4);
  });

  it("has no shape when every expression is a single operand", () => {
    const result = compile(
      {
        plan: [
          { _tool: "t", _id: "x", _outputPath: "†state.x" },
          { _tool: "t", _id: "r", a: "†state.x", b: "{†state.x}!", c: "†state.x" },
        ],
      },
      registry,
    );
    expect(operandsOf(result.calls[1])).toEqual(["†state.x ← x", "†state.x ← x", "†state.x ← x"]);
    expect(result.calls[1]?.operandShape).toBeUndefined();
    expect(result.calls[0]?.operands).toEqual([]);
  });

  it("gives each link its writer's position in calls, streamed calls refused on the way included", () => {
    const plan: JsonObject[] = [
      { _tool: "t", _id: "a", in: "†state.b", _outputPath: "†state.a" },
      { _tool: "t", _id: "b", in: "†state.a", _outputPath: "†state.b" }, // refused: closes a cycle
      { _tool: "nope", _id: "c" }, // refused: unknown tool
      { _tool: "t", _id: "b", _outputPath: "†state.b" },
      { _tool: "t", _id: "d", in: "†state.a || †state.b", more: "{†state.f}" },
      { _tool: "t", _id: "e", _outputPath: "†state.f" }, // a writer after its reader
    ];
    const streamed = createIncrementalCompiler(registry);
    for (const call of plan) streamed.addCall(call);
    const closed = streamed.close();
    const batch = compile({ plan: plan.filter((_, index) => index !== 1 && index !== 2) }, registry);
    expect(batch.ok).toBe(true);
    for (const result of [closed, batch]) {
      expect(result.calls.map((call) => call.id)).toEqual(["a", "b", "d", "e"]);
      const positions = result.calls.flatMap((call) =>
        call.operands.flatMap((operand) => operand.links.map((link) => [link.callId, link.position])),
      );
      expect(positions).toEqual([
        ["b", 1],
        ["a", 0],
        ["b", 1],
        ["e", 3],
      ]);
    }
    expect(closed.calls.map((call) => call.operands)).toEqual(batch.calls.map((call) => call.operands));
    expect(closed.calls.map((call) => call.operandShape)).toEqual(
      batch.calls.map((call) => call.operandShape),
    );
  });
});
