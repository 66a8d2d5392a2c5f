import { type JsonObject, type JsonValue, ObeliskError } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { InputChecker } from "./check-input.js";
import { normalizeInput } from "./normalize-input.js";

const codes = (checker: InputChecker, schema: JsonObject, input: JsonValue = { name: "Ada" }) =>
  checker.check(normalizeInput(input), schema).map((d) => [d.code, d.pointer]);

describe("InputChecker: a plan's inputSchema that is not usable gives PLAN_SHAPE under /inputSchema (B9)", () => {
  it.each<[string, JsonObject, string]>([
    ["a wrong keyword type", { type: 5 }, "/inputSchema/type"],
    [
      "an invalid pattern",
      { properties: { name: { pattern: "([" } } },
      "/inputSchema/properties/name/pattern",
    ],
    [
      "a lookahead (not linear-time)",
      { properties: { name: { pattern: "(?=a)" } } },
      "/inputSchema/properties/name/pattern",
    ],
    [
      "a backreference in patternProperties",
      { patternProperties: { "(a)\\1": {} } },
      "/inputSchema/patternProperties/(a)\\1",
    ],
    ["an unresolvable remote $ref", { $ref: "http://127.0.0.1:9/s.json" }, "/inputSchema/$ref"],
    ["a $ref to itself", { $ref: "#" }, "/inputSchema/$ref"],
    [
      "$defs referring to each other",
      { $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } }, $ref: "#/$defs/a" },
      "/inputSchema",
    ],
    ["an unknown meta-schema", { $schema: "https://example.test/meta" }, "/inputSchema/$schema"],
  ])("%s", (_label, schema, pointer) => {
    const checker = new InputChecker();
    expect(codes(checker, schema)).toEqual([["PLAN_SHAPE", pointer]]);
    expect(codes(checker, schema)).toEqual([["PLAN_SHAPE", pointer]]); // (cached: same answer)
  });

  it("an unusable schema leaves the checker usable: the next schemas compile and check", () => {
    const checker = new InputChecker();
    for (const broken of [
      { $ref: "#" },
      { $defs: { a: { $ref: "#/$defs/a" } }, $ref: "#/$defs/a" },
      { pattern: "(?=x)" },
    ])
      expect(codes(checker, broken)).toHaveLength(1);
    expect(codes(checker, { properties: { name: { pattern: "^A" } } })).toEqual([]);
    expect(codes(checker, { properties: { name: { pattern: "^B" } } })).toEqual([
      ["PARAM_INVALID", "/inputSchema/properties/name/pattern"],
    ]);
  });

  it("a schema's $id is not visible to the next plan's schema", () => {
    const checker = new InputChecker();
    expect(codes(checker, { $defs: { y: { $id: "https://example.test/b", type: "number" } } })).toEqual([]);
    expect(codes(checker, { $ref: "https://example.test/b" })).toEqual([["PLAN_SHAPE", "/inputSchema/$ref"]]);
  });
});

describe("InputChecker: PARAM_INVALID points at the failing keyword in the document (B12)", () => {
  it.each<[string, JsonObject, JsonValue, [string, string][]]>([
    [
      "maxLength",
      { properties: { name: { maxLength: 2 } } },
      { name: "Ada" },
      [["PARAM_INVALID", "/inputSchema/properties/name/maxLength"]],
    ],
    ["required", { required: ["id"] }, {}, [["PARAM_INVALID", "/inputSchema/required"]]],
    [
      "a $ref'd keyword",
      { properties: { n: { $ref: "#/$defs/n" } }, $defs: { n: { type: "integer" } } },
      { n: "x" },
      [["PARAM_INVALID", "/inputSchema/$defs/n/type"]],
    ],
    [
      "a key needing escapes",
      { properties: { "a/b~c": { type: "string" } } },
      { "a/b~c": 1 },
      [["PARAM_INVALID", "/inputSchema/properties/a~1b~0c/type"]],
    ],
  ])("%s", (_label, schema, input, expected) => {
    const checker = new InputChecker();
    const diagnostics = checker.check(normalizeInput(input), schema);
    expect(diagnostics.map((d) => [d.code, d.pointer])).toEqual(expected);
  });

  it("the input location stays in the message", () => {
    const [diagnostic] = new InputChecker().check(normalizeInput({ name: "Ada" }), {
      properties: { name: { maxLength: 2 } },
    });
    expect(diagnostic?.message).toContain("/name");
  });

  it("a pointer given for the document's schema is used as the base", () => {
    const diagnostics = new InputChecker().check(normalizeInput({}), { required: ["a"] }, { pointer: "/x" });
    expect(diagnostics.map((d) => d.pointer)).toEqual(["/x/required"]);
  });

  it("an input too deep for a recursive schema is PARAM_INVALID at the schema, not a throw", () => {
    let input: JsonObject = {};
    for (let i = 0; i < 100_000; i++) input = { c: input };
    const schema = {
      $defs: { n: { type: "object", properties: { c: { $ref: "#/$defs/n" } } } },
      $ref: "#/$defs/n",
    };
    // normalizeInput refuses an input this deep (USAGE, over 1,000 levels); the checker is held to never
    // throw on one all the same.
    expect(() => normalizeInput(input)).toThrow(expect.objectContaining({ code: "USAGE" }));
    const given = { input, message: false, given: input };
    const diagnostics = new InputChecker().check(given, schema).map((d) => [d.code, d.pointer]);
    expect(diagnostics).toEqual([["PARAM_INVALID", "/inputSchema"]]);
  });
});

