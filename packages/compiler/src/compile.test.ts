import type { Diagnostic } from "@obelisk/core";
import { resolvePointer } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const plan = (...calls: unknown[]) => ({ type: "plan", plan: calls });
const codes = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => [d.code, d.pointer]);

describe("SPEC examples", () => {
  it("greetUser reads the input", () => {
    const result = compile(plan({ _tool: "greetUser", userName: "†input.userName" }), registry, {
      context: { input: { userName: "Ada" } },
    });
    expect(result.ok).toBe(true);
    expect(result.calls[0]?.id).toBe("greetUser$1");
    expect(result.autoIdsUsed).toBe(1);
  });

  it("verifyUser with || makes conditional edges", () => {
    const result = compile(
      plan(
        {
          _tool: "verifyUser",
          _id: "verify",
          userId: "†input.id",
          _outputPath: "†state.user.verified || †state.user.failed",
        },
        { _tool: "greetUser", _id: "greet", userName: "{†state.user.verified}" },
        { _tool: "log", _id: "either", message: "†state.user.verified || †state.user.failed" },
      ),
      registry,
    );
    expect(codes(result.diagnostics)).toEqual([]);
    expect(result.graph.getEdgeAttributes("verify", "greet")).toMatchObject({
      conditional: true,
      alternatives: [0],
    });
    expect(result.calls[1]?.writers.get("†state.user.verified")).toEqual([
      { callId: "verify", position: 0, alternatives: [0], conditional: true },
    ]);
  });

  it("generateSummary with && fans out to both targets", () => {
    const result = compile(
      plan(
        {
          _tool: "generateSummary",
          _id: "sum",
          text: "x",
          _outputPath: "†state.user.summary && †state.audit.summary",
        },
        { _tool: "log", _id: "a", message: "†state.audit.summary" },
      ),
      registry,
    );
    expect(result.ok).toBe(true);
    expect(result.graph.getEdgeAttributes("sum", "a")).toMatchObject({ conditional: false });
    expect(result.graph.getNodeAttributes("sum")).toMatchObject({
      kind: "call",
      alternatives: [["†state.user.summary", "†state.audit.summary"]],
    });
  });

  it("detectLanguage → isEnglish → translateText", () => {
    const result = compile(
      plan(
        { _tool: "detectLanguage", _id: "detect", text: "†input.text", _outputPath: "†state.lang" },
        {
          _tool: "isEnglish",
          _id: "check",
          language: "†state.lang",
          _outputPath: "†state.english || †state.other",
        },
        { _tool: "translateText", _id: "tr", text: "†state.other && †input.text", to: "en" },
      ),
      registry,
    );
    expect(result.ok).toBe(true);
    expect(result.graph.edges().map((e) => result.graph.extremities(e))).toEqual([
      ["detect", "check"],
      ["check", "tr"],
    ]);
    expect(result.graph.getNodeAttribute("detect", "criticalPath")).toBe(3);
  });

  it("processPayment routes failures to the last alternative", () => {
    const result = compile(
      plan(
        { _tool: "processPayment", _id: "pay", amount: 10, _outputPath: "†state.receipt || †state.error" },
        { _tool: "confirmOrder", _id: "confirm", receipt: "†state.receipt" },
      ),
      registry,
    );
    expect(result.ok).toBe(true);
    expect(result.graph.getEdgeAttributes("pay", "confirm").conditional).toBe(true);
  });

  it("a two-call cycle", () => {
    const result = compile(
      plan(
        { _tool: "log", _id: "a", message: "†state.b", _outputPath: "†state.a" },
        { _tool: "log", _id: "b", message: "†state.a", _outputPath: "†state.b" },
      ),
      registry,
    );
    expect(codes(result.diagnostics)).toEqual([["CYCLE", "/plan/0"]]);
    expect(result.diagnostics[0]?.hint).toBe(
      "a → b → a: b reads †state.a (written by a); a reads †state.b (written by b). Remove one of these reads, or have one of the calls write another path",
    );
  });
});

