import type { Diagnostic } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import type { CompileContext } from "./compiled-plan.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const plan = (...calls: unknown[]) => ({ type: "plan", plan: calls });
const codes = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => [d.code, d.pointer]);
const compileWith = (context: CompileContext, ...calls: unknown[]) =>
  compile(plan(...calls), registry, { context });

describe("REF_TYPE_MISMATCH through the writer's output schema at a sub-path", () => {
  const fetch = { _tool: "fetchUser", _id: "f", userId: "u1", _outputPath: "†state.user" };

  it("a number at †state.user.age into a string parameter is a mismatch, at the parameter", () => {
    const result = compile(plan(fetch, { _tool: "log", message: "†state.user.age" }), registry);
    expect(codes(result.diagnostics)).toEqual([["REF_TYPE_MISMATCH", "/plan/1/message"]]);
  });

  it("two levels down (†state.user.address.city, a string) into a number parameter is a mismatch", () => {
    const result = compile(plan(fetch, { _tool: "add", a: "†state.user.address.city", b: 1 }), registry);
    expect(codes(result.diagnostics)).toEqual([["REF_TYPE_MISMATCH", "/plan/1/a"]]);
  });

  it("a compatible sub-path and a template (always a string) into a string are fine", () => {
    const result = compile(
      plan(
        fetch,
        { _tool: "log", message: "†state.user.address.city" },
        { _tool: "log", message: "age {†state.user.age}" },
      ),
      registry,
    );
    expect(result.diagnostics).toEqual([]);
  });

  it("a template into a number parameter is a mismatch", () => {
    const result = compile(plan(fetch, { _tool: "add", a: "{†state.user.age}", b: 1 }), registry);
    expect(codes(result.diagnostics)).toEqual([["REF_TYPE_MISMATCH", "/plan/1/a"]]);
  });

  it("unknown means no diagnostic: a writer without an output schema, or a routed failure branch", () => {
    const result = compile(
      plan(
        { _tool: "now", _id: "n", _outputPath: "†state.t" },
        { _tool: "add", a: "†state.t", b: 1 },
        { _tool: "verifyUser", _id: "v", userId: "u", _outputPath: "†state.ok || †state.err" },
        { _tool: "add", a: "†state.err", b: 2 },
      ),
      registry,
    );
    expect(result.diagnostics).toEqual([]);
  });

  it("only the first alternative's type is known: a branch() value of a later one may be any JSON", () => {
    // fetchUser's output schema is an object; only its first alternative is checked against it when it runs
    const three = "†state.ok || †state.other || †state.err";
    const result = compile(
      plan(
        { _tool: "fetchUser", _id: "f", userId: "u", _outputPath: three },
        { _tool: "log", message: "†state.other" },
        { _tool: "log", message: "†state.ok" },
      ),
      registry,
    );
    expect(codes(result.diagnostics)).toEqual([["REF_TYPE_MISMATCH", "/plan/2/message"]]);
  });

  it("a fallback is a mismatch only when no alternative can fit", () => {
    const mixed = compile(
      plan(fetch, { _tool: "add", a: "†state.user.name || †state.user.age", b: 1 }),
      registry,
    );
    expect(mixed.diagnostics).toEqual([]);
    const none = compile(
      plan(fetch, { _tool: "add", a: "†state.user.name || †state.user.address.city", b: 1 }),
      registry,
    );
    expect(codes(none.diagnostics)).toEqual([["REF_TYPE_MISMATCH", "/plan/1/a"]]);
  });
});

