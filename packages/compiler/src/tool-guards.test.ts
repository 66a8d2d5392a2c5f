import { type Diagnostic, ObeliskError } from "@obelisk/core";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { planJsonSchema } from "./plan-json-schema.js";
import { defineTool } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

const issueRefund = defineTool({
  name: "issueRefund",
  input: z.object({ amount: z.number(), approval: z.object({ by: z.string() }) }),
  approvalParams: ["approval"],
  idempotent: false,
  run: () => "refunded",
});
const sendEmail = defineTool({
  name: "sendEmail",
  input: z.object({ to: z.string(), approval: z.unknown().optional() }),
  approvalParams: ["approval"],
  idempotent: false,
  retry: { attempts: 3 },
  run: () => "sent",
});
const search = defineTool({ name: "search", input: z.object({ q: z.string() }), run: () => [] });
const registry = createToolRegistry([issueRefund, sendEmail, search]);

const errors = (plan: unknown[]): Pick<Diagnostic, "code" | "pointer">[] =>
  compile({ type: "plan", plan }, registry)
    .diagnostics.filter((d) => d.severity === "error")
    .map(({ code, pointer }) => ({ code, pointer }));

const refund = (approval: unknown) => [
  { _tool: "issueRefund", amount: 900, approval, _outputPath: "†state.refund" },
];

describe("approval parameters: an approval is not the plan's to give", () => {
  it("a reference under †state.approvals. is accepted (the call waits for it)", () => {
    expect(errors(refund("†state.approvals.refund"))).toEqual([]);
    expect(errors(refund("†state.approvals.refunds.order7"))).toEqual([]);
  });

  it.each([
    ["a literal object", { by: "ops" }],
    ["a literal string", "approved"],
    ["a template", "{†state.approvals.refund}"],
    ["a fallback to other data", "†state.approvals.refund || †state.user"],
    ["a fallback to a literal-free path", "†state.user || †state.approvals.refund"],
    ["a gate whose value is other data", "†state.approvals.refund && †state.user"],
    ["the approvals root itself", "†state.approvals"],
    ["another path of the state", "†state.user"],
    ["another kind", "†input.approval"],
  ])("%s is PARAM_INVALID at the parameter", (_what, approval) => {
    const found = errors(refund(approval));
    expect(found).toContainEqual({ code: "PARAM_INVALID", pointer: "/plan/0/approval" });
  });

  it("the message and hint say why and what to write", () => {
    const [diagnostic] = compile({ plan: refund({ by: "ops" }) }, registry).diagnostics.filter(
      (d) => d.code === "PARAM_INVALID",
    );
    expect(diagnostic?.message).toContain("an approval is not the plan's to give");
    expect(diagnostic?.hint).toContain('"†state.approvals.<name>"');
  });

  it("missing, it is PARAM_MISSING once, whether the schema requires it or not", () => {
    const required = errors([{ _tool: "issueRefund", amount: 900, _outputPath: "†state.refund" }]);
    expect(required.filter((d) => d.code === "PARAM_MISSING")).toEqual([
      { code: "PARAM_MISSING", pointer: "/plan/0" },
    ]);
    expect(errors([{ _tool: "sendEmail", to: "a@b.c", _outputPath: "†state.mail" }])).toEqual([
      { code: "PARAM_MISSING", pointer: "/plan/0" },
    ]);
  });

  it("streaming (addCall) refuses the same call", () => {
    const incremental = createIncrementalCompiler(registry);
    const added = incremental.addCall(refund({ by: "ops" })[0]);
    expect(added.ok).toBe(false);
    expect(added.diagnostics.map((d) => d.code)).toContain("PARAM_INVALID");
  });

  it("the plan JSON Schema offers only the reference there, and requires it", () => {
    const validate = new Ajv2020({ strict: false }).compile(planJsonSchema(registry));
    expect(validate({ plan: refund("†state.approvals.refund") })).toBe(true);
    expect(validate({ plan: refund({ by: "ops" }) })).toBe(false);
    expect(validate({ plan: [{ _tool: "sendEmail", to: "a@b.c" }] })).toBe(false);
    expect(validate({ plan: [{ _tool: "sendEmail", to: "a@b.c", approval: "†state.approvals.mail" }] })).toBe(
      true,
    );
  });

  it("the plan JSON Schema takes every spelling the compiler takes: brackets too", () => {
    const validate = new Ajv2020({ strict: false }).compile(planJsonSchema(registry));
    for (const approval of [
      '†state.approvals["refund o1"]',
      '†state["approvals"].refund',
      '†state["approvals"]["refund o1"]',
      "†state.approvals[0]",
    ]) {
      expect(errors(refund(approval)), approval).toEqual([]);
      expect(validate({ plan: refund(approval) }), approval).toBe(true);
    }
    for (const approval of ["†state.approvalsX.y", "†state.approvals", "†state.x.approvals.y"])
      expect(validate({ plan: refund(approval) }), approval).toBe(false);
  });
});