describe("one test per diagnostic code", () => {
  const cases: [string, unknown, string, string][] = [
    ["JSON_SYNTAX", "{ nope", "error", ""],
    ["PLAN_SHAPE", 42, "error", ""],
    ["CALL_SHAPE", plan(3), "error", "/plan/0"],
    ["TOOL_UNKNOWN", plan({ _tool: "greetUsr" }), "error", "/plan/0/_tool"],
    ["CALL_ID_INVALID", plan({ _tool: "now", _id: "a b" }), "error", "/plan/0/_id"],
    [
      "CALL_ID_DUPLICATE",
      plan({ _tool: "now", _id: "a" }, { _tool: "now", _id: "a" }),
      "error",
      "/plan/1/_id",
    ],
    ["META_UNKNOWN", plan({ _tool: "now", _outptuPath: "†state.x" }), "error", "/plan/0/_outptuPath"],
    ["PARAM_INVALID", plan({ _tool: "add", a: "x", b: 1 }), "error", "/plan/0/a"],
    ["PARAM_MISSING", plan({ _tool: "add", a: 1 }), "error", "/plan/0"],
    ["PARAM_UNKNOWN", plan({ _tool: "add", a: 1, b: 2, c: 3 }), "error", "/plan/0/c"],
    ["REF_SYNTAX", plan({ _tool: "log", message: "†state..x" }), "error", "/plan/0/message"],
    ["REF_KIND_UNKNOWN", plan({ _tool: "log", message: "†stat.x" }), "error", "/plan/0/message"],
    [
      "REF_FORBIDDEN_SEGMENT",
      plan({ _tool: "log", message: "†state.__proto__" }),
      "error",
      "/plan/0/message",
    ],
    ["REF_UNRESOLVED", plan({ _tool: "log", message: "†calls.nobody" }), "error", "/plan/0/message"],
    ["REF_TYPE_MISMATCH", plan({ _tool: "add", a: "{†input.x}", b: 1 }), "error", "/plan/0/a"],
    ["REF_SUSPICIOUS", plan({ _tool: "log", message: "see †state.x here" }), "warning", "/plan/0/message"],
    ["OUTPUT_PATH_SYNTAX", plan({ _tool: "now", _outputPath: "state.x" }), "error", "/plan/0/_outputPath"],
    ["OUTPUT_PATH_READONLY", plan({ _tool: "now", _outputPath: "†input.x" }), "error", "/plan/0/_outputPath"],
    [
      "OUTPUT_PATH_NOT_ALLOWED",
      plan({ _tool: "setSummary", text: "x", _outputPath: "†state.y" }),
      "error",
      "/plan/0/_outputPath",
    ],
    [
      "OUTPUT_CONFLICT",
      plan({ _tool: "now", _outputPath: "†state.x" }, { _tool: "now", _outputPath: "†state.x.y" }),
      "error",
      "/plan/1/_outputPath",
    ],
    [
      "OUTPUT_METHOD_INVALID",
      plan({ _tool: "now", _outputMethod: "apend" }),
      "error",
      "/plan/0/_outputMethod",
    ],
    [
      "OUTCOME_UNKNOWN",
      plan({ _tool: "verifyUser", userId: "u", _outputPath: "†state.a || †state.b || †state.c" }),
      "error",
      "/plan/0/_outputPath",
    ],
    ["LATENT_WITHOUT_OUTPUT", plan({ _tool: "approve" }), "warning", "/plan/0"],
    ["PLAN_LIMIT", plan({ _tool: "now" }, { _tool: "now" }), "error", "/plan"],
  ];
  it.each(cases)("%s", (code, input, severity, pointer) => {
    const result = compile(input, registry, {
      context: { callOutputs: new Set() },
      limits: code === "PLAN_LIMIT" ? { maxCalls: 1 } : {},
    });
    const found = result.diagnostics.find((d) => d.code === code);
    expect(found, JSON.stringify(result.diagnostics)).toBeDefined();
    expect(found?.severity).toBe(severity);
    expect(found?.pointer).toBe(pointer);
    expect(
      resolvePointer(result.document?.source ?? input, found?.pointer ?? "").found || code === "JSON_SYNTAX",
    ).toBe(true);
  });

  it("TOOL_UNKNOWN names the call by its _id when it has a valid one (SPEC §6's shape)", () => {
    const result = compile(
      plan(
        { _tool: "greetUsr", _id: "greet" },
        { _tool: "greetUsr", _id: "not valid" },
        { _tool: "greetUsr" },
      ),
      registry,
    );
    expect(result.diagnostics.filter((d) => d.code === "TOOL_UNKNOWN").map((d) => d.callId)).toEqual([
      "greet",
      undefined,
      undefined,
    ]);
  });

  it("UNREACHABLE: a gate needs two alternatives of one call", () => {
    const result = compile(
      plan(
        { _tool: "verifyUser", _id: "v", userId: "u", _outputPath: "†state.ok || †state.err" },
        { _tool: "log", _id: "l", message: "†state.ok && †state.err" },
      ),
      registry,
    );
    expect(codes(result.diagnostics)).toEqual([["UNREACHABLE", "/plan/1/message"]]);
  });

  it("UNREACHABLE passes on: a reader of a path a call that never runs writes never runs either", () => {
    const result = compile(
      plan(
        { _tool: "verifyUser", _id: "v", userId: "u", _outputPath: "†state.ok || †state.err" },
        { _tool: "log", _id: "both", message: "†state.ok && †state.err", _outputPath: "†state.both" },
        { _tool: "log", _id: "next", message: "†state.both", _outputPath: "†state.next" },
        // a fallback every alternative of which is dead; then one with a live alternative (runs)
        { _tool: "log", _id: "last", message: "{†state.next || †state.both}", _outputPath: "†state.last" },
        { _tool: "log", _id: "alive", message: "†state.next || †input.text" },
        // a latent call without _output is deferred: its reader never runs
        { _tool: "approve", _id: "wait", _outputPath: "†state.approved" },
        { _tool: "log", _id: "after", message: "{†state.approved}" },
      ),
      registry,
    );
    expect(codes(result.diagnostics)).toEqual([
      ["UNREACHABLE", "/plan/1/message"],
      ["UNREACHABLE", "/plan/2/message"],
      ["UNREACHABLE", "/plan/3/message"],
      ["LATENT_WITHOUT_OUTPUT", "/plan/5"],
      ["UNREACHABLE", "/plan/6/message"],
    ]);
    const next = result.diagnostics[1];
    expect(next?.message).toBe(
      'call "next" can never run: it reads †state.both, which call "both" writes, and "both" can never run',
    );
    expect(next).toMatchObject({ severity: "warning", callId: "next", related: ["both"] });
    expect(result.diagnostics[4]?.message).toContain('"wait" is latent without _output (deferred)');
  });

  it("UNREACHABLE reaches a whole chain whatever the plan order (readers listed before their writers)", () => {
    const chain = Array.from({ length: 80 }, (_, i) => ({
      _tool: "log",
      _id: `c${i}`,
      message: i === 0 ? "†state.ok && †state.err" : `†state.c${i - 1}`,
      _outputPath: `†state.c${i}`,
    }));
    const verify = { _tool: "verifyUser", _id: "v", userId: "u", _outputPath: "†state.ok || †state.err" };
    for (const calls of [[verify, ...chain], [verify, ...chain].reverse()]) {
      const unreachable = compile(plan(...calls), registry).diagnostics.filter(
        (d) => d.code === "UNREACHABLE",
      );
      expect(new Set(unreachable.map((d) => d.callId))).toEqual(new Set(chain.map((call) => call._id)));
    }
  });
});

