import { createKindTable, type Diagnostic } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { PATH_DEPTH_HINT } from "./parse-issue-hint.js";
import { defineTool } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry([
  ...exampleTools,
  defineTool({
    name: "pick",
    input: {
      type: "object",
      properties: {
        mode: { enum: ["fast", "slow"] },
        level: { enum: Array.from({ length: 12 }, (_, i) => `l${i}`) },
        version: { const: 2 },
      },
      additionalProperties: false,
    },
    run: () => 1,
  }),
  defineTool({
    name: "dep",
    input: {
      type: "object",
      properties: { a: { type: "string" }, b: { type: "string" } },
      if: { properties: { a: { const: "x" } }, required: ["a"] },
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema's if/then, not a thenable
      then: { required: ["b"] },
    },
    run: () => 1,
  }),
]);
const plan = (...calls: unknown[]) => ({ type: "plan", plan: calls });
const shown = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((d) => ({ code: d.code, pointer: d.pointer, message: d.message, hint: d.hint }));

describe("REF_KIND_UNKNOWN hints include host kinds", () => {
  it('"evn" with the host kind env suggests env', () => {
    const kinds = createKindTable([
      { kind: "env", writable: false, engineManaged: false, description: "env" },
    ]);
    const result = compile(plan({ _tool: "log", message: "†evn.x" }), registry, { kinds });
    expect(shown(result.diagnostics)).toMatchObject([
      { code: "REF_KIND_UNKNOWN", pointer: "/plan/0/message", hint: 'did you mean "env"?' },
    ]);
  });
});

describe("PARAM_INVALID names the allowed values", () => {
  it("an enum lists its values", () => {
    const result = compile(plan({ _tool: "pick", mode: "quick" }), registry);
    expect(shown(result.diagnostics)).toEqual([
      {
        code: "PARAM_INVALID",
        pointer: "/plan/0/mode",
        message: 'mode: must be one of "fast", "slow"',
        hint: undefined,
      },
    ]);
  });

  it("a long enum lists the first ten, then how many more", () => {
    const result = compile(plan({ _tool: "pick", level: "x" }), registry);
    expect(result.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["PARAM_INVALID", "/plan/0/level"]]);
    expect(result.diagnostics[0]?.message).toBe(
      'level: must be one of "l0", "l1", "l2", "l3", "l4", "l5", "l6", "l7", "l8", "l9", … (2 more)',
    );
  });

  it("a const names its value", () => {
    const result = compile(plan({ _tool: "pick", version: 3 }), registry);
    expect(shown(result.diagnostics)).toMatchObject([
      { code: "PARAM_INVALID", pointer: "/plan/0/version", message: "version: must be 2" },
    ]);
  });
});

describe("if/then failures", () => {
  it("give only the specific diagnostic, not the 'must match then' wrapper", () => {
    const result = compile(plan({ _tool: "dep", a: "x" }), registry);
    expect(shown(result.diagnostics)).toEqual([
      {
        code: "PARAM_MISSING",
        pointer: "/plan/0",
        message: 'missing required parameter "b" in the call',
        hint: undefined,
      },
    ]);
  });

  it("a call that meets the condition's branch has no diagnostic", () => {
    expect(compile(plan({ _tool: "dep", a: "x", b: "y" }), registry).diagnostics).toEqual([]);
  });
});

