import type { Diagnostic } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { defineTool } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry([
  defineTool({
    name: "user",
    input: z.object({}),
    output: z.object({
      name: z.string(),
      nick: z.string().optional(),
      lang: z.string().default("en"),
      profile: z.object({ bio: z.string().optional() }).optional(),
    }),
    run: () => ({ name: "Ada" }),
  }),
  {
    name: "jsonUser",
    input: { type: "object" },
    output: { type: "object", properties: { nick: { type: "string" } } },
    run: () => ({}),
  },
  defineTool({ name: "echo", input: z.object({ x: z.unknown() }), run: ({ x }) => x }),
]);
const writeUser = { _tool: "user", _id: "u", _outputPath: "†state.u" };
const echo = (x: string, id = "e") => ({ _tool: "echo", _id: id, x });
const brief = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((d) => ({ code: d.code, severity: d.severity, pointer: d.pointer, hint: d.hint }));
const check = (...calls: object[]) => brief(compile({ type: "plan", plan: calls }, registry).diagnostics);

describe("a read of a name the writer's output schema marks optional (review s32 L12)", () => {
  it("is REF_SUSPICIOUS with a fallback to a required name, in a template or whole; the plan stays valid", () => {
    expect(check(writeUser, echo("Hi {†state.u.nick}"))).toEqual([
      {
        code: "REF_SUSPICIOUS",
        severity: "warning",
        pointer: "/plan/1/x",
        hint: 'if the tool leaves it out, the call ends blocked: give a fallback the value always has, "{†state.u.nick || †state.u.name}"',
      },
    ]);
    expect(check(writeUser, echo("†state.u.profile.bio")).map((d) => d.hint)).toEqual([
      'if the tool leaves it out, the call ends blocked: give a fallback the value always has, "†state.u.profile.bio || †state.u.name"',
    ]);
    const result = compile({ type: "plan", plan: [writeUser, echo("†state.u.nick")] }, registry);
    expect(result.ok).toBe(true);
  });

  it("a JSON Schema output with no required name: the hint says to add one or to always return it", () => {
    const json = { _tool: "jsonUser", _id: "j", _outputPath: "†state.j" };
    expect(check(json, echo("†state.j.nick")).map((d) => d.hint)).toEqual([
      'if the tool leaves it out, the call ends blocked: give a fallback the value always has, "†state.j.nick || †…", or have the tool always return it',
    ]);
  });

  it("says nothing for a required name, a default, a read with a fallback, or a path another call writes", () => {
    expect(check(writeUser, echo("†state.u.name"))).toEqual([]);
    expect(check(writeUser, echo("†state.u.lang"))).toEqual([]);
    expect(check(writeUser, echo("{†state.u.nick || †state.u.name}"))).toEqual([]);
    // accumulating writers: another call may write the name
    const merged = { ...writeUser, _outputMethod: "merge" };
    const nick = { _tool: "jsonUser", _id: "n", _outputPath: "†state.u", _outputMethod: "merge" };
    expect(check(merged, nick, echo("†state.u.nick"))).toEqual([]);
  });

  it("streaming's close says the same as a batch compile", () => {
    const calls = [writeUser, echo("Hi {†state.u.nick}")];
    const streaming = createIncrementalCompiler(registry);
    for (const call of calls) streaming.addCall(call);
    expect(brief(streaming.close().diagnostics)).toEqual(check(...calls));
  });
});