describe("values that are not JSON", () => {
  const revoked = () => {
    const { proxy, revoke } = Proxy.revocable({ _tool: "greetUser" }, {});
    revoke();
    return proxy;
  };
  const throwingGets = new Proxy(
    { _tool: "greetUser" },
    {
      get() {
        throw new Error("get trap");
      },
    },
  );

  it.each([
    ["a revoked Proxy", revoked()],
    ["a list holding one", [revoked()]],
    ["a Proxy whose reads throw", throwingGets],
  ])("%s is JSON_SYNTAX, never an internal error", (_name, value) => {
    const result = compile(value, registry);
    expect(result.diagnostics.map((d) => d.code)).toEqual(["JSON_SYNTAX"]);
    expect(result.planHash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("a cycle is JSON_SYNTAX at its pointer, whatever maxDepth is (an infinite one used to run out of memory)", () => {
    const call: Record<string, unknown> = { _tool: "greetUser", userName: {} };
    (call.userName as Record<string, unknown>).self = call.userName;
    for (const maxDepth of [64, Number.POSITIVE_INFINITY]) {
      const result = compile(plan(call), registry, { limits: { maxDepth } });
      expect(codes(result.diagnostics)).toEqual([["JSON_SYNTAX", "/plan/0/userName/self"]]);
    }
  });
});
