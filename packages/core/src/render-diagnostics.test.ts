import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "./diagnostic.js";
import { parsePlanText } from "./parse-plan-text.js";
import { renderDiagnostics } from "./render-diagnostics.js";

const text = readFileSync(new URL("./__fixtures__/plan-canonical.json", import.meta.url), "utf8");
const { sourceMap } = parsePlanText(text);
const unknownTool: Diagnostic = {
  code: "TOOL_UNKNOWN",
  severity: "error",
  message: 'no tool "greetUser"',
  pointer: "/plan/1/_tool",
  hint: 'did you mean "greet"?',
};
const suspicious: Diagnostic = {
  code: "REF_SUSPICIOUS",
  severity: "warning",
  message: "odd",
  pointer: "/plan/0/id",
};

describe("renderDiagnostics", () => {
  it("prints file:line:col, the source line and a caret under the value", () => {
    const lines = renderDiagnostics([unknownTool], { fileName: "plan.json", sourceMap: sourceMap! }).split(
      "\n",
    );
    const sourceLine = text.split("\n").findIndex((line) => line.includes('"_tool": "greetUser"'));
    const column = (text.split("\n")[sourceLine] ?? "").indexOf('"greetUser"') + 1;
    expect(lines[0]).toBe(`plan.json:${sourceLine + 1}:${column}: error TOOL_UNKNOWN: no tool "greetUser"`);
    expect(lines[1]).toBe(`  ${sourceLine + 1} | ${text.split("\n")[sourceLine]}`);
    const prefix = `  ${" ".repeat(String(sourceLine + 1).length)} | `;
    expect(lines[2]).toBe(`${prefix}${" ".repeat(column - 1)}^${"~".repeat('"greetUser"'.length - 1)}`);
    expect(lines[3]).toBe('  hint: did you mean "greet"?');
    expect(lines[4]).toBe("1 error, 0 warnings");
  });

  it("falls back to the nearest located ancestor for a missing key", () => {
    const missing: Diagnostic = { ...unknownTool, code: "PARAM_MISSING", pointer: "/plan/0/absent" };
    const first = renderDiagnostics([missing], { sourceMap: sourceMap! }).split("\n")[0];
    expect(first).toMatch(/^<plan>:5:5: error PARAM_MISSING/);
  });

  it("prints pointers without a source map, and counts warnings", () => {
    const output = renderDiagnostics([unknownTool, suspicious, { ...suspicious, pointer: "" }], {
      fileName: "p",
    });
    expect(output.split("\n")).toEqual([
      'p: error TOOL_UNKNOWN: no tool "greetUser" (at /plan/1/_tool)',
      '  hint: did you mean "greet"?',
      "p: warning REF_SUSPICIOUS: odd (at /plan/0/id)",
      'p: warning REF_SUSPICIOUS: odd (at "")',
      "1 error, 2 warnings",
    ]);
  });

  it("shows a JSON syntax error at its line and column", () => {
    const bad = readFileSync(new URL("./__fixtures__/plan-bad-syntax.json", import.meta.url), "utf8");
    const result = parsePlanText(bad);
    const lines = renderDiagnostics(result.diagnostics, { sourceMap: result.sourceMap! }).split("\n");
    const column = (bad.split("\n")[3] ?? "").indexOf("'") + 1;
    expect(lines[0]).toMatch(new RegExp(`^<plan>:4:${column}: error JSON_SYNTAX`));
    expect(lines[2]?.indexOf("^")).toBe(lines[1]!.indexOf("'"));
  });

  it("windows very long lines and applies injected colours", () => {
    const long = `[${'"x",'.repeat(10_000)}{"_tool":"a"}]`;
    const result = parsePlanText(long);
    const diagnostic: Diagnostic = { ...unknownTool, pointer: "/10000/_tool", hint: "h" };
    const colors = {
      red: (s: string) => `<r>${s}</r>`,
      yellow: (s: string) => s,
      cyan: (s: string) => `<c>${s}</c>`,
      dim: (s: string) => s,
      bold: (s: string) => s,
    };
    const lines = renderDiagnostics([diagnostic], { sourceMap: result.sourceMap!, colors }).split("\n");
    expect(lines[1]!.length).toBeLessThan(140);
    expect(lines[1]).toContain('{"_tool":"a"}');
    expect(lines[2]?.indexOf("^")).toBe(lines[1]!.indexOf('"a"') + "<r>".length);
    expect(lines[0]).toContain("<r>error</r>");
    expect(lines[3]).toBe("  <c>hint: h</c>");
  });
});
