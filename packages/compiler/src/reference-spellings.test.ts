// biome-ignore-all lint/suspicious/noTemplateCurlyInString: "${…}" is the misspelling under test, not a template
import { createKindTable, type Diagnostic } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { compile } from "./compile.js";
import type { CompileContext } from "./compiled-plan.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry([
  {
    name: "greet",
    input: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    run: () => "hi",
  },
  { name: "echo", input: { type: "object" }, run: () => 1 },
]);

/** The diagnostics of one greet call whose `name` is `name`, compiled with `context`. */
function greet(name: string, context: CompileContext = {}): readonly Diagnostic[] {
  return compile([{ _tool: "greet", name, _outputPath: "†state.g" }], registry, { context }).diagnostics;
}

const shape = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((d) => ({ code: d.code, severity: d.severity, pointer: d.pointer, hint: d.hint }));

const warning = (hint: string, pointer = "/0/name") => ({
  code: "REF_SUSPICIOUS",
  severity: "warning",
  pointer,
  hint,
});

describe("a reference spelt with $ or ${…} is a literal: REF_SUSPICIOUS with the † spelling", () => {
  it.each([
    ["$input.userName", "†input.userName"],
    ["$state.user.name", "†state.user.name"],
    ["$state.items[0]", "†state.items[0]"],
    ["$calls.fetch", "†calls.fetch"],
    ["${input.userName}", "†input.userName"],
    ["${state.user.name}", "†state.user.name"],
  ])("%s (the whole value) → did you mean %s", (text, fixed) => {
    const result = compile([{ _tool: "greet", name: text, _outputPath: "†state.g" }], registry);
    expect(result.ok).toBe(true);
    expect(shape(result.diagnostics)).toEqual([warning(`did you mean "${fixed}"?`)]);
  });

  it("${…} inside text: the hint gives the template slot {†…}", () => {
    expect(shape(greet("hi ${input.userName}, you have ${state.count} items"))).toEqual([
      warning('inside text write "{†input.userName}" (a template slot), not "${input.userName}"'),
    ]);
  });

  it("${…} in the text of a template (beside a {†…} slot) too", () => {
    expect(shape(greet("hi ${input.userName}, you have {†state.count} items"))).toEqual([
      warning('inside text write "{†input.userName}" (a template slot), not "${input.userName}"'),
    ]);
  });

  it("at any depth of a parameter", () => {
    const result = compile([{ _tool: "echo", v: { list: ["ok", "$input.a"] } }], registry);
    expect(shape(result.diagnostics)).toEqual([warning('did you mean "†input.a"?', "/0/v/list/1")]);
  });

  it("a host kind counts as a known kind", () => {
    const kinds = createKindTable([
      { kind: "env", writable: false, engineManaged: false, description: "env" },
    ]);
    const result = compile([{ _tool: "greet", name: "$env.HOME", _outputPath: "†state.g" }], registry, {
      kinds,
    });
    expect(shape(result.diagnostics)).toEqual([warning('did you mean "†env.HOME"?')]);
  });

  it.each([
    "$5",
    "costs $5.00",
    "US$ 12",
    "$input",
    "$foo.bar",
    "${amount}",
    "${input.userName",
    "${input.userName b}",
    "$input.userName and more",
    "call $state.go('home') on click",
    "$input.a || $input.b",
    "$$input.a",
    "$tool_output.fetch",
  ])("no warning for %j", (text) => {
    expect(greet(text, { input: { userName: "Ada", a: 1 }, state: { go: 1 } })).toEqual([]);
  });

  it("streaming gives the same warning when the call is added", () => {
    const compiler = createIncrementalCompiler(registry);
    const added = compiler.addCall({ _tool: "greet", name: "$input.userName", _outputPath: "†state.g" });
    expect(added.ok).toBe(true);
    expect(shape(added.diagnostics)).toEqual([warning('did you mean "†input.userName"?', "/plan/0/name")]);
  });
});

