import { type Diagnostic, type JsonObject, resolvePointer } from "@obelisk/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exampleTools } from "./__fixtures__/tools.js";
import { compile } from "./compile.js";
import { graphToJson } from "./graph-to-json.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);

describe("incremental compiler", () => {
  it("wires a later writer to an earlier reader", () => {
    const compiler = createIncrementalCompiler(registry);
    expect(compiler.addCall({ _tool: "log", _id: "reader", message: "†state.x" }).ok).toBe(true);
    compiler.addCall({ _tool: "log", _id: "writer", message: "hi", _outputPath: "†state.x" });
    expect(compiler.calls[0]?.writers.get("†state.x")).toEqual([
      { callId: "writer", position: 1, alternatives: [0], conditional: false },
    ]);
    expect(compiler.graph.hasEdge("writer", "reader")).toBe(true);
  });

  it("refuses a call holding a value that is not JSON, and still closes with a hash", () => {
    const compiler = createIncrementalCompiler(registry);
    const bigint = compiler.addCall({ _tool: "log", _id: "a", message: 1n });
    expect(bigint.ok).toBe(false);
    expect(bigint.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["JSON_SYNTAX", "/plan/0/message"]]);
    const date = compiler.addCall({ _tool: "log", _id: "b", message: new Date(0) });
    expect(date.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["JSON_SYNTAX", "/plan/1/message"]]);
    expect(compiler.addCall({ _tool: "log", _id: "c", message: "fine" }).ok).toBe(true);
    const closed = compiler.close();
    expect(closed.planHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(closed.calls.map((call) => call.id)).toEqual(["c"]);
  });

  it("refuses a call that would close a cycle", () => {
    const compiler = createIncrementalCompiler(registry);
    compiler.addCall({ _tool: "log", _id: "a", message: "†state.b", _outputPath: "†state.a" });
    const refused = compiler.addCall({
      _tool: "log",
      _id: "b",
      message: "†state.a",
      _outputPath: "†state.b",
    });
    expect(refused.ok).toBe(false);
    expect(refused.diagnostics.map((d) => [d.code, d.pointer, d.hint])).toEqual([
      [
        "CYCLE",
        "/plan/1",
        "b → a → b: a reads †state.b (written by b); b reads †state.a (written by a). Remove one of these reads, or have one of the calls write another path",
      ],
    ]);
    expect(compiler.graph.hasNode("b")).toBe(false);
  });

  it("reports references still unresolved at close", () => {
    const compiler = createIncrementalCompiler(registry, { context: { callOutputs: new Set() } });
    compiler.addCall({ _tool: "log", message: "†calls.later" });
    const closed = compiler.close();
    expect(closed.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ["REF_UNRESOLVED", "/plan/0/message"],
    ]);
  });
});

