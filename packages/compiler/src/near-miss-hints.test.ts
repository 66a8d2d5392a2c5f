import type { Diagnostic } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { defineTool } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

const mail = defineTool({
  name: "mail",
  input: z.object({ to: z.string().email(), id: z.string().uuid().optional() }),
  run: () => true,
});
const registry = createToolRegistry([...exampleTools, mail]);
const shown = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((d) => ({
    code: d.code,
    severity: d.severity,
    pointer: d.pointer,
    message: d.message,
    hint: d.hint,
  }));
const check = (document: unknown) =>
  shown(compile(document, registry, { context: { state: {} } }).diagnostics);

describe("near-miss references and documents get a hint that names the fix (s32 L5)", () => {
  it('_outputPath "$state.hits" / "$.state.hits": did you mean "†state.hits"?', () => {
    for (const outputPath of ["$state.hits", "$.state.hits"])
      expect(check([{ _tool: "log", message: "m", _outputPath: outputPath }])).toEqual([
        expect.objectContaining({
          code: "OUTPUT_PATH_SYNTAX",
          severity: "error",
          pointer: "/0/_outputPath",
          hint: 'did you mean "†state.hits"? (every reference starts with "†")',
        }),
      ]);
  });

  it('a parameter "$.state.hits" (JSONPath) warns with the † spelling', () => {
    const plan = [
      { _tool: "log", message: "m", _outputPath: "†state.hits" },
      { _tool: "log", message: "$.state.hits" },
    ];
    expect(check(plan)).toEqual([
      expect.objectContaining({
        code: "REF_SUSPICIOUS",
        severity: "warning",
        pointer: "/1/message",
        hint: 'did you mean "†state.hits"?',
      }),
    ]);
  });

  it("a call reading the path it writes is told it reads the value from before the run", () => {
    expect(check([{ _tool: "log", message: "†state.q", _outputPath: "†state.q" }])).toEqual([
      expect.objectContaining({
        code: "REF_UNRESOLVED",
        severity: "error",
        pointer: "/0/message",
        hint: "this call writes †state.q itself, and a call reads its own output path's value from before the run: it needs an earlier writer (a previous run) or the thread to hold it",
      }),
    ]);
  });

  it('{ "type": "plan", "steps": [...] }: the key is unknown, the calls go in "plan"', () => {
    expect(check({ type: "plan", steps: [{ _tool: "log", message: "m" }] })).toEqual([
      {
        code: "PLAN_SHAPE",
        severity: "error",
        pointer: "/steps",
        message: 'unknown key "steps": the calls go in "plan"',
        hint: 'write { "type": "plan", "plan": [ …the calls ] } (or "calls": [ … ])',
      },
    ]);
  });

  it("a whole reference to an object or a list where text is needed: read a string inside, or send it as JSON text", () => {
    const state = { user: { name: "Ada" }, tags: ["a"], n: 3 };
    const hints = (message: string) =>
      compile([{ _tool: "log", message }], registry, { context: { state } }).diagnostics.map((d) => [
        d.code,
        d.hint,
      ]);
    expect(hints("†state.user")).toEqual([
      [
        "REF_TYPE_MISMATCH",
        'read a string inside it, e.g. "†state.user.<field>", or write "{†state.user}" to send it as JSON text',
      ],
    ]);
    expect(hints("†state.tags")).toEqual([
      [
        "REF_TYPE_MISMATCH",
        'read a string inside it, e.g. "†state.tags[0]", or write "{†state.tags}" to send it as JSON text',
      ],
    ]);
    expect(hints("†state.nope || †state.user")).toEqual([
      ["REF_TYPE_MISMATCH", 'write "{†state.nope || †state.user}" to send it as JSON text'],
    ]);
    // a number is no object: no such hint
    expect(hints("†state.n")).toEqual([["REF_TYPE_MISMATCH", undefined]]);
  });

  it('a call naming its tool in "tool" (or "toolName", "tool_name") gets the rename to "_tool" as its hint', () => {
    for (const key of ["tool", "toolName", "tool_name"])
      expect(check([{ [key]: "log", message: "m" }]), key).toEqual([
        expect.objectContaining({
          code: "CALL_SHAPE",
          pointer: "/0",
          message: "the call has no _tool",
          hint: `rename "${key}" to "_tool": { "_tool": "log", … } (meta-properties start with "_")`,
        }),
      ]);
  });

  it('an OpenAI-style call { "name", "arguments" } is spelt as a plan call in the hint', () => {
    expect(check([{ name: "log", arguments: { message: "m" } }])).toEqual([
      expect.objectContaining({
        code: "CALL_SHAPE",
        severity: "error",
        pointer: "/0",
        hint: 'write { "_tool": "log", …its arguments as keys }: a plan call names its tool in "_tool" and takes its parameters as keys, not "name" and "arguments"',
      }),
    ]);
  });

  it("a string breaking a format says what the format is, not the regex behind it", () => {
    // "a@b.c" passes ajv's email format and fails zod's pattern; "x" fails both: one message either way.
    for (const to of ["a@b.c", "x"])
      expect(check([{ _tool: "mail", to }])).toEqual([
        expect.objectContaining({
          code: "PARAM_INVALID",
          severity: "error",
          pointer: "/0/to",
          message: 'to: must be an email address (format "email")',
        }),
      ]);
    expect(check([{ _tool: "mail", to: "a@b.cd", id: "nope" }])).toEqual([
      expect.objectContaining({ pointer: "/0/id", message: 'id: must be a UUID (format "uuid")' }),
    ]);
  });
});
