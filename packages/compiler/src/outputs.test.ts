import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { exampleTools, specFormTool } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { graphToDot } from "./graph-to-dot.js";
import { graphToJson } from "./graph-to-json.js";
import { graphToMermaid } from "./graph-to-mermaid.js";
import { planJsonSchema } from "./plan-json-schema.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry([...exampleTools, specFormTool], {
  implementations: { sendEmail: () => "sent" },
});

describe("tool registry", () => {
  it("accepts the spec's JSON Schema tool form with a separate implementation", () => {
    const tool = registry.get("sendEmail");
    expect(tool?.latent).toBe(false);
    expect(tool?.validateInput({ to: "a" })).toEqual([]);
    expect(tool?.validateInput({}).map((i) => i.keyword)).toEqual(["required"]);
    expect(
      compile([{ _tool: "sendEmail", to: "x", _outputPath: "†state.other" }], registry).diagnostics.map(
        (d) => d.code,
      ),
    ).toEqual(["OUTPUT_PATH_NOT_ALLOWED"]);
  });

  it("an _outputPath constraint holds for every target: && and || cannot smuggle a path past a pattern", () => {
    const guarded = createToolRegistry([
      { name: "note", outputPath: { pattern: "^†state\\.user\\." }, outcomes: ["ok", "failed"] },
      { name: "fixed", outputPath: { const: "†state.a || †state.b" }, outcomes: ["ok", "failed"] },
    ]);
    const codes = (outputPath: string, tool = "note") =>
      compile([{ _tool: tool, _outputPath: outputPath }], guarded)
        .diagnostics.filter((d) => d.severity === "error")
        .map((d) => [d.code, d.pointer]);
    const refused = [["OUTPUT_PATH_NOT_ALLOWED", "/0/_outputPath"]];
    // (a target under †state.approvals is refused for every tool as well: OUTPUT_PATH_READONLY)
    const approval = [["OUTPUT_PATH_READONLY", "/0/_outputPath"], ...refused];
    expect(codes("†state.user.p && †state.approvals.refund")).toEqual(approval);
    expect(codes("†state.user.p || †state.approvals.refund")).toEqual(approval);
    expect(codes("†state.approvals.refund && †state.user.p")).toEqual(approval);
    expect(codes("†state.user.p && †state.user.q")).toEqual([]);
    expect(codes("†state.user.p || †state.user.failed")).toEqual([]);
    expect(codes("†state.a || †state.b", "fixed")).toEqual([]);
    expect(codes("†state.a", "fixed")).toEqual(refused);
  });

  it("later duplicates win with a warning; invalid tools throw USAGE", () => {
    const dup = createToolRegistry([
      { name: "t", cost: 1 },
      { name: "t", cost: 2 },
    ]);
    expect(dup.get("t")?.cost).toBe(2);
    expect(dup.warnings.map((w) => [w.code, w.pointer])).toEqual([["REGISTRY_DUPLICATE_TOOL", "/1"]]);
    expect(() => createToolRegistry([{ description: "no name" }])).toThrow(
      expect.objectContaining({ code: "USAGE" }),
    );
    expect(() => createToolRegistry([{ name: "bad", input: { type: 12 } }])).toThrow(
      expect.objectContaining({ code: "USAGE" }),
    );
    // An invalid regular expression is refused at registration, not in the middle of every compile.
    for (const tool of [
      { name: "p", outputPath: { pattern: "^†state\\.(" } },
      { name: "p", input: { type: "object", properties: { s: { type: "string", pattern: "[" } } } },
      { name: "p", input: { type: "object", patternProperties: { "(": {} } } },
    ])
      expect(() => createToolRegistry([tool])).toThrow(expect.objectContaining({ code: "USAGE" }));
    // A "pattern" inside data (const, enum, default, examples) is not a regular expression.
    expect(
      createToolRegistry([{ name: "ok", input: { type: "object", default: { pattern: "(" } } }]).get("ok"),
    ).toBeDefined();
  });
});