describe("REF_TYPE_MISMATCH against the context's schemas and values", () => {
  it("the plan's inputSchema", () => {
    const result = compile(
      {
        type: "plan",
        inputSchema: { type: "object", properties: { n: { type: "string" } } },
        plan: [{ _tool: "add", a: "†input.n", b: 1 }],
      },
      registry,
    );
    expect(codes(result.diagnostics)).toEqual([["REF_TYPE_MISMATCH", "/plan/0/a"]]);
  });

  it("the given input value wins over schemas", () => {
    const ok = compileWith({ input: { n: 3 } }, { _tool: "add", a: "†input.n", b: 1 });
    expect(ok.diagnostics).toEqual([]);
    const bad = compileWith({ input: { n: "3" } }, { _tool: "add", a: "†input.n", b: 1 });
    expect(codes(bad.diagnostics)).toEqual([["REF_TYPE_MISMATCH", "/plan/0/a"]]);
  });

  it("the thread's state schema, at a nested path", () => {
    const stateSchema = {
      type: "object",
      properties: { profile: { type: "object", properties: { age: { type: "integer" } } } },
    };
    const result = compileWith({ stateSchema }, { _tool: "log", message: "†state.profile.age" });
    expect(codes(result.diagnostics)).toEqual([["REF_TYPE_MISMATCH", "/plan/0/message"]]);
    const fits = compileWith({ stateSchema }, { _tool: "add", a: "†state.profile.age", b: 1 });
    expect(fits.diagnostics).toEqual([]);
  });
});