describe("a refused call leaves nothing behind (streaming)", () => {
  const codes = (diagnostics: readonly { code: string; pointer: string }[]) =>
    diagnostics.map((d) => [d.code, d.pointer]);
  const writersOf = (compiler: ReturnType<typeof createIncrementalCompiler>, id: string, text: string) =>
    compiler.calls.find((call) => call.id === id)?.writers.get(text) ?? [];

  it("a call refused for PARAM_INVALID is no writer: a later reader has none and is REF_UNRESOLVED at close", () => {
    const compiler = createIncrementalCompiler(registry, { context: { state: {} } });
    const refused = compiler.addCall({ _tool: "log", _id: "w", message: 5, _outputPath: "†state.w" });
    expect(refused.ok).toBe(false);
    expect(refused.call).toBeUndefined();
    expect(
      compiler.addCall({ _tool: "log", _id: "r", message: "†state.w", _outputPath: "†state.r" }).ok,
    ).toBe(true);
    expect(compiler.calls.map((call) => call.id)).toEqual(["r"]);
    expect(writersOf(compiler, "r", "†state.w")).toEqual([]);
    expect(compiler.graph.hasNode("w")).toBe(false);
    expect(codes(compiler.close().diagnostics)).toEqual([
      ["PARAM_INVALID", "/plan/0/message"],
      ["REF_UNRESOLVED", "/plan/1/message"],
    ]);
  });

  it("its _id stays free: the corrected call, sent again with the same id, is accepted and wired", () => {
    const compiler = createIncrementalCompiler(registry, { context: { state: {} } });
    compiler.addCall({ _tool: "log", _id: "w", message: 5, _outputPath: "†state.w" });
    compiler.addCall({ _tool: "log", _id: "r", message: "†state.w", _outputPath: "†state.r" });
    const again = compiler.addCall({ _tool: "log", _id: "w", message: "five", _outputPath: "†state.w" });
    expect(again.ok).toBe(true);
    expect(again.diagnostics).toEqual([]);
    expect(writersOf(compiler, "r", "†state.w")).toEqual([
      { callId: "w", position: 1, alternatives: [0], conditional: false },
    ]);
    expect(codes(compiler.close().diagnostics)).toEqual([["PARAM_INVALID", "/plan/0/message"]]);
  });

  it("a target under †state.approvals (OUTPUT_PATH_READONLY) does not become the gate's writer", () => {
    const compiler = createIncrementalCompiler(registry);
    const refused = compiler.addCall({
      _tool: "approve",
      _id: "a",
      _output: { approved: true },
      _outputPath: "†state.approvals.pay",
    });
    expect(codes(refused.diagnostics)).toEqual([["OUTPUT_PATH_READONLY", "/plan/0/_outputPath"]]);
    compiler.addCall({ _tool: "log", _id: "pay", message: "†state.approvals.pay" });
    expect(compiler.calls.map((call) => call.id)).toEqual(["pay"]);
    expect(writersOf(compiler, "pay", "†state.approvals.pay")).toEqual([]);
  });

  it("a call refused for OUTPUT_CONFLICT is no writer; the first writer stays the only one", () => {
    const compiler = createIncrementalCompiler(registry);
    compiler.addCall({ _tool: "log", _id: "a", message: "1", _outputPath: "†state.x" });
    const conflict = compiler.addCall({ _tool: "log", _id: "b", message: "2", _outputPath: "†state.x" });
    expect(codes(conflict.diagnostics)).toEqual([["OUTPUT_CONFLICT", "/plan/1/_outputPath"]]);
    expect(conflict.call).toBeUndefined();
    compiler.addCall({ _tool: "log", _id: "c", message: "†state.x" });
    expect(writersOf(compiler, "c", "†state.x")).toEqual([
      { callId: "a", position: 0, alternatives: [0], conditional: false },
    ]);
    // and it is not a writer the next one conflicts with
    const next = compiler.addCall({ _tool: "log", _id: "d", message: "3", _outputPath: "†state.y" });
    expect(next.ok).toBe(true);
  });

  it("a call refused for a cycle leaves its id free too", () => {
    const compiler = createIncrementalCompiler(registry);
    compiler.addCall({ _tool: "log", _id: "a", message: "†state.b", _outputPath: "†state.a" });
    expect(
      compiler.addCall({ _tool: "log", _id: "b", message: "†state.a", _outputPath: "†state.b" }).ok,
    ).toBe(false);
    const again = compiler.addCall({ _tool: "log", _id: "b", message: "seed", _outputPath: "†state.b" });
    expect(again.ok).toBe(true);
    // its position among the accepted calls, not its plan index (2): the refused one took none
    expect(writersOf(compiler, "a", "†state.b")).toEqual([
      { callId: "b", position: 1, alternatives: [0], conditional: false },
    ]);
  });

  it("a call with an unknown tool is refused without a trace: its id is free, its targets written by nobody", () => {
    const compiler = createIncrementalCompiler(registry, { context: { state: {} } });
    compiler.addCall({ _tool: "nope", _id: "n", _outputPath: "†state.n" });
    compiler.addCall({ _tool: "log", _id: "r", message: "†state.n" });
    expect(compiler.addCall({ _tool: "log", _id: "n", message: "m", _outputPath: "†state.m" }).ok).toBe(true);
    expect(codes(compiler.close().diagnostics)).toEqual([
      ["TOOL_UNKNOWN", "/plan/0/_tool"],
      ["REF_UNRESOLVED", "/plan/1/message"],
    ]);
  });

  it("batch compile keeps an invalid call as a writer (no cascade of REF_UNRESOLVED) and its id as used", () => {
    const batch = compile(
      [
        { _tool: "log", _id: "w", message: 5, _outputPath: "†state.w" },
        { _tool: "log", _id: "r", message: "†state.w" },
        { _tool: "log", _id: "w", message: "five", _outputPath: "†state.v" },
      ],
      registry,
      { context: { state: {} } },
    );
    expect(codes(batch.diagnostics)).toEqual([
      ["PARAM_INVALID", "/0/message"],
      ["CALL_ID_DUPLICATE", "/2/_id"],
    ]);
  });
});