describe("InputChecker: schemas outside the document (Input message, streaming option)", () => {
  it("a violation of the Input message's schema is PARAM_INVALID at the document itself", () => {
    const input = normalizeInput({
      type: "input",
      input: { n: "x" },
      schema: { properties: { n: { type: "number" } } },
    });
    expect(new InputChecker().check(input, undefined).map((d) => [d.code, d.pointer])).toEqual([
      ["PARAM_INVALID", ""],
    ]);
  });

  it.each<JsonObject>([{ $ref: "#" }, { type: 5 }, { pattern: "(a)\\1" }])(
    "an unusable Input message schema %j is the caller's error: USAGE",
    (schema) => {
      const input = normalizeInput({ type: "input", input: {}, schema });
      let thrown: unknown;
      try {
        new InputChecker().check(input, undefined);
      } catch (error) {
        thrown = error;
      }
      expect(ObeliskError.is(thrown) && thrown.code).toBe("USAGE");
    },
  );

  it('a schema given as an option: violations at "", an unusable one throws USAGE', () => {
    const checker = new InputChecker();
    const input = normalizeInput({ n: "x" });
    expect(
      checker.check(input, { properties: { n: { type: "number" } } }, "option").map((d) => d.pointer),
    ).toEqual([""]);
    expect(() => checker.check(input, { $ref: "#" }, "option")).toThrow(ObeliskError);
  });
});

describe("InputChecker: patterns run in linear time (B10)", () => {
  it("^(a+)+$ against 20,000 a's and a '!' is answered (a backtracking engine would not finish)", () => {
    const schema = { properties: { name: { pattern: "^(a+)+$" } } };
    expect(codes(new InputChecker(), schema, { name: `${"a".repeat(20_000)}!` })).toEqual([
      ["PARAM_INVALID", "/inputSchema/properties/name/pattern"],
    ]);
  });

  it.each<[string, string, boolean]>([
    ["^\\d{3}-\\w+$", "123-abc", true],
    ["^\\d{3}-\\w+$", "12-abc", false],
    ["\\u0041", "xAx", true],
    ["^(?<year>\\d{4})$", "2024", true],
    ["^[^@\\s]+@[^@\\s]+$", "a@b", true],
    ["^\\p{Lu}", "Ärger", true],
    ["b", "abc", true],
  ])("ECMA-262 pattern %s against %j: %s", (pattern, text, ok) => {
    const schema = { properties: { s: { pattern } } };
    expect(codes(new InputChecker(), schema, { s: text })).toEqual(
      ok ? [] : [["PARAM_INVALID", "/inputSchema/properties/s/pattern"]],
    );
  });

  it("patternProperties use the same engine", () => {
    const schema = { patternProperties: { "^x_": { type: "number" } } };
    expect(codes(new InputChecker(), schema, { x_a: 1, x_b: "no", y: "free" })).toEqual([
      ["PARAM_INVALID", "/inputSchema/patternProperties/^x_/type"],
    ]);
  });
});

/** `depth` levels of `anyOf: [$ref previous, $ref previous]` over a leaf the input breaks: 2^(depth-1) branches. */
function nestedAlternatives(depth: number): JsonObject {
  const defs: Record<string, JsonObject> = { d0: { type: "object", properties: { x: { type: "string" } } } };
  for (let level = 1; level < depth; level++)
    defs[`d${level}`] = { anyOf: [{ $ref: `#/$defs/d${level - 1}` }, { $ref: `#/$defs/d${level - 1}` }] };
  return { $defs: defs, $ref: `#/$defs/d${depth - 1}` };
}

