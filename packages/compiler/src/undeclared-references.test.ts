import type { Diagnostic, JsonObject } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { defineTool } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";
import { declaresNames, undeclaredNearName } from "./undeclared-near-name.js";

/** A tool whose output is the given JSON Schema. */
const loader = (output: JsonObject) => ({
  name: "load",
  input: { type: "object", properties: {} },
  output,
  run: () => ({}),
});
/** The example tools, `fetchUser`'s output an open JSON Schema (zod's z.object drops other names: 0052). */
const registry = createToolRegistry(
  exampleTools.map((tool) =>
    tool.name === "fetchUser"
      ? {
          ...tool,
          output: {
            type: "object",
            properties: {
              name: { type: "string" },
              age: { type: "number" },
              address: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
            },
            required: ["name", "age", "address"],
          },
        }
      : tool,
  ),
);
const plan = (...calls: unknown[]) => ({ type: "plan", plan: calls });
const brief = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((d) => ({ code: d.code, severity: d.severity, pointer: d.pointer, hint: d.hint }));
const fetchUser = { _tool: "fetchUser", _id: "u", userId: "u1", _outputPath: "†state.user" };
const greet = (reference: string) => ({ _tool: "greetUser", _id: "g", userName: reference });

describe("a read of a name the schema does not declare, near one it does (REF_SUSPICIOUS)", () => {
  it("warns below a writer whose open output schema declares a near name, with the corrected reference", () => {
    const result = compile(plan(fetchUser, greet("†state.user.nme")), registry);
    expect(result.ok).toBe(true);
    expect(brief(result.diagnostics)).toEqual([
      {
        code: "REF_SUSPICIOUS",
        severity: "warning",
        pointer: "/plan/1/userName",
        hint: 'did you mean "†state.user.name"? (the schema allows other names, so this may be meant; if the value lacks it, the call ends blocked)',
      },
    ]);
    expect(result.diagnostics[0]?.message).toBe(
      '†state.user.nme reads "nme", which the output schema of call "u" (fetchUser) does not declare',
    );
  });

  it("judges nested levels, templates and †calls outputs alike", () => {
    const nested = compile(
      plan(fetchUser, { _tool: "log", _id: "l", message: "from {†state.user.adress.city}" }),
      registry,
    );
    expect(brief(nested.diagnostics).map((d) => [d.pointer, d.hint?.split("?")[0]])).toEqual([
      ["/plan/1/message", 'did you mean "†state.user.address.city"'],
    ]);
    const unnamedOutput = { _tool: "fetchUser", _id: "u", userId: "u1" };
    const calls = compile(plan(unnamedOutput, greet("†calls.u.naem")), registry);
    expect(brief(calls.diagnostics).map((d) => [d.code, d.hint?.split("?")[0]])).toEqual([
      ["REF_SUSPICIOUS", 'did you mean "†calls.u.name"'],
    ]);
  });

  it("says nothing for a declared name, a name near none, a short name, or a level that admits other names", () => {
    expect(compile(plan(fetchUser, greet("†state.user.name")), registry).diagnostics).toEqual([]);
    expect(compile(plan(fetchUser, greet("†state.user.nickname")), registry).diagnostics).toEqual([]);
    const short = createToolRegistry([
      ...exampleTools,
      loader({ type: "object", properties: { id: {}, ab: {} } }),
    ]);
    const loadTo = { _tool: "load", _id: "l", _outputPath: "†state.x" };
    expect(compile(plan(loadTo, { _tool: "log", message: "†state.x.ac" }), short).diagnostics).toEqual([]);
    for (const admitting of [
      { additionalProperties: true },
      { additionalProperties: { type: "string" } },
      { patternProperties: { "^x": {} } },
      { anyOf: [{ required: ["names"] }] },
    ]) {
      const open = createToolRegistry([
        ...exampleTools,
        loader({ type: "object", properties: { name: {} }, ...admitting }),
      ]);
      expect(compile(plan(loadTo, { _tool: "log", message: "†state.x.nme" }), open).diagnostics).toEqual([]);
    }
  });

  it("is quiet on a fallback: its first alternatives may probe for names on purpose (review of stop 28)", () => {
    const fallback = greet("†state.user.nme || †state.user.name");
    expect(compile(plan(fetchUser, fallback), registry).diagnostics).toEqual([]);
  });

  it("judges at most 200 names per compile, and no level of over 5,000 names (untrusted plans)", () => {
    const inputSchema = { type: "object", properties: { userId: { type: "string" } } };
    const calls = Array.from({ length: 250 }, () => ({ _tool: "fetchUser", userId: "†input.userID" }));
    const many = compile({ type: "plan", inputSchema, plan: calls }, registry).diagnostics;
    expect(many.filter((d) => d.code === "REF_SUSPICIOUS")).toHaveLength(200);
    const wide: Record<string, JsonObject> = { userId: { type: "string" } };
    for (let index = 0; index < 5_000; index++) wide[`field${index}`] = {};
    const wideSchema = { type: "object", properties: wide };
    const one = { type: "plan", inputSchema: wideSchema, plan: [calls[0]] };
    expect(compile(one, registry).diagnostics).toEqual([]);
  });

  it("leaves a closed schema to REF_UNRESOLVED (an error, not both)", () => {
    const closed = createToolRegistry([
      ...exampleTools,
      loader({ type: "object", properties: { name: {} }, additionalProperties: false }),
    ]);
    const result = compile(
      plan({ _tool: "load", _id: "l", _outputPath: "†state.x" }, greet("†state.x.nme")),
      closed,
    );
    expect(result.diagnostics.map((d) => [d.code, d.severity])).toEqual([["REF_UNRESOLVED", "error"]]);
  });

  it("is quiet while some writer may hold the name: a latent _output, another method, a later alternative", () => {
    // approve is latent, its output { approved }: the given _output decides, not the schema
    const latent = {
      _tool: "approve",
      _id: "a",
      _output: { approved: true, aproved: "yes" },
      _outputPath: "†state.d",
    };
    expect(compile(plan(latent, greet("†state.d.aproved")), registry).diagnostics).toEqual([]);
    const both = plan(
      { _tool: "fetchUser", _id: "a", userId: "u1", _outputPath: "†state.users", _outputMethod: "push" },
      greet("†state.users.0.nme"),
    );
    expect(compile(both, registry).diagnostics.filter((d) => d.code === "REF_SUSPICIOUS")).toEqual([]);
    const routed = plan(
      { _tool: "verifyUser", _id: "v", userId: "u1", _outputPath: "†state.ok || †state.user" },
      fetchUser,
    );
    expect(compile(routed, registry).diagnostics.filter((d) => d.code === "REF_SUSPICIOUS")).toEqual([]);
  });

  it("warns on an input path the plan's input schema does not declare, until the input is given", () => {
    const withSchema = {
      ...plan({ _tool: "fetchUser", _id: "u", userId: "†input.userID" }),
      inputSchema: { type: "object", properties: { userId: { type: "string" } } },
    };
    expect(brief(compile(withSchema, registry).diagnostics)).toEqual([
      {
        code: "REF_SUSPICIOUS",
        severity: "warning",
        pointer: "/plan/0/userId",
        hint: 'did you mean "†input.userId"? (the schema allows other names, so this may be meant; run with an input that lacks it, the plan is refused (REF_UNRESOLVED))',
      },
    ]);
    // With the input, its value decides: present is fine, absent is REF_UNRESOLVED.
    const given = (input: JsonObject) => compile(withSchema, registry, { context: { input } }).diagnostics;
    expect(given({ userID: "u1" })).toEqual([]);
    expect(given({ userId: "u1" }).map((d) => d.code)).toEqual(["REF_UNRESOLVED"]);
    // A context's input schema that declares the name keeps it quiet.
    const declared = { type: "object", properties: { userID: { type: "string" } } };
    expect(compile(withSchema, registry, { context: { inputSchema: declared } }).diagnostics).toEqual([]);
  });

  it("a zod z.object output is closed instead (REF_UNRESOLVED, decision 0052), streamed or not", () => {
    const tools = createToolRegistry([
      ...exampleTools,
      defineTool({
        name: "order",
        input: z.object({}),
        output: z.object({ total: z.number(), items: z.array(z.string()) }),
        run: () => ({ total: 1, items: [] }),
      }),
    ]);
    const calls = [
      { _tool: "order", _id: "o", _outputPath: "†state.order" },
      { _tool: "log", _id: "l", message: "total {†state.order.totl}" },
    ];
    const batch = compile(plan(...calls), tools);
    // zod's parse drops "totl" from what is stored: the read certainly finds nothing
    expect(brief(batch.diagnostics).map((d) => [d.code, d.severity])).toEqual([["REF_UNRESOLVED", "error"]]);
    const streaming = createIncrementalCompiler(tools);
    for (const call of calls) streaming.addCall(call);
    expect(brief(streaming.close().diagnostics)).toEqual(brief(batch.diagnostics));
  });
});

