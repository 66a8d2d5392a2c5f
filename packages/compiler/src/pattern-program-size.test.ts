import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { linearRegExp, MAX_PATTERN_PROGRAM, UnsupportedPattern } from "./linear-reg-exp.js";
import { patternProgramSize } from "./pattern-program-size.js";
import { refuseLargePatterns } from "./schema-pattern-budget.js";

/** 1,000 × `a{1000}`, 7 KB: under every limit of RE2's parser, 6 s and 389 MB to compile (decision 0106). */
const FLAT_BOMB = `^(?:${"a{1000}".repeat(1000)})$`;

/** The instructions re2js compiles a pattern to (its program, read from the compiled object). */
const instructions = (pattern: string): number =>
  (
    RE2JS.compile(pattern) as unknown as { re2Input: { prog: { numInst(): number } } }
  ).re2Input.prog.numInst();

/** The patterns zod writes into JSON Schema for its string formats. */
const zodPatterns = [
  z.email(),
  z.uuid(),
  z.iso.datetime(),
  z.iso.datetime({ offset: true, local: true }),
  z.iso.date(),
  z.ipv6(),
  z.cidrv6(),
  z.e164(),
  z.base64(),
]
  .map((schema) => (z.toJSONSchema(schema) as { pattern?: unknown }).pattern)
  .filter((pattern): pattern is string => typeof pattern === "string");

describe("patternProgramSize: RE2's program size of a pattern, in one scan (decision 0106)", () => {
  it.each([
    ["^[a-z]{2,64}$", 128],
    ["\\d{4}-\\d{2}-\\d{2}", 10],
    ["^(?:a{1000})$", 1002],
    ["^((ab){10}){100}$", 4202],
    ["^(a|b|c)*$", 11],
    ["^(?<year>\\d{4})-\\u{1F600}[\\]x]\\p{L}+?$", 13],
  ])("%s is about %i instructions (re2js's program: within 4)", (pattern, size) => {
    expect(patternProgramSize(pattern)).toBe(size);
    expect(Math.abs(instructions(RE2JS.translateRegExp(pattern)) - size)).toBeLessThanOrEqual(4);
  });

  it("counts the flat bomb as RE2 does: 1,000 repeats of a{1000}", () => {
    expect(patternProgramSize(FLAT_BOMB)).toBe(1_000_002);
  });

  it("ends on any string (an unclosed group, escape or class)", () => {
    for (const text of ["(?<a", "\\u{12", "[abc", "(((", ")))", "a{", "\\k<x"])
      expect(patternProgramSize(text)).toBeGreaterThanOrEqual(0);
  });
});

describe("linearRegExp refuses a pattern whose program is over the budget", () => {
  it("the flat bomb is an UnsupportedPattern that says how to shorten it", () => {
    expect(() => linearRegExp(FLAT_BOMB, "u")).toThrow(UnsupportedPattern);
    expect(() => linearRegExp(FLAT_BOMB, "u")).toThrow(
      /compiles to about 1,000,002 RE2 instructions, over the 10,000 one pattern may use: shorten the repeat counts/,
    );
  });

  it("a pattern just over the budget is refused, one at it is not", () => {
    expect(() => linearRegExp(`^${"a{1000}".repeat(10)}b$`, "u")).toThrow(UnsupportedPattern);
    expect(patternProgramSize(`${"a{1000}".repeat(10)}`)).toBe(MAX_PATTERN_PROGRAM);
    expect(linearRegExp("a{1000}".repeat(10), "u").test("a".repeat(10_000))).toBe(true);
  });

  it("the patterns zod writes and common ones are accepted", () => {
    expect(zodPatterns.length).toBeGreaterThanOrEqual(8);
    for (const pattern of [...zodPatterns, "^[a-z]{2,64}$", "\\d{4}-\\d{2}-\\d{2}", "^.{0,1000}$"])
      expect(() => linearRegExp(pattern, "u")).not.toThrow();
  });
});

describe("refuseLargePatterns: the patterns of one schema summed", () => {
  const properties = (count: number) =>
    Object.fromEntries(
      Array.from({ length: count }, (_, i) => [
        `p${i}`,
        { type: "string", pattern: `^${"a{1000}".repeat(9)}${"b".repeat(i)}$` },
      ]),
    );

  it("refuses the pattern that brings the sum over 25,000, with the sum and the hint", () => {
    expect(() => refuseLargePatterns({ properties: properties(2) })).not.toThrow();
    let thrown: unknown;
    try {
      refuseLargePatterns({ properties: properties(3) });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UnsupportedPattern);
    expect((thrown as UnsupportedPattern).pattern).toBe(`^${"a{1000}".repeat(9)}bb$`);
    expect((thrown as UnsupportedPattern).message).toMatch(
      /^the schema's patterns compile to about 27,0\d\d RE2 instructions together, over the 25,000 one schema may use .*: shorten the repeat counts/,
    );
  });

  it("counts a pattern written twice once, and leaves one over the single budget to linearRegExp", () => {
    const same = { type: "string", pattern: `^${"a{1000}".repeat(9)}$` };
    expect(() => refuseLargePatterns({ properties: { a: same, b: same, c: same, d: same } })).not.toThrow();
    expect(() => refuseLargePatterns({ properties: { a: { pattern: FLAT_BOMB } } })).not.toThrow();
  });

  it("a schema of zod's format patterns is far under it", () => {
    const schema = {
      properties: Object.fromEntries(zodPatterns.map((pattern, i) => [`p${i}`, { type: "string", pattern }])),
    };
    expect(() => refuseLargePatterns(schema)).not.toThrow();
  });
});
