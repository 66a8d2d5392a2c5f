import type { Diagnostic, JsonObject } from "@obelisk/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { createToolRegistry } from "./tool-registry.js";

const empty = { type: "object", properties: {} };
const registry = createToolRegistry([
  { name: "strOut", input: empty, output: { type: "string" }, run: () => "s" },
  { name: "intOut", input: empty, output: { type: "integer" }, run: () => 1 },
  { name: "anyOut", input: empty, run: () => 1 },
  { name: "objOut", input: empty, output: { type: "object" }, run: () => ({}) },
  { name: "strList", input: empty, output: { type: "array", items: { type: "string" } }, run: () => [] },
  { name: "latent", input: empty },
]);

const stateSchema: JsonObject = {
  type: "object",
  properties: {
    count: { type: "integer" },
    ratio: { type: "number" },
    user: {
      type: "object",
      properties: {
        name: { type: "string" },
        age: { type: "integer" },
        address: { $ref: "#/$defs/address" },
      },
    },
    tags: { type: "array", items: { type: "integer" } },
    profile: { type: "object" },
    free: {},
  },
  $defs: { address: { type: "object", properties: { city: { type: "string" } } } },
};

const plan = (...calls: unknown[]) => ({ type: "plan", plan: calls });
const codes = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => [d.code, d.pointer]);
/** Diagnostics of a plan whose calls are independent cases (several write one path: conflicts left out). */
const check = (...calls: unknown[]) =>
  codes(
    compile(plan(...calls), registry, { context: { stateSchema } }).diagnostics.filter(
      (d) => d.code !== "OUTPUT_CONFLICT",
    ),
  );
const MISMATCH = (index: number) => ["REF_TYPE_MISMATCH", `/plan/${index}/_outputPath`];

