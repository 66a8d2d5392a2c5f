import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compile } from "./compile.js";
import { literalIssues } from "./schema-issues.js";
import type { SchemaIssue } from "./schema-validator.js";
import { defineTool } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

const issue = (instancePath: string, keyword: string, schemaPath = `#/${keyword}`): SchemaIssue => ({
  instancePath,
  keyword,
  schemaPath,
  params: {},
  message: keyword,
});

describe("literalIssues", () => {
  it("drops issues at or below a reference and keeps the literal ones", () => {
    const issues = [issue("/a", "type"), issue("/a/x", "type"), issue("/b", "type"), issue("/ab", "type")];
    expect(literalIssues(issues, ["/a"]).map((i) => i.instancePath)).toEqual(["/b", "/ab"]);
  });

  it("drops combinator issues above a reference, keeps other keywords there", () => {
    const issues = [
      issue("", "anyOf"),
      issue("", "required"),
      issue("/list", "uniqueItems"),
      issue("/list", "maxItems"),
    ];
    expect(literalIssues(issues, ["/list/2"]).map((i) => i.keyword)).toEqual(["required", "maxItems"]);
  });

  it("folds the branches of anyOf / oneOf / not into the combinator's own issue", () => {
    const issues = [
      issue("/v", "minLength", "#/properties/v/anyOf/0/minLength"),
      issue("/v", "minimum", "#/properties/v/anyOf/1/minimum"),
      issue("/v", "anyOf", "#/properties/v/anyOf"),
      issue("/w", "type", "#/properties/w/type"),
    ];
    expect(literalIssues(issues, []).map((i) => i.schemaPath)).toEqual([
      "#/properties/v/anyOf",
      "#/properties/w/type",
    ]);
  });

  it("reports the one branch the value's type leaves (a nullable object, a string or a number ≥ 0)", () => {
    const issues = [
      issue("/v", "type", "#/properties/v/anyOf/0/type"),
      issue("/v", "minimum", "#/properties/v/anyOf/1/minimum"),
      issue("/v", "anyOf", "#/properties/v/anyOf"),
      issue("/w", "type", "#/properties/w/type"),
    ];
    expect(literalIssues(issues, []).map((i) => i.schemaPath)).toEqual([
      "#/properties/v/anyOf/1/minimum",
      "#/properties/w/type",
    ]);
  });

  it("handles thousands of references in one array (each a non-number item issue)", () => {
    const count = 5000;
    const pointers = Array.from({ length: count }, (_, i) => `/inputs/${i}`);
    const issues = [
      ...pointers.map((p) => issue(p, "type", "#/properties/inputs/items/type")),
      issue("/flag", "type"),
    ];
    expect(literalIssues(issues, pointers).map((i) => i.instancePath)).toEqual(["/flag"]);
  });
});

describe("a join call reading thousands of references", () => {
  it("type-checks the references instead of reporting each as a non-number literal", () => {
    const registry = createToolRegistry([
      defineTool({
        name: "step",
        input: { type: "object", properties: { inputs: { type: "array", items: { type: "number" } } } },
        output: { type: "number" },
        run: () => 1,
      }),
    ]);
    const leaves = Array.from({ length: 3000 }, (_, i) => ({
      _tool: "step",
      _id: `n${i}`,
      inputs: [],
      _outputPath: `†state.n${i}`,
    }));
    const join = {
      _tool: "step",
      _id: "join",
      inputs: leaves.map((l) => l._outputPath),
      _outputPath: "†state.join",
    };
    const bad = { _tool: "step", _id: "bad", inputs: ["†state.join", "seven"] };
    const result = compile({ type: "plan", plan: [...leaves, join, bad] }, registry);
    expect(result.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ["PARAM_INVALID", "/plan/3001/inputs/1"],
    ]);
  });
});

describe("a string format with a long regex (zod's .email())", () => {
  const registry = createToolRegistry([
    defineTool({
      name: "mail",
      input: z.object({ to: z.email(), code: z.string().regex(/^[A-Z]{3}$/) }),
      run: () => 1,
    }),
  ]);
  const diagnostics = (call: object) =>
    compile([{ _tool: "mail", ...call }], registry).diagnostics.map((d) => [d.code, d.pointer, d.message]);

  it("is one PARAM_INVALID that names the format, not the regex behind it", () => {
    expect(diagnostics({ to: "not an email", code: "ABC" })).toEqual([
      ["PARAM_INVALID", "/0/to", 'to: must be an email address (format "email")'],
    ]);
  });

  it("shows a short pattern whole and cuts a long one", () => {
    expect(diagnostics({ to: "a@b.co", code: "abc" })).toEqual([
      ["PARAM_INVALID", "/0/code", 'code: must match pattern "^[A-Z]{3}$"'],
    ]);
    const long = createToolRegistry([
      {
        name: "id",
        input: { type: "object", properties: { v: { type: "string", pattern: `^(${"a|".repeat(60)}b)$` } } },
        run: () => 1,
      },
    ]);
    const message = compile([{ _tool: "id", v: "zz" }], long).diagnostics[0]?.message ?? "";
    expect(message).toMatch(/^v: must match the tool's pattern "\^\(a\|a\|.*…"$/);
    expect(message.length).toBeLessThan(110);
  });
});