describe("a bare kind.path (no †) is flagged only when that path is known data", () => {
  it.each<[string, string, CompileContext]>([
    ["input.userName", "†input.userName", { input: { userName: "Ada" } }],
    [
      "input.userName",
      "†input.userName",
      { inputSchema: { type: "object", properties: { userName: { type: "string" } } } },
    ],
    ["state.user.name", "†state.user.name", { state: { user: { name: "Ada" } } }],
    ["calls.fetch", "†calls.fetch", { callOutputs: new Set(["fetch"]) }],
  ])("%s with that path known → did you mean %s", (text, fixed, context) => {
    expect(shape(greet(text, context))).toEqual([warning(`did you mean "${fixed}"?`)]);
  });

  it.each<[string, CompileContext]>([
    ["input.txt", {}],
    ["input.txt", { input: { userName: "Ada" } }],
    ["input.txt", { inputSchema: { type: "object" } }],
    ["input.txt", { inputSchema: { type: "object", properties: { name: { type: "string" } } } }],
    ["state.json", { state: { user: 1 } }],
    ["calls.csv", { callOutputs: new Set(["fetch"]) }],
    ["input.userName is here", { input: { userName: "Ada" } }],
    ["my input.userName", { input: { userName: "Ada" } }],
    ["inputs.userName", { input: { userName: "Ada" } }],
  ])("no warning for %j with that path unknown (a file name is a file name)", (text, context) => {
    expect(greet(text, context)).toEqual([]);
  });
});

describe("a bare kind.path (no †) naming a path the plan itself writes", () => {
  const writeUser = { _tool: "echo", _outputPath: "†state.user" };
  const greetWith = (name: string, to = "†state.g") => ({ _tool: "greet", name, _outputPath: to });
  const planned = (...calls: object[]) => compile(calls, registry).diagnostics;

  it("is REF_SUSPICIOUS at the literal, whether the writer comes before or after it", () => {
    const expected = [
      {
        code: "REF_SUSPICIOUS",
        severity: "warning",
        pointer: "/1/name",
        hint: 'did you mean "†state.user.id"? (this plan writes that path)',
      },
    ];
    expect(shape(planned(writeUser, greetWith("state.user.id")))).toEqual(expected);
    expect(shape(planned(greetWith("x", "†state.h"), greetWith("state.user.id"), writeUser))).toEqual(
      expected,
    );
  });

  it("covers a path below or above the written one, and a call's own †calls.<id>", () => {
    expect(planned({ _tool: "echo", _outputPath: "†state.user.id" }, greetWith("state.user"))).toHaveLength(
      1,
    );
    const named = { _tool: "echo", _id: "lookup" };
    expect(shape(planned(named, greetWith("calls.lookup.name")))[0]?.hint).toBe(
      'did you mean "†calls.lookup.name"? (this plan writes that path)',
    );
  });

  it("says nothing for a path no call writes, a longer text, or a file name", () => {
    expect(planned(writeUser, greetWith("state.users"))).toEqual([]);
    expect(planned(writeUser, greetWith("see state.user.id"))).toEqual([]);
    expect(planned(writeUser, greetWith("input.txt"))).toEqual([]);
  });

  it("warns once when the known context explains it already (the earlier check wins)", () => {
    const diagnostics = compile([writeUser, greetWith("state.user.id")], registry, {
      context: { state: { user: { id: "u1" } } },
    }).diagnostics;
    expect(shape(diagnostics).map((d) => [d.code, d.hint])).toEqual([
      ["REF_SUSPICIOUS", 'did you mean "†state.user.id"?'],
    ]);
  });

  it("gives the same warning when the plan is streamed, and none for a refused call", () => {
    const stream = createIncrementalCompiler(registry);
    expect(stream.addCall(greetWith("state.user.id")).diagnostics).toEqual([]);
    // Refused (a missing required parameter): its bare literal is not looked at when the stream closes.
    expect(stream.addCall({ _tool: "greet", other: "state.user.name", _outputPath: "†state.h" }).ok).toBe(
      false,
    );
    stream.addCall(writeUser);
    const warnings = stream.close().diagnostics.filter((d) => d.severity === "warning");
    expect(warnings.map((d) => [d.code, d.pointer])).toEqual([["REF_SUSPICIOUS", "/plan/0/name"]]);
  });
});
