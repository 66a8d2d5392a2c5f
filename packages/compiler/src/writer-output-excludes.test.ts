import type { Diagnostic } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { defineTool } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry([
  ...exampleTools,
  defineTool({
    name: "lookup",
    input: z.object({ id: z.string() }),
    output: z.strictObject({ name: z.string(), tags: z.array(z.string()) }),
    outcomes: ["found", "missing"],
    run: () => ({ name: "x", tags: [] }),
  }),
  { name: "note", latent: true, input: { type: "object" } },
  defineTool({
    name: "looseUser",
    input: z.object({ userId: z.string() }),
    output: z.looseObject({ name: z.string() }),
    run: () => ({ name: "x" }),
  }),
]);
const brief = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((d) => ({ code: d.code, pointer: d.pointer, hint: d.hint }));
const fetchUser = { _tool: "fetchUser", _id: "user", userId: "u1", _outputPath: "†state.user" };
const lookup = { _tool: "lookup", _id: "user", id: "u1", _outputPath: "†state.user" };
/** A template: whatever the type read, a log message takes it. */
const log = (message: string) => ({ _tool: "log", message: `{${message}}` });
const check = (...calls: object[]) => brief(compile({ type: "plan", plan: calls }, registry).diagnostics);

describe("a path below a writer's target that its output schema cannot hold", () => {
  it("is REF_UNRESOLVED with the writer and its output's shape as hint (a closed output schema)", () => {
    expect(check(lookup, log("†state.user.fullName"))).toEqual([
      {
        code: "REF_UNRESOLVED",
        pointer: "/plan/1/message",
        hint: 'call "user" writes the path above it, and its output ({name: string, tags: string[]}) has nothing at .fullName',
      },
    ]);
  });

  it("says nothing for a path the output has, or an open output schema may have", () => {
    expect(check(lookup, log("†state.user.name"), log("†state.user.tags[0]"), log("†state.user"))).toEqual(
      [],
    );
    // z.looseObject keeps the keys it does not declare (z.object drops them: decision 0052)
    const loose = { ...fetchUser, _tool: "looseUser" };
    expect(check(loose, log("†state.user.fullName"))).toEqual([]);
    expect(check(fetchUser, log("†state.user.fullName")).map((d) => d.code)).toEqual(["REF_UNRESOLVED"]);
  });

  it("says nothing when a fallback operand resolves", () => {
    expect(check(lookup, log("†state.user.fullName || †state.user.name"))).toEqual([]);
  });

  it("judges only the first alternative (a later one may hold any JSON or the error)", () => {
    const branching = { _tool: "lookup", _id: "l", id: "1", _outputPath: "†state.found || †state.missing" };
    expect(check(branching, log("†state.found.nick")).map((d) => d.code)).toEqual(["REF_UNRESOLVED"]);
    expect(check(branching, log("†state.missing.nick"))).toEqual([]);
  });

  it("judges only set: an accumulating write puts the output somewhere below", () => {
    const pushing = { _tool: "lookup", id: "1", _outputPath: "†state.list", _outputMethod: "push" };
    expect(check(pushing, log("†state.list.nick"))).toEqual([]);
  });

  it("reads a latent call's _output the same way", () => {
    const latent = { _tool: "note", _id: "n", _output: { a: 1 }, _outputPath: "†state.note" };
    expect(check(latent, log("†state.note.b")).map((d) => d.hint)).toEqual([
      'call "n" writes the path above it, and its _output has nothing at .b',
    ]);
    expect(check(latent, log("†state.note.a"))).toEqual([]);
  });

  it("gives the same diagnostics when streamed (judged at close, not when the reader arrives)", () => {
    const calls = [log("†state.user.fullName"), lookup, log("†state.user.name")];
    const stream = createIncrementalCompiler(registry);
    for (const call of calls) expect(stream.addCall(call).ok).toBe(true);
    expect(brief(stream.close().diagnostics)).toEqual(check(...calls));
    expect(check(...calls)).toHaveLength(1);
  });
});
