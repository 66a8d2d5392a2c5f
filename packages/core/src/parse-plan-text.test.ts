import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { resolvePointer } from "./json-pointer.js";
import { parsePlanText } from "./parse-plan-text.js";

const fixture = (name: string): string =>
  readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");
const codes = (text: string, limits = {}) =>
  parsePlanText(text, { limits }).diagnostics.map((d) => [d.code, d.pointer]);

describe("parsePlanText: accepted forms", () => {
  it("reads the canonical form with pointers /plan/i", () => {
    const result = parsePlanText(fixture("plan-canonical.json"));
    expect(result.diagnostics).toEqual([]);
    expect(result.document?.form).toBe("plan");
    expect(result.document?.id).toBe("greet");
    expect(result.document?.calls.map((c) => c.pointer)).toEqual(["/plan/0", "/plan/1"]);
    expect(result.document?.calls[1]?.value).toEqual({
      _tool: "greetUser",
      name: "†state.user.name",
      count: 3,
    });
  });

  it("reads { calls }, a bare array and a single call", () => {
    expect(parsePlanText(fixture("plan-calls.json")).document?.calls.map((c) => c.pointer)).toEqual([
      "/calls/0",
      "/calls/1",
    ]);
    const array = parsePlanText('[{"_tool":"a"},{"_tool":"b"}]').document;
    expect(array?.form).toBe("array");
    expect(array?.calls.map((c) => c.pointer)).toEqual(["/0", "/1"]);
    const call = parsePlanText('{"_tool":"a","x":1}').document;
    expect(call?.form).toBe("call");
    expect(call?.calls).toEqual([{ value: { _tool: "a", x: 1 }, pointer: "", index: 0 }]);
  });

  it("keeps __proto__ keys as own data without touching prototypes", () => {
    const result = parsePlanText('{"_tool":"a","__proto__":{"polluted":true},"p":{"__proto__":[1]}}');
    const value = result.document?.calls[0]?.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(resolvePointer(value, "/__proto__/polluted")).toEqual({ found: true, value: true });
    expect(resolvePointer(value, "/p/__proto__/0")).toEqual({ found: true, value: 1 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("does not validate the calls themselves", () => {
    expect(codes('{"type":"plan","plan":[1, null, {"no":"tool"}]}')).toEqual([]);
  });
});

describe("parsePlanText: rejections", () => {
  it("reports JSON_SYNTAX with line and column", () => {
    const text = fixture("plan-bad-syntax.json");
    const result = parsePlanText(text);
    expect(result.document).toBeUndefined();
    expect(result.diagnostics).toHaveLength(1);
    const [diagnostic] = result.diagnostics;
    expect(diagnostic?.code).toBe("JSON_SYNTAX");
    expect(diagnostic?.pointer).toBe("");
    const column = (text.split("\n")[3] ?? "").indexOf("'") + 1;
    expect(diagnostic?.message).toContain(`line 4, column ${column}`);
    expect(result.sourceMap?.positionOf("")).toMatchObject({ line: 4, column });
  });

  it.each([
    ["", "empty"],
    ['{"_tool": "a",}', "trailing comma"],
    ['{"_tool": "a"} // note', "comment"],
    ['{"_tool": "a"} {}', "two values"],
    ["[1, 2", "unterminated"],
    ["{'a': 1}", "single quotes"],
    ["NaN", "NaN"],
  ])("reports JSON_SYNTAX for %j (%s)", (text) => {
    expect(codes(text)).toEqual([["JSON_SYNTAX", ""]]);
  });

  it("reports PLAN_SHAPE at the right pointer", () => {
    expect(codes("42")).toEqual([["PLAN_SHAPE", ""]]);
    expect(codes('"plan"')).toEqual([["PLAN_SHAPE", ""]]);
    expect(codes("null")).toEqual([["PLAN_SHAPE", ""]]);
    expect(codes('{"name":"x"}')).toEqual([["PLAN_SHAPE", ""]]);
    expect(codes('{"type":"input","plan":[]}')).toEqual([["PLAN_SHAPE", "/type"]]);
    expect(codes('{"type":"plan","plan":{}}')).toEqual([["PLAN_SHAPE", "/plan"]]);
    expect(codes('{"type":"plan"}')).toEqual([["PLAN_SHAPE", ""]]);
    expect(codes('{"calls":"a"}')).toEqual([["PLAN_SHAPE", "/calls"]]);
    expect(codes('{"calls":[],"input":{}}')).toEqual([["PLAN_SHAPE", "/input"]]);
  });

  it("reports wrong optional fields but keeps the calls", () => {
    const result = parsePlanText(fixture("plan-bad-shape.json"));
    expect(result.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["PLAN_SHAPE", "/id"]]);
    expect(result.document?.calls).toHaveLength(1);
    expect(result.document?.id).toBeUndefined();
    expect(result.document?.description).toBe("greets");
    expect(codes('{"plan":[],"description":1,"inputSchema":[]}')).toEqual([
      ["PLAN_SHAPE", "/description"],
      ["PLAN_SHAPE", "/inputSchema"],
    ]);
  });

  it("hints at the accepted forms", () => {
    expect(parsePlanText("42").diagnostics[0]?.hint).toContain('"type": "plan"');
  });

  it("reports PLAN_LIMIT for document bytes before parsing", () => {
    expect(codes('{"_tool":"é"}', { maxDocumentBytes: 13 })).toEqual([["PLAN_LIMIT", ""]]);
    expect(codes('{"_tool":"é"}', { maxDocumentBytes: 14 })).toEqual([]);
    expect(codes("{{{ not json", { maxDocumentBytes: 3 })).toEqual([["PLAN_LIMIT", ""]]);
  });

  it("reports PLAN_LIMIT for too many calls at the array", () => {
    expect(codes('{"type":"plan","plan":[{},{},{}]}', { maxCalls: 2 })).toEqual([["PLAN_LIMIT", "/plan"]]);
    expect(codes('{"calls":[{},{},{}]}', { maxCalls: 2 })).toEqual([["PLAN_LIMIT", "/calls"]]);
    expect(codes("[{},{},{}]", { maxCalls: 2 })).toEqual([["PLAN_LIMIT", ""]]);
    expect(codes("[{},{}]", { maxCalls: 2 })).toEqual([]);
  });

  it("reports PLAN_LIMIT for depth at the too-deep value", () => {
    const text = '{"plan":[{"_tool":"a","x":{"y":[1,{"z":2}]}}]}';
    expect(codes(text, { maxDepth: 6 })).toEqual([]);
    expect(codes(text, { maxDepth: 5 })).toEqual([["PLAN_LIMIT", "/plan/0/x/y/1"]]);
    expect(codes(text, { maxDepth: 2 })).toEqual([["PLAN_LIMIT", "/plan/0"]]);
  });

  it("survives a 100,000-deep document", () => {
    const text = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const result = parsePlanText(text);
    expect(result.diagnostics.map((d) => d.code)).toEqual(["PLAN_LIMIT"]);
    expect(result.diagnostics[0]?.pointer).toBe(`/${"0/".repeat(63)}0`);
    expect(result.sourceMap?.positionOf(result.diagnostics[0]?.pointer ?? "")).toMatchObject({ column: 65 });
    expect(codes(`{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`)).toEqual([
      ["PLAN_LIMIT", `/a${"/0".repeat(63)}`],
    ]);
    expect(codes(`{"a":${"[".repeat(100_000)}`)).toEqual([["JSON_SYNTAX", ""]]);
  });

  it("reports PLAN_LIMIT for long strings and keys at their pointer", () => {
    const text = '{"plan":[{"_tool":"a","long":"abcdef","abcdefg":1}]}';
    expect(codes(text, { maxStringLength: 6 })).toEqual([["PLAN_LIMIT", "/plan/0/abcdefg"]]);
    expect(codes(text, { maxStringLength: 5 }).sort()).toEqual([
      ["PLAN_LIMIT", "/plan/0/abcdefg"],
      ["PLAN_LIMIT", "/plan/0/long"],
    ]);
  });
});

describe("parsePlanText: numbers a double cannot hold", () => {
  it("refuses 1e999 and -1e999 with JSON_SYNTAX at their pointer and position", () => {
    const text = '[{"_tool":"a","v":1e999,"w":[-1e999]}]';
    expect(codes(text)).toEqual([
      ["JSON_SYNTAX", "/0/v"],
      ["JSON_SYNTAX", "/0/w/0"],
    ]);
    const result = parsePlanText(text);
    expect(result.document).toBeUndefined();
    expect(result.sourceMap?.positionOf("/0/v")).toMatchObject({ line: 1, column: 19 });
  });

  it("refuses nonzero numbers too small for a double (1e-400 would read as 0), and accepts zeros", () => {
    const text = '[{"_tool":"a","v":1e-400,"w":[-2.5E-999],"z":[0e-400,0.000,-0,0E5,5e-324]}]';
    expect(codes(text)).toEqual([
      ["JSON_SYNTAX", "/0/v"],
      ["JSON_SYNTAX", "/0/w/0"],
    ]);
    expect(parsePlanText(text).diagnostics[0]?.message).toContain("too small");
  });

  it("text nested deeper than the parser's stack (only with a huge maxDepth) is PLAN_LIMIT, not a syntax error", () => {
    const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    const result = parsePlanText(deep, {
      limits: { maxDepth: Number.POSITIVE_INFINITY, maxDocumentBytes: 1e7 },
    });
    expect(result.diagnostics).toMatchObject([
      { code: "PLAN_LIMIT", pointer: "", hint: expect.stringContaining("maxDepth") },
    ]);
  });

  it("ignores a leading byte order mark (positions are counted after it)", () => {
    const result = parsePlanText('\uFEFF[{"_tool":"a","v":1e999}]');
    expect(codes('\uFEFF[{"_tool":"a"}]')).toEqual([]);
    expect(result.sourceMap?.positionOf("/0/v")).toMatchObject({ line: 1, column: 19 });
  });

  it("refuses integers beyond ±2^53 that a double cannot hold exactly, and accepts those it can", () => {
    const text = '[{"_tool":"a","id":12345678901234567890,"n":[-9007199254740993],"ok":9007199254740992}]';
    expect(codes(text)).toEqual([
      ["JSON_SYNTAX", "/0/id"],
      ["JSON_SYNTAX", "/0/n/0"],
    ]);
    const [first] = parsePlanText(text).diagnostics;
    expect(first?.message).toContain("12345678901234567890");
    expect(first?.hint).toContain("string");
    // exactly representable beyond 2^53, fractions and exponents keep their usual meaning
    expect(codes('[{"_tool":"a","v":18014398509481984,"w":1.5e300,"x":0.1}]')).toEqual([]);
    expect(codes('[{"_tool":"a","v":9007199254740991,"w":-9007199254740991}]')).toEqual([]);
    // JSON.stringify's own text of a large double reads back as that double
    expect(codes(JSON.stringify([{ _tool: "a", v: 2 ** 60, w: -(2 ** 70) }]))).toEqual([]);
    expect(codes('[{"_tool":"a","v":1152921504606846976}]')).toEqual([]);
    // any spelling of a number the double changes (review 8 M4), and the shortest texts with exponents
    expect(
      codes('[{"_tool":"a","f":9007199254740993.0,"e":9007199254740993e0,"h":9007199254740992.5}]'),
    ).toEqual([
      ["JSON_SYNTAX", "/0/f"],
      ["JSON_SYNTAX", "/0/e"],
      ["JSON_SYNTAX", "/0/h"],
    ]);
    expect(codes('[{"_tool":"a","v":1e21,"w":1.5e300,"x":9007199254740992.0,"y":-2e53}]')).toEqual([]);
  });

  it("reads -0 as 0 (the plan's canonical text writes it so)", () => {
    const value = parsePlanText('[{"_tool":"a","z":-0}]').document?.calls[0]?.value as { z: number };
    expect(Object.is(value.z, 0)).toBe(true);
  });
});

describe("parsePlanText: a key twice in one object", () => {
  it("is JSON_SYNTAX at the later key's pointer and position, whatever the level", () => {
    const text = '{"type":"plan","plan":[{"_tool":"a","n":1,"_outputPath":"†state.x","n":1000}]}';
    expect(codes(text)).toEqual([["JSON_SYNTAX", "/plan/0/n"]]);
    const result = parsePlanText(text);
    expect(result.document).toBeUndefined();
    expect(result.diagnostics[0]?.message).toContain('"n" occurs twice');
    expect(result.sourceMap?.positionOf("/plan/0/n")).toMatchObject({
      line: 1,
      column: text.indexOf("1000") + 1,
    });
    // a second call list would replace the first: an empty plan would be approved
    const replaced = '{"type":"plan","plan":[{"_tool":"a"}],\n"plan":[]}';
    expect(codes(replaced)).toEqual([["JSON_SYNTAX", "/plan"]]);
    expect(parsePlanText(replaced).sourceMap?.positionOf("/plan")).toMatchObject({ line: 2, column: 8 });
  });

  it("refuses a repeated meta-property and a repeated __proto__ key alike", () => {
    expect(codes('[{"_tool":"a","_outputPath":"†state.safe","_outputPath":"†state.danger"}]')).toEqual([
      ["JSON_SYNTAX", "/0/_outputPath"],
    ]);
    expect(codes('[{"_tool":"a","__proto__":1,"__proto__":2}]')).toEqual([["JSON_SYNTAX", "/0/__proto__"]]);
    expect(codes('[{"_tool":"a","x":{"k":1},"y":{"k":1}}]')).toEqual([]);
  });
});

describe("a document deeper than the parser's stack (maxDepth raised past it)", () => {
  it("is PLAN_LIMIT whose hint gives the maxDepth in force and the default", () => {
    const depth = 200_000;
    const text = `${"[".repeat(depth)}${"]".repeat(depth)}`;
    const parsed = parsePlanText(text, { limits: { maxDepth: 1_000_000, maxDocumentBytes: 1e7 } });
    expect(parsed.diagnostics.map((d) => [d.code, d.hint])).toEqual([
      ["PLAN_LIMIT", "lower maxDepth (it is 1000000 here; the default is 64)"],
    ]);
  });
});
