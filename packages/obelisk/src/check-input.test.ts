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