describe("REF_UNRESOLVED uses the known context", () => {
  const read = (message: string) => ({ _tool: "log", message });

  it("a state path is resolved by the thread's state snapshot", () => {
    expect(compileWith({ state: { user: { name: "Ada" } } }, read("†state.user.name")).diagnostics).toEqual(
      [],
    );
    expect(codes(compileWith({ state: { user: {} } }, read("†state.user.name")).diagnostics)).toEqual([
      ["REF_UNRESOLVED", "/plan/0/message"],
    ]);
  });

  it("an input path is resolved by the input, or by the input schema when no input is given", () => {
    expect(compileWith({ input: { a: "x" } }, read("†input.a")).diagnostics).toEqual([]);
    expect(codes(compileWith({ input: { a: "x" } }, read("†input.b")).diagnostics)).toEqual([
      ["REF_UNRESOLVED", "/plan/0/message"],
    ]);
    const inputSchema = {
      type: "object",
      properties: { a: { type: "string" } },
      additionalProperties: false,
    };
    expect(compileWith({ inputSchema }, read("†input.a")).diagnostics).toEqual([]);
    expect(codes(compileWith({ inputSchema }, read("†input.b")).diagnostics)).toEqual([
      ["REF_UNRESOLVED", "/plan/0/message"],
    ]);
  });

  it("†calls.<id> is resolved by the thread's stored call outputs", () => {
    const callOutputs = new Set(["earlier"]);
    expect(compileWith({ callOutputs }, read("†calls.earlier")).diagnostics).toEqual([]);
    expect(codes(compileWith({ callOutputs }, read("†calls.never")).diagnostics)).toEqual([
      ["REF_UNRESOLVED", "/plan/0/message"],
    ]);
  });

  it("a call reading its own †calls.<id> needs an output stored by an earlier run (as a †state self-read)", () => {
    const self = { _tool: "log", _id: "a", message: "†calls.a" };
    const fresh = compileWith({ callOutputs: new Set() }, self);
    expect(fresh.diagnostics.map((d) => [d.code, d.severity, d.pointer])).toEqual([
      ["REF_UNRESOLVED", "error", "/plan/0/message"],
    ]);
    expect(fresh.diagnostics[0]?.hint).toContain("its own output");
    expect(compileWith({ callOutputs: new Set(["a"]) }, self).diagnostics).toEqual([]);
    // In a fallback, another operand can still resolve it; without a known thread nothing is judged.
    expect(
      compileWith(
        { callOutputs: new Set() },
        { ...self, message: "†calls.a || †calls.b" },
        { ...read("x"), _id: "b" },
      ).diagnostics,
    ).toEqual([]);
    expect(compile(plan(self), registry).diagnostics).toEqual([]);
  });

  it("paths under †state.approvals. are exempt (approval gates)", () => {
    expect(compileWith({ state: {} }, read("†state.approvals.refund")).diagnostics).toEqual([]);
    // The whole approvals object is no gate: unresolved like any other missing path (as at run time).
    expect(compileWith({ state: {} }, read("†state.approvals")).diagnostics.map((d) => d.code)).toEqual([
      "REF_UNRESOLVED",
    ]);
  });

  it("†calls.<id> of a call that has an _outputPath is unresolved, with a hint naming its path", () => {
    const result = compileWith(
      { state: {} },
      { _tool: "greetUser", _id: "g", userName: "Ada", _outputPath: "†state.greeting" },
      read("†calls.g"),
    );
    expect(codes(result.diagnostics)).toEqual([["REF_UNRESOLVED", "/plan/1/message"]]);
    expect(result.diagnostics[0]?.hint).toContain("†state.greeting");
  });

  it("in a fallback too: the next alternative would hide the wrong name behind its default", () => {
    const fetch = { _tool: "greetUser", _id: "g", userName: "Ada", _outputPath: "†state.greeting" };
    for (const message of [
      "†calls.g || †input.name",
      "Hi {†input.name || †calls.g}",
      "†state.x || †calls.g.text",
    ]) {
      const result = compileWith({ state: { x: "s" }, input: { name: "x" } }, fetch, read(message));
      expect(codes(result.diagnostics)).toEqual([["REF_UNRESOLVED", "/plan/1/message"]]);
      expect(result.diagnostics[0]?.hint).toContain('call "g" has an _outputPath: read †state.greeting');
    }
    // an earlier run's call, known by what it wrote
    const writtenBy = (id: string) => (id === "old" ? ["†state.old"] : []);
    const earlier = compileWith(
      { state: {}, input: { n: "one" }, callOutputs: new Set(), writtenBy },
      read("†calls.old || †input.n"),
    );
    expect(codes(earlier.diagnostics)).toEqual([["REF_UNRESOLVED", "/plan/0/message"]]);
    // streaming: refused when added, once the call it names is known (as batch refuses the plan)
    const stream = createIncrementalCompiler(registry, { context: { state: {}, input: { name: "x" } } });
    expect(stream.addCall(fetch).ok).toBe(true);
    const added = stream.addCall(read("Hi {†calls.g || †input.name}"));
    expect(codes(added.diagnostics)).toEqual([["REF_UNRESOLVED", "/plan/1/message"]]);
    expect(added.ok).toBe(false);
    // a †calls.<id> of a call without an _outputPath, or one the thread does not know, stays a plain fallback
    const plain = compileWith(
      { state: {}, input: { n: "one" }, callOutputs: new Set() },
      read("†calls.nobody || †input.n"),
    );
    expect(plain.diagnostics).toEqual([]);
  });

  it("†calls whole names no value: unresolved, whatever calls of the plan or the thread hold", () => {
    const unnamed = { _tool: "greetUser", _id: "b", userName: "Ada" };
    for (const message of ["†calls", "†calls || †input.n", "{†calls}"]) {
      const result = compileWith(
        { state: {}, input: { n: "x" }, callOutputs: new Set(["c1"]) },
        unnamed,
        read(message),
      );
      expect(codes(result.diagnostics)).toEqual([["REF_UNRESOLVED", "/plan/1/message"]]);
      expect(result.diagnostics[0]?.hint).toContain("read †calls.<id>");
    }
  });

  describe("†calls.<id> of an earlier run's call that had an _outputPath (context.writtenBy)", () => {
    const writtenBy = (id: string) => (id === "g" ? ["†state.greeting", "†state.copy"] : []);

    it("is unresolved with a hint naming what it wrote, not a did-you-mean", () => {
      const result = compileWith({ state: {}, callOutputs: new Set(), writtenBy }, read("†calls.g"));
      expect(codes(result.diagnostics)).toEqual([["REF_UNRESOLVED", "/plan/0/message"]]);
      expect(result.diagnostics[0]?.hint).toBe(
        'call "g" of an earlier run has an _outputPath: read †state.greeting or †state.copy instead',
      );
    });

    it("keeps the path below the call's output, and caps the list", () => {
      const many = () => ["†state.a", "†state.b", "†state.c", "†state.d", "†state.e"];
      const result = compileWith(
        { state: {}, callOutputs: new Set(), writtenBy: many },
        read("{†calls.g.user[0]}"),
      );
      expect(result.diagnostics[0]?.hint).toBe(
        'call "g" of an earlier run has an _outputPath: read †state.a.user[0] or †state.b.user[0] or †state.c.user[0] (and 2 more) instead',
      );
    });

    it("an id the host knows nothing of, or a host that throws, keeps the general hint", () => {
      for (const known of [
        writtenBy,
        () => undefined,
        () => [],
        () => {
          throw new Error("store");
        },
      ]) {
        const result = compileWith(
          { state: {}, callOutputs: new Set(), writtenBy: known },
          read("†calls.zzz"),
        );
        expect(codes(result.diagnostics)).toEqual([["REF_UNRESOLVED", "/plan/0/message"]]);
        expect(result.diagnostics[0]?.hint).toContain("no call of this plan has that id");
      }
    });
  });
});

