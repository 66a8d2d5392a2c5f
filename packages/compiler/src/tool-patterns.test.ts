import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compile } from "./compile.js";
import { linearRegExp, UnsupportedPattern } from "./linear-reg-exp.js";
import { defineTool } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

/** A pattern that backtracks exponentially on a near-match in V8 (`AAAA…!`): ~30 s at 30 characters. */
const NESTED_QUANTIFIER = "^([A-Z]+)+$";

const code = defineTool({
  name: "code",
  input: z.object({ sku: z.string().regex(new RegExp(NESTED_QUANTIFIER)) }),
  run: ({ sku }) => sku,
});
const quoted = defineTool({
  name: "quoted",
  description: "a pattern with a backreference: RE2 cannot run it",
  input: { type: "object", properties: { text: { type: "string", pattern: "^(['\"]).*\\1$" } } },
  run: () => null,
});

const codes = (plan: unknown, tools: Parameters<typeof createToolRegistry>[0]) =>
  compile(plan, createToolRegistry(tools)).diagnostics.map((d) => [d.code, d.pointer]);

describe("patterns of tool schemas (a plan's values against the host's patterns)", () => {
  const tool = (pattern: string) =>
    defineTool({
      name: "p",
      input: { type: "object", properties: { s: { type: "string", pattern } } },
      run: () => null,
    });
  const check = (pattern: string, s: string) =>
    codes([{ _tool: "p", s, _outputPath: "†state.s" }], [tool(pattern)]);
  const refused = [["PARAM_INVALID", "/0/s"]];

  it("run on RE2 with ECMA-262's ., \\s and \\S (stop 39): the values where RE2's own meaning differed", () => {
    // RE2's \s missed \v and U+00A0; its . took \r and U+2028 (a one-line pattern let a line break in)
    expect(check("^\\s$", "\u000b")).toEqual([]);
    expect(check("^\\s$", "\u00a0")).toEqual([]);
    expect(check("^\\S+$", "a\u00a0b")).toEqual(refused);
    expect(check("^.+$", "a\rb")).toEqual(refused);
    expect(check("^.+$", "a\u2028b")).toEqual(refused);
    expect(check("^.+$", "ab")).toEqual([]);
    // inside a class too: "whitespace but not a line feed" takes U+00A0 and \v, as in JavaScript
    expect(check("^[^\\S\\n]+$", "\u00a0\u000b")).toEqual([]);
    expect(check("^[\\S,]+$", "a\u00a0")).toEqual(refused);
  });

  it("run in linear time: a near-match of a nested quantifier is refused (V8 backtracks: ~1 s at 25 characters, ×2 per one more)", () => {
    // Kept short enough that a backtracking engine would finish (slowly) instead of hanging the suite.
    const plan = [{ _tool: "code", sku: `${"A".repeat(22)}!`, _outputPath: "†state.c" }];
    expect(codes(plan, [code])).toEqual([["PARAM_INVALID", "/0/sku"]]);
    expect(codes([{ _tool: "code", sku: "ABC", _outputPath: "†state.c" }], [code])).toEqual([]);
  });

  it("keep JavaScript's engine where RE2 cannot run them, with a registry warning naming the tool and the pattern", () => {
    const registry = createToolRegistry([code, quoted]);
    expect(registry.warnings).toEqual([
      expect.objectContaining({
        code: "REGISTRY_BACKTRACKING_PATTERN",
        severity: "warning",
        pointer: "/1",
        message: expect.stringContaining(`tool "quoted": the pattern "^(['\\"]).*\\\\1$"`),
        hint: expect.stringContaining("RE2 syntax"),
      }),
    ]);
    expect(codes([{ _tool: "quoted", text: `'yes'`, _outputPath: "†state.q" }], [quoted])).toEqual([]);
    expect(codes([{ _tool: "quoted", text: `'no"`, _outputPath: "†state.q" }], [quoted])).toEqual([
      ["PARAM_INVALID", "/0/text"],
    ]);
  });

  it("warn for no pattern RE2 runs, nor for patterns inside data keywords", () => {
    const data = defineTool({
      name: "data",
      input: { type: "object", properties: { x: { const: { pattern: "(?=a)" }, examples: ["(a)\\1"] } } },
      run: () => null,
    });
    expect(createToolRegistry([code, data]).warnings).toEqual([]);
  });

  it("read a surrogate pair written as two \\u escapes as the one character it writes, as JavaScript does (stop 40)", () => {
    // re2js read two lone surrogates: "😀" was refused, and a class range of pairs did not compile (warned)
    expect(check("^\\uD83D\\uDE00$", "😀")).toEqual([]);
    expect(check("^\\uD83D\\uDE00$", "a")).toEqual(refused);
    const emoticons = "^[\\uD83D\\uDE00-\\uD83D\\uDE4F]+$";
    expect(createToolRegistry([tool(emoticons)]).warnings).toEqual([]);
    expect(check(emoticons, "😀🙏")).toEqual([]);
    expect(check(emoticons, "😀a")).toEqual(refused);
    // a lone surrogate escape matches an unpaired surrogate of the value only, in both engines
    expect(check("^\\uD83D$", "\uD83D")).toEqual([]);
    expect(check("^\\uD83D", "😀")).toEqual(refused);
  });

  it("JavaScript refuses with the u flag are refused at registration, with the pattern's pointer and why (stop 40)", () => {
    // RE2 takes each of these, with a meaning of its own (`\\-` a hyphen, `]` and `{` literals, `\\x{41}` "A")
    for (const pattern of ["^x\\-$", "]", "a{", "\\x{41}", "(?i)a", "[[:alpha:]]"]) {
      let thrown: unknown;
      try {
        createToolRegistry([tool(pattern)]);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({
        code: "USAGE",
        message: expect.stringMatching(
          /^tool "p" input schema at \/properties\/s\/pattern: the pattern .* is not a valid regular expression \(/,
        ),
      });
    }
    // and by the engine's linearRegExp (plan input schemas): the pattern named, JavaScript's reason given
    expect(() => linearRegExp("^x\\-$", "u")).toThrow(UnsupportedPattern);
    expect(() => linearRegExp("^x\\-$", "u")).toThrow(
      /"\^x\\\\-\$" is not a valid regular expression \(Invalid escape\)/,
    );
  });

  it("run ECMA-262's long and prefixed property names on RE2, which knows only its own (stop 40)", () => {
    // RE2 refused these: the pattern fell back to JavaScript's engine with a backtracking warning
    for (const pattern of ["^\\p{Letter}+$", "^\\p{Script=Greek}+$", "^\\p{gc=Lu}+$", "^\\p{ASCII}+$"])
      expect(createToolRegistry([tool(pattern)]).warnings).toEqual([]);
    expect(check("^\\p{Script=Greek}+$", "Ωμέγα")).toEqual([]);
    expect(check("^\\p{Script=Greek}+$", "Ωa")).toEqual(refused);
    expect(check("^[\\P{ASCII}]+$", "é😀")).toEqual([]);
    expect(check("^[\\P{ASCII}]+$", "éa")).toEqual(refused);
  });

  it("zod's string formats keep working: their patterns are valid with the u flag and match as in JavaScript", () => {
    const formats = defineTool({
      name: "formats",
      input: z.object({
        email: z.email(),
        uuid: z.uuid(),
        ipv4: z.ipv4(),
        ipv6: z.ipv6(),
        date: z.iso.date(),
        at: z.iso.datetime(),
        id: z.nanoid(),
        sum: z.base64(),
        phone: z.e164(),
        prefix: z.string().startsWith("a.b"),
        suffix: z.string().endsWith("x-y]"),
      }),
      run: () => null,
    });
    expect(createToolRegistry([formats]).warnings).toEqual([]);
    const good = {
      email: "ada@example.com",
      uuid: "123e4567-e89b-12d3-a456-426614174000",
      ipv4: "10.0.0.1",
      ipv6: "::1",
      date: "2026-02-28",
      at: "2026-02-28T12:00:00Z",
      id: "V1StGXR8_Z5jdHi6B-myT",
      sum: "aGk=",
      phone: "+14155550100",
      prefix: "a.bc",
      suffix: "ax-y]",
    };
    const call = (input: object) => [{ _tool: "formats", ...input, _outputPath: "†state.f" }];
    expect(codes(call(good), [formats])).toEqual([]);
    expect(codes(call({ ...good, email: "ada@", suffix: "x-y" }), [formats])).toEqual([
      ["PARAM_INVALID", "/0/email"],
      ["PARAM_INVALID", "/0/suffix"],
    ]);
  });
});