describe("graph export", () => {
  const compiled = compile(
    [
      { _tool: "verifyUser", _id: "v", userId: "u", _outputPath: "†state.ok || †state.err" },
      { _tool: "log", _id: "l", message: 'say "{†state.ok}"', _outputPath: "†state.a && †state.b" },
    ],
    registry,
  );
  it("JSON lists nodes with targets and edges", () => {
    expect(graphToJson(compiled)).toEqual({
      nodes: [
        { id: "v", tool: "verifyUser", criticalPath: 2, targets: [["†state.ok"], ["†state.err"]] },
        { id: "l", tool: "log", criticalPath: 1, targets: [["†state.a", "†state.b"]] },
      ],
      edges: [["v", "l"]],
    });
  });
  it("Mermaid and DOT label conditional edges and fan-out", () => {
    expect(graphToMermaid(compiled)).toContain('-. "†state.ok" .->');
    expect(graphToDot(compiled)).toContain('"v" -> "l" [style=dashed, label="†state.ok"]');
    expect(graphToDot(compiled)).toContain("†state.a && †state.b");
  });
});

describe("plan JSON schema", () => {
  const validate = new Ajv2020({ strict: false }).compile(planJsonSchema(registry));
  it("compiles in ajv and accepts valid plans", () => {
    const plan = {
      type: "plan",
      plan: [
        { _tool: "add", a: 1, b: "†state.n", _outputPath: "†state.sum" },
        { _tool: "sendEmail", to: "x", _outputPath: "†state.mail.sent" },
      ],
    };
    expect(validate(plan)).toBe(true);
    expect(compile(plan, registry, {}).diagnostics.filter((d) => d.code !== "REF_UNRESOLVED")).toEqual([]);
  });
  it("rejects unknown tools and wrong literal types", () => {
    expect(validate({ type: "plan", plan: [{ _tool: "nope" }] })).toBe(false);
    expect(validate({ type: "plan", plan: [{ _tool: "add", a: "one", b: 2 }] })).toBe(false);
    expect(validate({ type: "plan", plan: [{ _tool: "add", a: 1, b: 2, _bogus: 1 }] })).toBe(false);
  });
});

describe("a broken plan: every problem, in document order", () => {
  it("reports them all", () => {
    const text = JSON.stringify({
      type: "plan",
      plan: [
        { _tool: "greetUsr", userName: "x" },
        { _tool: "add", _id: "bad id", a: 1, b: 2 },
        { _tool: "add", _id: "sum", a: "x", c: 1, _outputPath: "†state.total" },
        { _tool: "log", _id: "sum", message: "†stat.x" },
        { _tool: "log", _id: "l2", message: "see †state.x", _outputMethod: "apend", _retyr: 1 },
        { _tool: "log", _id: "l3", message: "†state.total.x", _outputPath: "†input.y" },
        { _tool: "now", _id: "n1", _outputPath: "†state.total" },
        { _tool: "approve", _id: "ap" },
        { _tool: "verifyUser", _id: "v", userId: "u", _outputPath: "†state.a || †state.b || †state.c" },
        { _tool: "log", _id: "g", message: "†state.a && †state.b" },
        { _tool: "add", _id: "m", a: "{†state.a}", b: "†calls.sum" },
      ],
      // A document-level problem after the calls is reported after theirs: document order, not level.
      id: 5,
    });
    const result = compile(text, registry);
    expect(result.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ["TOOL_UNKNOWN", "/plan/0/_tool"],
      ["CALL_ID_INVALID", "/plan/1/_id"],
      ["PARAM_MISSING", "/plan/2"],
      ["PARAM_INVALID", "/plan/2/a"],
      ["PARAM_UNKNOWN", "/plan/2/c"],
      ["CALL_ID_DUPLICATE", "/plan/3/_id"],
      ["REF_KIND_UNKNOWN", "/plan/3/message"],
      ["REF_SUSPICIOUS", "/plan/4/message"],
      ["OUTPUT_METHOD_INVALID", "/plan/4/_outputMethod"],
      ["META_UNKNOWN", "/plan/4/_retyr"],
      ["OUTPUT_PATH_READONLY", "/plan/5/_outputPath"],
      ["OUTPUT_CONFLICT", "/plan/6/_outputPath"],
      ["LATENT_WITHOUT_OUTPUT", "/plan/7"],
      ["OUTCOME_UNKNOWN", "/plan/8/_outputPath"],
      ["UNREACHABLE", "/plan/9/message"],
      ["REF_TYPE_MISMATCH", "/plan/10/a"],
      ["REF_UNRESOLVED", "/plan/10/b"],
      ["PLAN_SHAPE", "/id"],
    ]);
    expect(result.sourceMap?.positionOf("/plan/3/message")?.line).toBe(1);
  });
});
