import type { Diagnostic } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import type { CompileContext } from "./compiled-plan.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { MAX_NEAR_HINTS } from "./near-reference-hint.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const plan = (...calls: unknown[]) => ({ type: "plan", plan: calls });
const unresolved = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((d) => ({ code: d.code, pointer: d.pointer, hint: d.hint }));
const compileWith = (context: CompileContext, ...calls: unknown[]) =>
  compile(plan(...calls), registry, { context });
const fetch = { _tool: "fetchUser", userId: "u1", _outputPath: "†state.user" };

describe("REF_UNRESOLVED did-you-mean", () => {
  it("suggests a path the plan writes (†state.usr → †state.user)", () => {
    const result = compileWith({ state: {} }, fetch, { _tool: "log", message: "†state.usr.name" });
    expect(unresolved(result.diagnostics)).toEqual([
      {
        code: "REF_UNRESOLVED",
        pointer: "/plan/1/message",
        hint: 'did you mean "†state.user.name"? (the thread\'s state has no value there and no call of this plan writes it)',
      },
    ]);
  });

  it("never offers the reading call's own output: it is not there for the call to read", () => {
    const own = { _tool: "log", message: "†state.nothing", _outputPath: "†state.g2" };
    const listed = compileWith({ state: {} }, fetch, own).diagnostics[0]?.hint;
    expect(listed).toBe(
      'the names known there: "user" (the thread\'s state has no value there and no call of this plan writes it)',
    );
    const near = { _tool: "log", message: "†state.g3", _outputPath: "†state.g2" };
    expect(compileWith({ state: {} }, fetch, near).diagnostics[0]?.hint).not.toContain("g2");
    // another call writing the same name keeps it among the names known
    const both = compileWith({ state: {} }, own, {
      _tool: "log",
      message: "x",
      _outputPath: "†state.g2.more",
    });
    expect(both.diagnostics[0]?.hint).toContain('"g2"');
  });

  it("suggests a key the thread's stored state holds, at the level where the path goes wrong", () => {
    const state = { profile: { email: "a@b", name: "n" } };
    const result = compileWith({ state }, { _tool: "log", message: "†state.profile.emial" });
    expect(unresolved(result.diagnostics)).toMatchObject([
      {
        code: "REF_UNRESOLVED",
        pointer: "/plan/0/message",
        hint: expect.stringMatching(/^did you mean "†state\.profile\.email"\?/),
      },
    ]);
  });

  it("suggests a declared state-schema property", () => {
    const stateSchema = { type: "object", properties: { summary: { type: "string" } } };
    const result = compileWith({ state: {}, stateSchema }, { _tool: "log", message: "†state.sumary" });
    expect(result.diagnostics[0]?.hint).toMatch(/^did you mean "†state\.summary"\?/);
  });

  it("suggests a call id (†calls.fech → †calls.fetch)", () => {
    const result = compileWith(
      { callOutputs: new Set() },
      { _tool: "fetchUser", _id: "fetch", userId: "u1" },
      { _tool: "log", message: "†calls.fech" },
    );
    expect(unresolved(result.diagnostics)).toEqual([
      {
        code: "REF_UNRESOLVED",
        pointer: "/plan/1/message",
        hint: 'did you mean "†calls.fetch"? (no call of this plan has that id, and the thread has no stored output for it)',
      },
    ]);
  });

  it("never suggests the reading call's own id (c2 reading †calls.c1 gets †calls.c3, or none)", () => {
    const reader = { _tool: "log", _id: "c2", message: "†calls.c1" };
    const alone = compileWith({ callOutputs: new Set() }, reader);
    expect(alone.diagnostics[0]?.hint).toBe(
      "no call of this plan has that id, and the thread has no stored output for it",
    );
    const other = compileWith({ callOutputs: new Set(["c3"]) }, reader);
    expect(other.diagnostics[0]?.hint).toMatch(/^did you mean "†calls\.c3"\?/);
  });

  it("suggests a stored call id of the thread", () => {
    const result = compileWith(
      { callOutputs: new Set(["summarize"]) },
      { _tool: "log", message: "†calls.sumarize" },
    );
    expect(result.diagnostics[0]?.hint).toMatch(/^did you mean "†calls\.summarize"\?/);
  });

  it("says to name the unnamed call of a tool whose name stands where a call id belongs (not its automatic id)", () => {
    const result = compileWith(
      { callOutputs: new Set() },
      { _tool: "fetchUser", userId: "u1" },
      { _tool: "fetchUser", userId: "u2" },
      { _tool: "log", message: "†calls.fetchUser" },
    );
    expect(unresolved(result.diagnostics)).toEqual([
      {
        code: "REF_UNRESOLVED",
        pointer: "/plan/2/message",
        hint: '"fetchUser" is a tool name, not a call id: give that fetchUser call an "_id" and read †calls.<that id> (its automatic id "fetchUser$1" is numbered anew on every run)',
      },
    ]);
  });

  it("points a tool name at its call's _outputPath, and says when no call uses the tool", () => {
    const result = compileWith(
      { callOutputs: new Set() },
      fetch,
      { _tool: "log", message: "†calls.fetchUser" },
      { _tool: "log", message: "†calls.add" },
    );
    expect(unresolved(result.diagnostics)).toEqual([
      {
        code: "REF_UNRESOLVED",
        pointer: "/plan/1/message",
        hint: '"fetchUser" is a tool name, not a call id; its call has the id "fetchUser$1": read †state.user',
      },
      {
        code: "REF_UNRESOLVED",
        pointer: "/plan/2/message",
        hint: '"add" is a tool name, not a call id, and no call of this plan uses that tool',
      },
    ]);
  });

  it("a tool name's hint lists the ids but the reader's, says there are more, and keeps the path (review s41 rev1 #4)", () => {
    const log = (id: string, message = "x") => ({ _tool: "log", _id: id, message });
    const result = compileWith(
      { callOutputs: new Set() },
      log("a"),
      log("b"),
      log("c", "†calls.log.x"),
      log("d"),
      log("e"),
    );
    expect(unresolved(result.diagnostics)).toEqual([
      {
        code: "REF_UNRESOLVED",
        pointer: "/plan/2/message",
        hint: '"log" is a tool name, not a call id; its calls have the ids "a", "b", "d", …: read †calls.a.x',
      },
    ]);
  });

  it("suggests a declared input property (case differences count half)", () => {
    const inputSchema = {
      type: "object",
      properties: { userId: { type: "string" } },
      additionalProperties: false,
    };
    const result = compile(
      { type: "plan", inputSchema, plan: [{ _tool: "log", message: "†input.userid" }] },
      registry,
    );
    expect(unresolved(result.diagnostics)).toEqual([
      {
        code: "REF_UNRESOLVED",
        pointer: "/plan/0/message",
        hint: 'did you mean "†input.userId"? (the input schema allows no value at this path)',
      },
    ]);
  });

  it("suggests a key of the run's input", () => {
    const result = compileWith({ input: { userId: "u" } }, { _tool: "log", message: "†input.usrId" });
    expect(result.diagnostics[0]?.hint).toMatch(/^did you mean "†input\.userId"\?/);
  });

  it("lists the names known at that level when none is near, and keeps the general hint", () => {
    const result = compileWith({ state: {} }, fetch, { _tool: "log", message: "†state.totally" });
    expect(unresolved(result.diagnostics)).toEqual([
      {
        code: "REF_UNRESOLVED",
        pointer: "/plan/1/message",
        hint: 'the names known there: "user" (the thread\'s state has no value there and no call of this plan writes it)',
      },
    ]);
    const empty = compileWith({ state: {} }, { _tool: "log", message: "†state.totally" });
    expect(empty.diagnostics[0]?.hint).toBe(
      "the thread's state has no value there and no call of this plan writes it",
    );
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, i]));
    const listed = compileWith({ state: many }, { _tool: "log", message: "†state.zzzzzz" });
    expect(listed.diagnostics[0]?.hint).toMatch(/^the names known there: "k0", "k1", .*"k7", … \(/);
  });

  it("points a name read from a list at one of its items", () => {
    const state = { orders: [{ total: 3 }] };
    const result = compileWith({ state }, { _tool: "log", message: "†state.orders.total" });
    expect(result.diagnostics[0]?.hint).toBe(
      '†state.orders is a list: read one of its items, e.g. "†state.orders[0].total" (the thread\'s state has no value there and no call of this plan writes it)',
    );
    const stored = compileWith(
      { callOutputs: new Set(["find"]), callOutput: () => ({ value: { rows: [1, 2] } }) },
      { _tool: "log", message: "†calls.find.rows.first" },
    );
    expect(stored.diagnostics[0]?.hint).toMatch(
      /^†calls\.find\.rows is a list: read one of its items, e\.g\. "†calls\.find\.rows\[0\]\.first"/,
    );
  });

  it("compares only a bounded number of names of one level", () => {
    const state = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`key${i}`, i]));
    const result = compileWith({ state }, { _tool: "log", message: "†state.kye0" });
    expect(result.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ["REF_UNRESOLVED", "/plan/0/message"],
    ]);
    expect(result.diagnostics[0]?.hint).toMatch(/^did you mean "†state\.key0"\?/);
  });
});

