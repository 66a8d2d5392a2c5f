import type { Diagnostic, JsonValue } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { defineTool } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

const issueRefund = defineTool({
  name: "issueRefund",
  input: z.object({ amount: z.number(), approval: z.object({ by: z.string() }) }),
  approvalParams: ["approval"],
  run: () => "refunded",
});
// the same parameter, without approvalParams: the tool reads the value itself (decision 0048)
const gate = defineTool({
  name: "gate",
  input: z.object({ approval: z.object({ by: z.string() }) }),
  run: () => "opened",
});
const registry = createToolRegistry([issueRefund, gate]);

const refund = [
  { _tool: "issueRefund", _id: "r", amount: 9, approval: "†state.approvals.refund", _outputPath: "†state.x" },
];
const state = (answer: JsonValue) => ({ approvals: { refund: answer } });
const shape = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => [d.code, d.pointer]);

describe("an approval answered false or null is no REF_TYPE_MISMATCH (decision 0048, amended at stop 39)", () => {
  it.each([false, null])("%s: batch compile is valid (the run rejects the call)", (answer) => {
    const result = compile(refund, registry, { context: { state: state(answer) } });
    expect(result.diagnostics).toEqual([]);
    expect(result.ok).toBe(true);
    // a tool without approvalParams would be handed the value: it stays REF_TYPE_MISMATCH
    const plan = [{ _tool: "gate", approval: "†state.approvals.refund", _outputPath: "†state.g" }];
    expect(shape(compile(plan, registry, { context: { state: state(answer) } }).diagnostics)).toEqual([
      ["REF_TYPE_MISMATCH", "/0/approval"],
    ]);
  });

  it.each([false, null])("%s: a streamed call is accepted, and close adds nothing", (answer) => {
    const compiler = createIncrementalCompiler(registry, { context: { state: state(answer) } });
    const added = compiler.addCall(refund[0]);
    expect(added.ok).toBe(true);
    expect(added.diagnostics).toEqual([]);
    expect(compiler.close().diagnostics).toEqual([]);
  });

  it.each([
    ["a number", 5],
    ["true", true],
    ["a string", "yes"],
    ["an array", [1]],
  ])(
    "%s (approves, of a shape the tool cannot take) stays REF_TYPE_MISMATCH, hinting it is a person's",
    (_, answer) => {
      const [found] = compile(refund, registry, { context: { state: state(answer) } }).diagnostics;
      expect(found).toMatchObject({ code: "REF_TYPE_MISMATCH", severity: "error", pointer: "/0/approval" });
      expect(found?.hint).toBe(
        "†state.approvals.refund is a person's answer, not the plan's: to approve, write a value the tool " +
          "takes there (obelisk state set, engine.set); false or null refuses",
      );
      const compiler = createIncrementalCompiler(registry, { context: { state: state(answer) } });
      expect(shape(compiler.addCall(refund[0]).diagnostics)).toEqual([
        ["REF_TYPE_MISMATCH", "/plan/0/approval"],
      ]);
    },
  );
});