describe("writes into †state are checked against the state schema (SPEC §5)", () => {
  it("a string tool output into an integer path is a mismatch, at /_outputPath", () => {
    expect(check({ _tool: "strOut", _outputPath: "†state.count" })).toEqual([MISMATCH(0)]);
    const [diagnostic] = compile(plan({ _tool: "strOut", _outputPath: "†state.count" }), registry, {
      context: { stateSchema },
    }).diagnostics;
    expect(diagnostic).toMatchObject({ severity: "error", callId: "strOut$1" });
  });

  it("nothing without a state schema", () => {
    const compiled = compile(plan({ _tool: "strOut", _outputPath: "†state.count" }), registry);
    expect(compiled.diagnostics).toEqual([]);
  });

  it("integer into number, and a matching type, are fine", () => {
    expect(
      check(
        { _tool: "intOut", _outputPath: "†state.ratio" },
        { _tool: "intOut", _outputPath: "†state.count" },
      ),
    ).toEqual([]);
  });

  it("unknown means no diagnostic: no output schema, a path the schema does not describe, an untyped path", () => {
    expect(
      check(
        { _tool: "anyOut", _outputPath: "†state.count" },
        { _tool: "strOut", _outputPath: "†state.other" },
        { _tool: "strOut", _outputPath: "†state.user.nickname" },
        { _tool: "strOut", _outputPath: "†state.free" },
        { _tool: "strOut", _outputPath: "†state.free.below" },
        { _tool: "strOut", _outputPath: "†state.profile.below" },
        { _tool: "anyOut", _outputPath: "†state.tags.0" },
      ),
    ).toEqual([]);
  });

  it("a write below a value the schema types as a scalar is a mismatch, whatever the value and method (review 4 M3)", () => {
    const scalars: JsonObject = {
      type: "object",
      properties: {
        count: { type: "integer" },
        maybe: { type: ["string", "null"] },
        level: { enum: ["low", "high"] },
        either: { anyOf: [{ type: "integer" }, { type: "boolean" }] },
        nullable: { type: ["object", "null"], properties: { n: { type: "integer" } } },
        user: { type: "object", properties: { age: { type: "integer" } } },
      },
    };
    const compiled = compile(
      plan(
        { _tool: "strOut", _outputPath: "†state.count.x" },
        { _tool: "anyOut", _outputPath: "†state.count.x.y", _outputMethod: "merge" },
        { _tool: "latent", _output: 1, _outputPath: "†state.maybe[0]" },
        { _tool: "anyOut", _outputPath: "†state.level.x", _outputMethod: "push" },
        { _tool: "anyOut", _outputPath: "†state.either.x" },
        { _tool: "anyOut", _outputPath: "†state.ok || †state.user.age.years" },
        { _tool: "anyOut", _outputPath: "†state.nullable.n" },
        { _tool: "anyOut", _outputPath: "†state.nullable.n.deeper" },
      ),
      registry,
      { context: { stateSchema: scalars } },
    );
    const found = compiled.diagnostics.filter((d) => d.code !== "OUTPUT_CONFLICT");
    expect(codes(found)).toEqual([
      MISMATCH(0),
      MISMATCH(1),
      MISMATCH(2),
      MISMATCH(3),
      MISMATCH(4),
      MISMATCH(5),
      MISMATCH(7),
    ]);
    // the message names the scalar the write is below
    expect(found[0]?.message).toContain("†state.count,");
    expect(found[6]?.message).toContain("†state.nullable.n,");
  });

  it("nested sub-paths, through a local $ref", () => {
    expect(
      check(
        { _tool: "strOut", _outputPath: "†state.user.age" },
        { _tool: "strOut", _outputPath: "†state.user.address.city" },
        { _tool: "intOut", _outputPath: "†state.user.address.city" },
        { _tool: "strOut", _outputPath: "†state.user.address" },
      ),
    ).toEqual([MISMATCH(0), MISMATCH(2), MISMATCH(3)]);
  });

  it("every && target is checked, each its own diagnostic; other kinds are not", () => {
    const compiled = compile(
      plan({ _tool: "strOut", _outputPath: "†state.count && †state.user.name && †state.ratio" }),
      registry,
      { context: { stateSchema } },
    );
    expect(codes(compiled.diagnostics)).toEqual([MISMATCH(0), MISMATCH(0)]);
    expect(check({ _tool: "strOut", _outputPath: "†state.user.name && †calls.x" })).toEqual([
      ["OUTPUT_PATH_READONLY", "/plan/0/_outputPath"],
    ]);
  });

  it("push appends an item: checked against the array's items, and makes an array", () => {
    expect(
      check(
        { _tool: "intOut", _outputPath: "†state.tags", _outputMethod: "push" },
        { _tool: "strOut", _outputPath: "†state.tags", _outputMethod: "push" },
        { _tool: "anyOut", _outputPath: "†state.count", _outputMethod: "push" },
        { _tool: "intOut", _outputPath: "†state.tags", _outputMethod: "set" },
        { _tool: "anyOut", _outputPath: "†state.tags", _outputMethod: "push" },
      ),
    ).toEqual([MISMATCH(1), MISMATCH(2), MISMATCH(3)]);
  });

  it("concat: a tool's array may be empty (items unknown), but the path must take an array (and the value be one)", () => {
    expect(
      check(
        { _tool: "strList", _outputPath: "†state.tags", _outputMethod: "concat" },
        { _tool: "strList", _outputPath: "†state.count", _outputMethod: "concat" },
        { _tool: "strOut", _outputPath: "†state.count", _outputMethod: "concat" },
      ),
    ).toEqual([MISMATCH(1), MISMATCH(2)]);
  });

  it("merge leaves the value or an object; assign leaves an object", () => {
    expect(
      check(
        { _tool: "objOut", _outputPath: "†state.profile", _outputMethod: "merge" },
        { _tool: "strOut", _outputPath: "†state.count", _outputMethod: "merge" },
        { _tool: "objOut", _outputPath: "†state.count", _outputMethod: "assign" },
        { _tool: "objOut", _outputPath: "†state.profile", _outputMethod: "assign" },
        { _tool: "anyOut", _outputPath: "†state.count", _outputMethod: "merge" },
      ),
    ).toEqual([MISMATCH(1), MISMATCH(2)]);
  });

  it("only the first || alternative has a known value (not branch() values or the error object); push still makes an array", () => {
    expect(
      check(
        { _tool: "strOut", _outputPath: "†state.user.name || †state.count" },
        { _tool: "strOut", _outputPath: "†state.user.name || †state.count || †state.ratio" },
        { _tool: "strOut", _outputPath: "†state.count || †state.user.name" },
        { _tool: "anyOut", _outputPath: "†state.tags || †state.count", _outputMethod: "push" },
      ),
    ).toEqual([MISMATCH(2), MISMATCH(3)]);
  });

  it("a latent call's _output is the value: its literal type, and each item for concat", () => {
    expect(
      check(
        { _tool: "latent", _output: "ten", _outputPath: "†state.count" },
        { _tool: "latent", _output: 10, _outputPath: "†state.count && †state.ratio" },
        { _tool: "latent", _output: [1, "x"], _outputPath: "†state.tags", _outputMethod: "concat" },
        { _tool: "latent", _output: [1, 2], _outputPath: "†state.tags", _outputMethod: "concat" },
        { _tool: "latent", _output: { a: 1 }, _outputPath: "†state.tags", _outputMethod: "push" },
        { _tool: "latent", _outputPath: "†state.count" },
      ),
    ).toEqual([MISMATCH(0), MISMATCH(2), MISMATCH(4), ["LATENT_WITHOUT_OUTPUT", "/plan/5"]]);
  });

  it("an invalid _outputMethod says nothing about the write; a call that is not compiled is still checked", () => {
    expect(
      check(
        { _tool: "strOut", _outputPath: "†state.count", _outputMethod: "replace" },
        { _tool: "strOut", _id: "a", _outputPath: "†state.x" },
        { _tool: "strOut", _id: "a", _outputPath: "†state.count" },
      ),
    ).toEqual([
      ["OUTPUT_METHOD_INVALID", "/plan/0/_outputMethod"],
      ["CALL_ID_DUPLICATE", "/plan/2/_id"],
      MISMATCH(2),
    ]);
  });

  it("streaming addCall reports it with the call", () => {
    const compiler = createIncrementalCompiler(registry, { context: { stateSchema } });
    const added = compiler.addCall({ _tool: "strOut", _outputPath: "†state.count" });
    expect(added.ok).toBe(false);
    expect(codes(added.diagnostics)).toEqual([MISMATCH(0)]);
    expect(codes(compiler.close().diagnostics)).toEqual([MISMATCH(0)]);
  });
});