const callArb = (size: number) =>
  fc.record({
    target: fc.integer({ min: 0, max: size }),
    reads: fc.array(fc.integer({ min: 0, max: size }), { maxLength: 3 }),
    alternatives: fc.integer({ min: 1, max: 2 }),
  });

describe("batch and incremental agree (acyclic plans)", () => {
  it("same graph and diagnostics", () => {
    fc.assert(
      fc.property(
        fc.array(callArb(6), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 1000 }),
        (specs, seed) => {
          const rank = specs.map((_, i) => (i * 7919 + seed) % specs.length);
          const calls = specs.map((spec, i) => {
            const readable = specs
              .map((_, j) => j)
              .filter((j) => rank[j] !== undefined && (rank[j] as number) < (rank[i] as number));
            const reads = spec.reads.flatMap((r) =>
              readable.length === 0 ? [] : [readable[r % readable.length] as number],
            );
            const targets = Array.from({ length: spec.alternatives }, (_, k) => `†state.c${i}.out${k}`).join(
              " || ",
            );
            const message = reads.length === 0 ? "x" : reads.map((r) => `{†state.c${r}.out0}`).join("-");
            return { _tool: "log", _id: `c${i}`, message, _outputPath: targets };
          });
          const batch = compile({ type: "plan", plan: calls }, registry);
          const incremental = createIncrementalCompiler(registry);
          for (const call of calls) incremental.addCall(call);
          const closed = incremental.close();
          expect(graphToJson(closed)).toEqual(graphToJson(batch));
          expect(closed.diagnostics).toEqual(batch.diagnostics);
          expect(closed.planHash).toBe(batch.planHash);
        },
      ),
      { numRuns: 100 },
    );
  });
});

/**
 * Plans of typed calls (`add`: numbers → number, `log`: string → string) reading earlier calls' outputs
 * (through `†state` or `†calls`), the input and the thread's state, against contexts that know the input
 * (or only its schema) and the state (with or without a state schema). Plan order is writer before reader.
 */
const typedReadArb = fc.constantFrom(
  "literal",
  "earlier",
  "earlierOtherKind",
  "†input.n",
  "†input.s",
  "†input.missing",
  "†state.count",
  "†state.name",
  "†state.free",
  "†state.nobody",
  "†calls.nobody",
);
type TypedRead = typeof typedReadArb extends fc.Arbitrary<infer T> ? T : never;
const typedCallArb = fc.record({
  tool: fc.constantFrom("add", "log"),
  toState: fc.boolean(),
  read: typedReadArb,
  earlier: fc.nat(),
});
const typedContextArb = fc.record({
  inputKnown: fc.boolean(),
  stateSchema: fc.boolean(),
  stored: fc.boolean(),
});
const inputSchema = {
  type: "object",
  properties: { n: { type: "number" }, s: { type: "string" } },
} as const;

function typedPlan(specs: readonly { tool: string; toState: boolean; read: TypedRead; earlier: number }[]) {
  return specs.map((spec, i) => {
    const param = spec.tool === "add" ? "a" : "message";
    let value: string | number = spec.tool === "add" ? 1 : "x";
    if (spec.read === "earlier" || spec.read === "earlierOtherKind") {
      if (i > 0) {
        const j = spec.earlier % i;
        const toState = (specs[j]?.toState ?? false) !== (spec.read === "earlierOtherKind");
        value = toState ? `†state.c${j}` : `†calls.c${j}`;
      }
    } else if (spec.read !== "literal") value = spec.read;
    return {
      _tool: spec.tool,
      _id: `c${i}`,
      [param]: value,
      ...(spec.tool === "add" ? { b: 2 } : {}),
      ...(spec.toState ? { _outputPath: `†state.c${i}` } : {}),
    };
  });
}

function typedOptions(context: { inputKnown: boolean; stateSchema: boolean; stored: boolean }) {
  return {
    inputSchema: inputSchema as unknown as JsonObject,
    context: {
      ...(context.inputKnown ? { input: { n: 1, s: "s" } } : {}),
      state: context.stored ? { count: 3, name: "n", free: 4 } : {},
      callOutputs: new Set<string>(),
      ...(context.stateSchema
        ? {
            stateSchema: {
              type: "object",
              properties: { count: { type: "integer" }, name: { type: "string" } },
            } as JsonObject,
          }
        : {}),
    },
  };
}