describe("META_UNKNOWN and CALL_ID_INVALID hints", () => {
  it('"_foo" suggests nothing (two edits from "_tool" is half the name)', () => {
    const result = compile(plan({ _tool: "log", message: "m", _foo: 1 }), registry);
    expect(shown(result.diagnostics)).toEqual([
      {
        code: "META_UNKNOWN",
        pointer: "/plan/0/_foo",
        message: 'unknown meta-property "_foo"',
        hint: "parameters cannot start with _",
      },
    ]);
  });

  it('"_outptPath" still suggests "_outputPath"', () => {
    const result = compile(plan({ _tool: "log", message: "m", _outptPath: "†state.x" }), registry);
    expect(shown(result.diagnostics)).toMatchObject([
      { code: "META_UNKNOWN", pointer: "/plan/0/_outptPath", hint: 'did you mean "_outputPath"?' },
    ]);
  });

  it("CALL_ID_DUPLICATE says to give each call its own id or none", () => {
    const result = compile(plan({ _tool: "now", _id: "a" }, { _tool: "now", _id: "a" }), registry);
    expect(shown(result.diagnostics)).toEqual([
      {
        code: "CALL_ID_DUPLICATE",
        pointer: "/plan/1/_id",
        message: 'call id "a" is used twice',
        hint: "give each call its own _id (letters, digits, _ or -), or leave _id out for an automatic one",
      },
    ]);
  });

  it("CALL_ID_INVALID explains the id grammar in one sentence", () => {
    const result = compile(plan({ _tool: "log", _id: "a$1", message: "m" }), registry);
    expect(shown(result.diagnostics)).toEqual([
      {
        code: "CALL_ID_INVALID",
        pointer: "/plan/0/_id",
        message: 'invalid call id "a$1"',
        hint: "a call id starts with a letter or _ and continues with letters, digits, _ or - (no $, which automatic ids use), and is not __proto__, prototype or constructor",
      },
    ]);
  });
});

describe("PLAN_LIMIT for path depth", () => {
  const limits = { maxPathDepth: 3 };

  it("has a hint in a parameter", () => {
    const result = compile(plan({ _tool: "log", message: "†state.a.b.c.d" }), registry, { limits });
    expect(shown(result.diagnostics)).toMatchObject([
      { code: "PLAN_LIMIT", pointer: "/plan/0/message", hint: PATH_DEPTH_HINT },
    ]);
  });

  it("has a hint in an _outputPath", () => {
    const call = { _tool: "log", message: "m", _outputPath: "†state.a.b.c.d" };
    const result = compile(plan(call), registry, { limits });
    expect(shown(result.diagnostics)).toMatchObject([
      { code: "PLAN_LIMIT", pointer: "/plan/0/_outputPath", hint: PATH_DEPTH_HINT },
    ]);
  });
});

describe("syntax positions and trailing whitespace", () => {
  it("counts the position in characters, so an emoji before the error counts once", () => {
    const result = compile(plan({ _tool: "log", message: "🙂🙂 {†input.}" }), registry);
    expect(shown(result.diagnostics)).toMatchObject([
      { code: "REF_SYNTAX", message: 'expected a name or an index after ".", found "}" (at character 12)' },
    ]);
  });

  it("counts an output path's position in characters", () => {
    const result = compile(plan({ _tool: "log", message: "x", _outputPath: "†state.🙂.a. " }), registry);
    expect(shown(result.diagnostics)).toMatchObject([
      {
        code: "OUTPUT_PATH_SYNTAX",
        message: 'expected a name or an index after ".", found "🙂" (at character 8)',
      },
    ]);
  });

  it("whitespace after a whole reference or an output path says to remove it", () => {
    const hint = 'remove the whitespace at the end: it is allowed only around "||" and "&&"';
    const result = compile(plan({ _tool: "log", message: "†input.x ", _outputPath: "†state.o\t" }), registry);
    expect(shown(result.diagnostics)).toEqual([
      {
        code: "REF_SYNTAX",
        pointer: "/plan/0/message",
        message: "unexpected whitespace at the end (at character 9)",
        hint,
      },
      {
        code: "OUTPUT_PATH_SYNTAX",
        pointer: "/plan/0/_outputPath",
        message: "unexpected whitespace at the end (at character 9)",
        hint,
      },
    ]);
  });

  it("whitespace before an output path says to remove it (review s41 sc1 #1)", () => {
    const result = compile(plan({ _tool: "log", message: "x", _outputPath: " †state.o" }), registry);
    expect(shown(result.diagnostics)).toEqual([
      {
        code: "OUTPUT_PATH_SYNTAX",
        pointer: "/plan/0/_outputPath",
        message: "unexpected whitespace at the start (at character 1)",
        hint: 'remove the whitespace at the start: an output path begins with "†"',
      },
    ]);
  });
});