describe("a tool that is not idempotent: the plan may not multiply its effects", () => {
  it("_rerun: true is CALL_SHAPE at _rerun; _rerun: false is fine", () => {
    const call = { _tool: "sendEmail", to: "a@b.c", approval: "†state.approvals.mail" };
    expect(errors([{ ...call, _rerun: true }])).toEqual([{ code: "CALL_SHAPE", pointer: "/plan/0/_rerun" }]);
    expect(errors([{ ...call, _rerun: false }])).toEqual([]);
  });

  it("_retry.attempts above the tool's own attempts is CALL_SHAPE; within them, and other fields, are fine", () => {
    const call = { _tool: "sendEmail", to: "a@b.c", approval: "†state.approvals.mail" };
    expect(errors([{ ...call, _retry: { attempts: 4 } }])).toEqual([
      { code: "CALL_SHAPE", pointer: "/plan/0/_retry/attempts" },
    ]);
    expect(errors([{ ...call, _retry: { attempts: 3, backoffMs: 50 } }])).toEqual([]);
    const once = refund("†state.approvals.refund")[0];
    expect(errors([{ ...once, _retry: { attempts: 10, backoffMs: 0 } }])).toEqual([
      { code: "CALL_SHAPE", pointer: "/plan/0/_retry/attempts" },
    ]);
  });

  it("an idempotent tool (the default) keeps the plan's overrides", () => {
    expect(errors([{ _tool: "search", q: "x", _rerun: true, _retry: { attempts: 5 } }])).toEqual([]);
  });

  it("the plan JSON Schema says the same", () => {
    const validate = new Ajv2020({ strict: false }).compile(planJsonSchema(registry));
    const call = { _tool: "sendEmail", to: "a@b.c", approval: "†state.approvals.mail" };
    expect(validate({ plan: [{ ...call, _rerun: true }] })).toBe(false);
    expect(validate({ plan: [{ ...call, _retry: { attempts: 4 } }] })).toBe(false);
    expect(validate({ plan: [{ ...call, _rerun: false, _retry: { attempts: 3 } }] })).toBe(true);
    expect(validate({ plan: [{ _tool: "search", q: "x", _rerun: true, _retry: { attempts: 5 } }] })).toBe(
      true,
    );
  });
});

describe("the options are checked at registration (USAGE)", () => {
  const registering = (definition: object): string => {
    try {
      createToolRegistry([{ name: "t", run: () => 1, ...definition } as never]);
      return "registered";
    } catch (error) {
      if (!ObeliskError.is(error) || error.code !== "USAGE") throw error;
      return error.message;
    }
  };

  it.each([
    [{ approvalParams: "approval" }, "approvalParams must be an array of parameter names"],
    [{ approvalParams: ["_approval"] }, "approvalParams must be an array of parameter names"],
    [{ approvalParams: ["a", "a"] }, "names a parameter twice"],
    [
      { input: { type: "object", properties: { approval: {} } }, approvalParams: ["aproval"] },
      'approvalParams names "aproval", which its input schema does not declare',
    ],
    [{ idempotent: "no" }, "idempotent must be true or false"],
  ])("%j is refused", (definition, message) => {
    expect(registering(definition)).toContain(message);
  });

  it("a name in an input schema that declares no properties is taken", () => {
    expect(registering({ approvalParams: ["approval"] })).toBe("registered");
  });
});