describe("batch and incremental agree on state-schema writes", () => {
  const tools = ["strOut", "intOut", "anyOut", "objOut", "strList", "latent"] as const;
  const paths = ["count", "ratio", "user.name", "user.age", "user.address", "tags", "profile", "free", "x"];
  const methods = ["set", "merge", "assign", "push", "concat"] as const;
  const callArb = fc.record({
    tool: fc.constantFrom(...tools),
    targets: fc.array(fc.array(fc.constantFrom(...paths), { minLength: 1, maxLength: 2 }), {
      minLength: 1,
      maxLength: 3,
    }),
    method: fc.constantFrom(...methods),
    output: fc.constantFrom<unknown>(undefined, 1, 1.5, "s", [1], ["s", 2], { a: 1 }, null),
  });

  it("same diagnostics (a call refused while streaming is no writer: only conflicts with it differ)", () => {
    fc.assert(
      fc.property(fc.array(callArb, { minLength: 1, maxLength: 10 }), (specs) => {
        const calls = specs.map((spec, i) => ({
          _tool: spec.tool,
          _id: `c${i}`,
          _outputPath: spec.targets
            .map((targets) => targets.map((path) => `†state.${path}`).join(" && "))
            .join(" || "),
          _outputMethod: spec.method,
          ...(spec.tool === "latent" && spec.output !== undefined ? { _output: spec.output } : {}),
        }));
        const batch = compile(plan(...calls), registry, { context: { stateSchema } });
        const incremental = createIncrementalCompiler(registry, { context: { stateSchema } });
        const added = calls.map((call) => incremental.addCall(call));
        const streamed = incremental.close().diagnostics;
        if (added.every((result) => result.ok)) expect(streamed).toEqual(batch.diagnostics);
        const perCall = (diagnostics: readonly Diagnostic[]) =>
          diagnostics.filter((diagnostic) => diagnostic.code !== "OUTPUT_CONFLICT");
        expect(perCall(streamed)).toEqual(perCall(batch.diagnostics));
      }),
      { numRuns: 100 },
    );
  });
});
