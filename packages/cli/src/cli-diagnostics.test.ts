import { type Diagnostic, resolveLimits } from "@obelisk/core";
import type { EngineDiagnostic } from "obelisk";
import { describe, expect, it } from "vitest";
import { type CliDiagnostic, forCli } from "./cli-diagnostics.js";
import { parseInput } from "./parse-input.js";

const input = (text: string) => parseInput(text, process.cwd());
/** The engine's PARAM_INVALID of an input that breaks a schema: `inputPointer` says where in the input. */
const broken = (
  inputPointer: string | undefined,
  pointer = "/inputSchema/properties/x/type",
  message = "input breaks inputSchema: must be string",
): EngineDiagnostic => ({
  code: "PARAM_INVALID",
  severity: "error",
  message,
  pointer,
  ...(inputPointer === undefined ? {} : { inputPointer }),
});
const located = (diagnostic: EngineDiagnostic, text: string) =>
  (forCli({ diagnostics: [diagnostic] }, input(text), resolveLimits()).diagnostics[0] as CliDiagnostic).input;

describe("forCli", () => {
  it("locates an input that breaks a schema at the engine's inputPointer, whatever its keys hold", () => {
    expect(located(broken("/a~1b"), '{"a/b": 1}')).toEqual({
      source: "inline",
      pointer: "/a~1b",
      line: 1,
      column: 9,
    });
    expect(located(broken("/x breaks y"), '{"x": 1, "x breaks y": 2}')?.pointer).toBe("/x breaks y");
    expect(located(broken("", "/inputSchema/required"), "{\n}")).toMatchObject({
      pointer: "",
      line: 1,
      column: 1,
    });
    const message = '{"type": "input",\n "input": {"x": 1}}';
    expect(located(broken("/x", ""), message)).toEqual({
      source: "inline",
      pointer: "/input/x",
      line: 2,
      column: 17,
    });
  });

  it("leaves other diagnostics, and all of them without an input, as they are (without inputPointer)", () => {
    const literal = broken(undefined, "/plan/0/x", "must be string");
    expect(forCli({ diagnostics: [literal] }, input('{"x": 1}'), resolveLimits()).diagnostics).toEqual([
      literal,
    ]);
    // the message is not read: only inputPointer locates a diagnostic in the input
    const worded = broken(undefined, "/inputSchema/properties/x/type", "input at /x breaks inputSchema");
    expect(forCli({ diagnostics: [worded] }, input('{"x": 1}'), resolveLimits()).diagnostics).toEqual([
      worded,
    ]);
    const { inputPointer: _pointer, ...about } = broken("/x");
    expect(forCli({ diagnostics: [broken("/x")] }, undefined, resolveLimits()).diagnostics).toEqual([about]);
  });

  it("adds the flag to a PLAN_LIMIT hint, keeping every field", () => {
    const limit: Diagnostic = {
      code: "PLAN_LIMIT",
      severity: "error",
      message: "nested deeper than the limit of 64 levels",
      pointer: "/plan/0/a",
      callId: "c",
      hint: "flatten the structure, or raise maxDepth",
    };
    expect(forCli({ diagnostics: [limit] }, undefined, resolveLimits()).diagnostics).toEqual([
      {
        ...limit,
        hint: "flatten the structure, or raise maxDepth; with the CLI: --limits maxDepth=<n> (now 64)",
      },
    ]);
  });
});