describe("InputChecker: a check is bounded by the sizes of the schema and the input (review s35 H1, L4)", () => {
  const strings = { type: "object", properties: { a: { type: "array", items: { type: "string" } } } };

  it("250 violations give the first 100 and one diagnostic with how many more; 100 give no count", () => {
    const diagnostics = new InputChecker().check(normalizeInput({ a: Array(250).fill(1) }), strings);
    expect(diagnostics).toHaveLength(101);
    expect(diagnostics[99]?.inputPointer).toBe("/a/99");
    expect(diagnostics[100]).toEqual({
      code: "PARAM_INVALID",
      severity: "error",
      message: "the input breaks inputSchema in 150 more places (the first 100 are listed)",
      pointer: "/inputSchema",
      inputPointer: "",
    });
    const hundred = new InputChecker().check(normalizeInput({ a: Array(100).fill(1) }), strings);
    expect(hundred.map((d) => d.inputPointer)).toEqual(Array.from({ length: 100 }, (_, at) => `/a/${at}`));
  });

  it("nested anyOf of $refs (2^29 branches) is refused as PLAN_LIMIT before ajv runs; 4 levels are checked", () => {
    const diagnostics = new InputChecker().check(normalizeInput({ x: 1 }), nestedAlternatives(30));
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: "PLAN_LIMIT", pointer: "/inputSchema", hint: expect.any(String) }),
    ]);
    expect(diagnostics[0]?.message).toBe(
      "the input is not checked against inputSchema: checking this input against it would take over 1,000,032 steps",
    );
    const codesOf = codes(new InputChecker(), nestedAlternatives(4), { x: 1 });
    expect(codesOf).toHaveLength(15); // 8 leaves' `type`, 7 anyOfs
    expect(new Set(codesOf.map(([code]) => code))).toEqual(new Set(["PARAM_INVALID"]));
  });

  it("a recursive definition applied twice per level is refused for a deep input; other $refs are followed", () => {
    const twice = { properties: { x: { $ref: "#/$defs/node" } } };
    const schema = { $defs: { node: { allOf: [twice, twice] } }, $ref: "#/$defs/node" };
    const deep = (levels: number): JsonObject => (levels === 0 ? { x: 1 } : { x: deep(levels - 1) });
    expect(codes(new InputChecker(), schema, deep(30))).toEqual([["PLAN_LIMIT", "/inputSchema"]]);
    expect(codes(new InputChecker(), schema, deep(3))).toEqual([]);
    const tree = {
      $defs: {
        node: { type: "object", properties: { kids: { type: "array", items: { $ref: "#/$defs/node" } } } },
      },
      $ref: "#/$defs/node",
    };
    const leaves = { kids: Array.from({ length: 20_000 }, () => ({ kids: [] })) };
    expect(codes(new InputChecker(), tree, leaves)).toEqual([]);
    const named = {
      $id: "https://example.test/root",
      $defs: { n: { $id: "n", type: "number" }, s: { $anchor: "word", type: "string" } },
      properties: { a: { $ref: "n" }, b: { $ref: "#word" } },
    };
    expect(codes(new InputChecker(), named, { a: "x", b: 1 })).toEqual([
      ["PARAM_INVALID", "/inputSchema"], // (ajv gives a keyword under an `$id` from that resource)
      ["PARAM_INVALID", "/inputSchema"],
    ]);
  });

  it("uniqueItems over 2,000 objects (2 million comparisons) is refused; over 2,000 strings it is checked", () => {
    const checker = new InputChecker();
    const objects = { type: "object", properties: { a: { type: "array", uniqueItems: true } } };
    const many = Array.from({ length: 2000 }, (_, at) => ({ at }));
    expect(codes(checker, objects, { a: many })).toEqual([["PLAN_LIMIT", "/inputSchema"]]);
    expect(codes(checker, objects, { a: many.slice(0, 100) })).toEqual([]);
    const words = { ...objects, properties: { a: { ...objects.properties.a, items: { type: "string" } } } };
    const twice = [...Array.from({ length: 1999 }, (_, at) => `w${at}`), "w0"];
    expect(codes(checker, words, { a: twice })).toEqual([
      ["PARAM_INVALID", "/inputSchema/properties/a/uniqueItems"],
    ]);
  });

  it('a refused check of a schema given as an option is PLAN_LIMIT at ""', () => {
    const diagnostics = new InputChecker().check(normalizeInput({ x: 1 }), nestedAlternatives(30), "option");
    expect(diagnostics.map((d) => [d.code, d.pointer])).toEqual([["PLAN_LIMIT", ""]]);
    expect(diagnostics[0]?.message).toContain("the input schema option");
  });
});