describe("undeclaredNearName", () => {
  const schema: JsonObject = {
    type: "object",
    properties: {
      profile: { $ref: "#/$defs/profile" },
      tags: { type: "array", items: { type: "object", properties: { label: {} } } },
    },
    $defs: { profile: { type: "object", properties: { email: {} }, required: ["phone"] } },
  };

  it("follows properties, local $refs and items to the first undeclared name", () => {
    expect(undeclaredNearName(schema, ["profile", "emial"])).toEqual({ index: 1, near: "email" });
    expect(undeclaredNearName(schema, ["tags", 0, "lable"])).toEqual({ index: 2, near: "label" });
    expect(undeclaredNearName(schema, ["profle", "email"])).toEqual({ index: 0, near: "profile" });
  });

  it("counts required names as declared and stops where nothing is known", () => {
    expect(undeclaredNearName(schema, ["profile", "phone", "x"])).toBeUndefined();
    expect(undeclaredNearName(schema, ["profile", "email", "adress"])).toBeUndefined();
    expect(undeclaredNearName(true, ["name"])).toBeUndefined();
    expect(undeclaredNearName({ type: "object" }, ["name"])).toBeUndefined();
    // keywords beside a $ref are kept by JSON Schema, dropped by resolveRef: not judged
    const based = {
      $defs: { base: { properties: { email: {} } } },
      $ref: "#/$defs/base",
      properties: { emails: {} },
    };
    expect(undeclaredNearName(based, ["emails"])).toBeUndefined();
    expect(undeclaredNearName({ properties: { a: based } }, ["a", "emails"])).toBeUndefined();
  });

  it("declaresNames: a schema with properties somewhere (only then is the plan-wide pass run)", () => {
    expect(declaresNames({ type: "string" })).toBe(false);
    expect(declaresNames({ type: "object", additionalProperties: { type: "number" } })).toBe(false);
    expect(declaresNames({ anyOf: [{ type: "null" }, { type: "object", properties: { a: {} } }] })).toBe(
      true,
    );
    expect(declaresNames({ $defs: { x: { properties: {} } }, $ref: "#/$defs/x" })).toBe(true);
    // a huge enum is not spread on the stack: past 10,000 values the schema is judged
    const values = Array.from({ length: 200_000 }, (_, index) => `v${index}`);
    expect(declaresNames({ type: "string", enum: values })).toBe(true);
    const cyclic: Record<string, unknown> = { type: "object" };
    cyclic.self = cyclic;
    expect(declaresNames(cyclic)).toBe(true);
  });
});