describe("REF_UNRESOLVED did-you-mean at scale", () => {
  it(`gives did-you-means to the first ${MAX_NEAR_HINTS} unresolved references of a plan only (each costs a scan)`, () => {
    const state = { profile: { email: "a@b" } };
    const calls = Array.from({ length: MAX_NEAR_HINTS + 3 }, () => ({
      _tool: "log",
      message: "†state.profile.emial",
    }));
    const hints = compileWith({ state }, ...calls).diagnostics.map((d) => d.hint ?? "");
    expect(hints).toHaveLength(MAX_NEAR_HINTS + 3);
    expect(hints.filter((hint) => hint.startsWith("did you mean"))).toHaveLength(MAX_NEAR_HINTS);
    expect(hints.at(-1)).toBe("the thread's state has no value there and no call of this plan writes it");
  });

  it("streaming: each arriving call has its own budget, so refused calls do not use up later ones' hints", () => {
    const compiler = createIncrementalCompiler(registry, { context: { input: { name: "n" } } });
    for (let i = 0; i < MAX_NEAR_HINTS + 5; i++) {
      const added = compiler.addCall({ _tool: "log", message: "†input.nmae" });
      expect(added.ok).toBe(false);
      if (!added.ok) expect(added.diagnostics[0]?.hint).toMatch(/^did you mean "†input\.name"\?/);
    }
  });
});