/** A typed plan (1–8 calls) and the context it is compiled against. */
const typedCaseArb = fc
  .tuple(fc.array(typedCallArb, { minLength: 1, maxLength: 8 }), typedContextArb)
  .map(([specs, context]) => ({ calls: typedPlan(specs), context }));

/** The options of a typed context, and an incremental compiler made with them. */
function typedIncremental(context: Parameters<typeof typedOptions>[0]) {
  const { inputSchema: schema, context: compileContext } = typedOptions(context);
  const incremental = createIncrementalCompiler(registry, { inputSchema: schema, context: compileContext });
  return { schema, compileContext, incremental };
}

/** REF_UNRESOLVED of a path a later call may still write (†state, †calls): `add` leaves it to `close`. */
const deferred = (call: Record<string, unknown>, diagnostic: Diagnostic) =>
  diagnostic.code === "REF_UNRESOLVED" &&
  /^†(state|calls)\./.test(String(call[diagnostic.pointer.split("/")[3] ?? ""]));
const sortedCodes = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((d) => `${d.code} ${d.pointer}`).sort();

describe("batch and incremental agree on what each call reads (types, input, state)", () => {
  it("each add answers what batch compile says of that call after the calls accepted before it", () => {
    fc.assert(
      fc.property(typedCaseArb, ({ calls, context }) => {
        const { schema, compileContext, incremental } = typedIncremental(context);
        const accepted: (typeof calls)[number][] = [];
        for (const [i, call] of calls.entries()) {
          const added = incremental.addCall(call);
          const plan = { type: "plan", plan: [...accepted, call], inputSchema: schema };
          const prefix = compile(plan, registry, { context: compileContext });
          const own = `/plan/${accepted.length}`;
          const expected = prefix.diagnostics
            .filter((d) => d.pointer === own || d.pointer.startsWith(`${own}/`))
            .filter((d) => d.code !== "UNREACHABLE" && !deferred(call, d))
            .map((d) => ({ ...d, pointer: `/plan/${i}${d.pointer.slice(own.length)}` }));
          expect(sortedCodes(added.diagnostics)).toEqual(sortedCodes(expected));
          expect(added.ok).toBe(!expected.some((d) => d.severity === "error"));
          if (added.ok) accepted.push(call);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("when every call is accepted, close gives batch compile's graph, diagnostics and hash", () => {
    fc.assert(
      fc.property(typedCaseArb, ({ calls, context }) => {
        const { schema, compileContext, incremental } = typedIncremental(context);
        const accepted = calls.map((call) => incremental.addCall(call).ok);
        fc.pre(accepted.every(Boolean));
        const closed = incremental.close();
        const batch = compile({ type: "plan", plan: calls, inputSchema: schema }, registry, {
          context: compileContext,
        });
        expect(graphToJson(closed)).toEqual(graphToJson(batch));
        expect(closed.diagnostics).toEqual(batch.diagnostics);
        expect(closed.planHash).toBe(batch.planHash);
      }),
      { numRuns: 300 },
    );
  });
});

describe("compile never throws", () => {
  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      fc.constantFrom(
        "†state.x",
        "†input.a || †state.b",
        "{†state.q}",
        "†",
        "††x",
        "†calls.c0",
        "†state.__proto__",
        null,
        1,
        true,
      ),
      fc.string(),
      fc.array(tie("value"), { maxLength: 3 }),
      fc.dictionary(
        fc.constantFrom("_tool", "_id", "_outputPath", "_outputMethod", "_output", "_x", "message", "a", "b"),
        tie("value"),
        { maxKeys: 4 },
      ),
    ),
  }));
  const call = fc.record({
    _tool: fc.constantFrom("log", "add", "verifyUser", "approve", "nope", 3),
    _outputPath: fc.constantFrom("†state.x", "†state.x.y || †state.z", "†input.a", "bad", undefined),
    message: json.value,
    a: json.value,
  });
  it("returns diagnostics whose pointers resolve", () => {
    fc.assert(
      fc.property(fc.oneof(fc.array(fc.oneof(call, json.value), { maxLength: 6 }), json.value), (plan) => {
        const result = compile(plan, registry);
        for (const diagnostic of result.diagnostics) {
          expect(resolvePointer(result.document?.source ?? plan, diagnostic.pointer).found).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("survives arbitrary text", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(() => compile(text, registry)).not.toThrow();
      }),
    );
  });
});