describe("cycles", () => {
  it("a cycle through a fan-out target is reported with its path", () => {
    const result = compile(
      plan(
        { _tool: "log", _id: "a", message: "†state.fromB", _outputPath: "†state.x && †state.fromA" },
        { _tool: "log", _id: "b", message: "†state.fromA", _outputPath: "†state.y && †state.fromB" },
      ),
      registry,
    );
    expect(codes(result.diagnostics)).toEqual([["CYCLE", "/plan/0"]]);
    expect(result.diagnostics[0]?.hint).toMatch(
      /^a → b → a: b reads †state\.fromA \(written by a\); a reads †state\.fromB/,
    );
  });

  it("a three-call cycle through a conditional edge names every call in order", () => {
    const result = compile(
      plan(
        { _tool: "verifyUser", _id: "a", userId: "†state.c", _outputPath: "†state.ok || †state.err" },
        { _tool: "log", _id: "b", message: "ok: {†state.ok}", _outputPath: "†state.b" },
        { _tool: "log", _id: "c", message: "†state.b", _outputPath: "†state.c" },
      ),
      registry,
    );
    expect(codes(result.diagnostics)).toEqual([["CYCLE", "/plan/0"]]);
    expect(result.diagnostics[0]?.hint).toBe(
      "a → b → c → a: b reads †state.ok (written by a); c reads †state.b (written by b); a reads †state.c (written by c). Remove one of these reads, or have one of the calls write another path",
    );
  });

  it("a call reading the path it writes reads the value from before the run: no cycle", () => {
    const result = compileWith(
      { state: { n: "x" } },
      { _tool: "log", _id: "a", message: "†state.n", _outputPath: "†state.n" },
    );
    expect(result.diagnostics).toEqual([]);
  });
});

describe("conditional edges", () => {
  it("an edge from an alternative is conditional; from a fan-out target it is not", () => {
    const result = compile(
      plan(
        { _tool: "verifyUser", _id: "v", userId: "u", _outputPath: "†state.ok || †state.err" },
        { _tool: "log", _id: "s", message: "done", _outputPath: "†state.a && †state.b" },
        { _tool: "log", _id: "r1", message: "†state.err" },
        { _tool: "log", _id: "r2", message: "†state.b" },
      ),
      registry,
    );
    expect(result.ok).toBe(true);
    const edge = (from: string, to: string) => result.graph.getEdgeAttributes(from, to);
    expect(edge("v", "r1")).toMatchObject({ alternatives: [1], conditional: true });
    expect(edge("s", "r2")).toMatchObject({ alternatives: [0], conditional: false });
  });
});
