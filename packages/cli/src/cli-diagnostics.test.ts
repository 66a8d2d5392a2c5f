import { type Diagnostic, resolveLimits } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { type CliDiagnostic, forCli } from "./cli-diagnostics.js";
import { parseInput } from "./parse-input.js";

const input = (text: string) => parseInput(text, process.cwd());
const broken = (message: string, pointer = "/inputSchema/properties/x/type"): Diagnostic => ({
  code: "PARAM_INVALID",
  severity: "error",
  message,
  pointer,
});
const located = (diagnostic: Diagnostic, text: string) =>
  (forCli({ diagnostics: [diagnostic] }, input(text), resolveLimits()).diagnostics[0] as CliDiagnostic).input;

describe("forCli", () => {
  it("locates an input that breaks a schema in the input, whatever its keys hold", () => {
    expect(located(broken("input at /a~1b breaks inputSchema: must be string"), '{"a/b": 1}')).toEqual({
      source: "inline",
      pointer: "/a~1b",
      line: 1,
      column: 9,
    });
    const key = broken("input at /x breaks y breaks inputSchema: must be string");
    expect(located(key, '{"x": 1, "x breaks y": 2}')?.pointer).toBe("/x breaks y");
    expect(
      located(broken("input breaks inputSchema: must have required property 'x'"), "{\n}"),
    ).toMatchObject({
      pointer: "",
      line: 1,
      column: 1,
    });
    const message = '{"type": "input",\n "input": {"x": 1}}';
    expect(
      located(broken("input at /x breaks the Input message's schema: must be string", ""), message),
    ).toEqual({
      source: "inline",
      pointer: "/input/x",
      line: 2,
      column: 17,
    });
  });

  it("leaves other diagnostics, and all of them without an input, as they are", () => {
    const literal = broken("must be string", "/plan/0/x");
    expect(forCli({ diagnostics: [literal] }, input('{"x": 1}'), resolveLimits()).diagnostics).toEqual([
      literal,
    ]);
    const about = broken("input at /x breaks inputSchema: must be string");
    expect(forCli({ diagnostics: [about] }, undefined, resolveLimits()).diagnostics).toEqual([about]);
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
