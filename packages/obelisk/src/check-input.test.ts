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

  it("a schema's $id is not visible to the next plan's schema", () => {
    const checker = new InputChecker();
    expect(codes(checker, { $defs: { y: { $id: "https://example.test/b", type: "number" } } })).toEqual([]);
    expect(codes(checker, { $ref: "https://example.test/b" })).toEqual([["PLAN_SHAPE", "/inputSchema/$ref"]]);
  });
});

describe("InputChecker: schemas outside the document (Input message, streaming option)", () => {
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

  it("an unusable schema given as an option throws USAGE", () => {
    expect(() => new InputChecker().check(normalizeInput({}), { $ref: "#" }, "option")).toThrow(ObeliskError);
  });
});

describe("InputChecker: patterns run in linear time (B10)", () => {
  it("^(a+)+$ against 20,000 a's and a '!' is answered (a backtracking engine would not finish)", () => {
    const schema = { properties: { name: { pattern: "^(a+)+$" } } };
    expect(codes(new InputChecker(), schema, { name: `${"a".repeat(20_000)}!` })).toEqual([
      ["PARAM_INVALID", "/name"],
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
    expect(codes(new InputChecker(), schema, { s: text })).toEqual(ok ? [] : [["PARAM_INVALID", "/s"]]);
  });

  it("patternProperties use the same engine", () => {
    const schema = { patternProperties: { "^x_": { type: "number" } } };
    expect(codes(new InputChecker(), schema, { x_a: 1, x_b: "no", y: "free" })).toEqual([
      ["PARAM_INVALID", "/x_b"],
    ]);
  });
});
