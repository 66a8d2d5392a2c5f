import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseJsonText } from "./parse-json-text.js";
import { parsePlanText } from "./parse-plan-text.js";

/** A value reader's limits, as the CLI reads `--input` and `--value` (no document or string limit). */
const VALUE = { maxDocumentBytes: Number.POSITIVE_INFINITY, maxStringLength: Number.POSITIVE_INFINITY };

/** The codes and pointers of a refusal (fails the test when the text is accepted). */
function refusal(text: string, limits: object = VALUE) {
  const read = parseJsonText(text, { limits });
  if (read.ok) throw new Error(`accepted: ${text}`);
  return read.diagnostics.map(({ code, pointer }) => ({ code, pointer }));
}

describe("parseJsonText: a JSON value read as strictly as plan text", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("reads any JSON value, not only a plan (no PLAN_SHAPE)", () => {
    for (const [text, value] of [
      ["1", 1],
      ['"x"', "x"],
      ["null", null],
      ['[1, {"a": [true]}]', [1, { a: [true] }]],
      ['{"by": "ops"}', { by: "ops" }],
    ] as const) {
      const read = parseJsonText(text);
      expect(read).toMatchObject({ ok: true, value });
    }
  });

  it("refuses what JSON.parse would misread, at its pointer: a repeated key, 2^53 + 1, 1e999, 1e-400", () => {
    expect(refusal('{"a": {"b": 1, "b": 2}}')).toEqual([{ code: "JSON_SYNTAX", pointer: "/a/b" }]);
    expect(refusal('{"id": 9007199254740993}')).toEqual([{ code: "JSON_SYNTAX", pointer: "/id" }]);
    expect(refusal("[1, 1e999]")).toEqual([{ code: "JSON_SYNTAX", pointer: "/1" }]);
    expect(refusal('{"x": [1e-400]}')).toEqual([{ code: "JSON_SYNTAX", pointer: "/x/0" }]);
    expect(refusal("{ nope")).toEqual([{ code: "JSON_SYNTAX", pointer: "" }]);
    // malformed says which: text that is no JSON, or JSON refused for what JSON.parse would misread
    expect(parseJsonText("{ nope")).toMatchObject({ ok: false, malformed: true });
    expect(parseJsonText("1e999")).toMatchObject({ ok: false, malformed: false });
    expect(parseJsonText("[[1]]", { limits: { maxDepth: 1 } })).toMatchObject({
      ok: false,
      malformed: false,
    });
  });

  it("locates a refusal in the text (line and column through the source map)", () => {
    const text = '{\n  "input": {\n    "a": 1,\n    "a": 2\n  }\n}';
    const read = parseJsonText(text);
    if (read.ok) throw new Error("accepted");
    const [problem] = read.diagnostics;
    expect(problem).toMatchObject({
      code: "JSON_SYNTAX",
      pointer: "/input/a",
      message: expect.stringContaining('"a" occurs twice'),
    });
    expect(read.sourceMap?.positionOf(problem?.pointer ?? "")).toMatchObject({ line: 4, column: 10 });
  });

  it("holds the text to its limits (PLAN_LIMIT), and Infinity lifts one", () => {
    expect(refusal("[[[1]]]", { maxDepth: 2 })).toEqual([{ code: "PLAN_LIMIT", pointer: "/0/0" }]);
    expect(refusal('"abcdef"', { maxStringLength: 3 })).toEqual([{ code: "PLAN_LIMIT", pointer: "" }]);
    expect(refusal('"abc"', { maxDocumentBytes: 2 })).toEqual([{ code: "PLAN_LIMIT", pointer: "" }]);
    expect(parseJsonText('"abcdef"', { limits: VALUE }).ok).toBe(true);
  });

  it("-0 reads as 0, a byte order mark is ignored, __proto__ stays an own key", () => {
    const read = parseJsonText('\uFEFF{"__proto__": {"x": -0}}');
    if (!read.ok) throw new Error("refused");
    expect(Object.getPrototypeOf(read.value)).toBe(Object.prototype);
    expect(Object.hasOwn(read.value as object, "__proto__")).toBe(true);
    const own = Object.getOwnPropertyDescriptor(read.value, "__proto__")?.value as { x: number };
    expect(Object.is(own.x, 0)).toBe(true);
  });

  it("never throws for what is not text: bytes get a hint to decode them, a subject that is no string is ignored (review s33r F10)", () => {
    const bytes = parseJsonText(new TextEncoder().encode("{}") as never);
    expect(bytes).toMatchObject({
      ok: false,
      malformed: true,
      diagnostics: [{ code: "JSON_SYNTAX", pointer: "", hint: expect.stringContaining("decode it first") }],
    });
    for (const source of [undefined, null, 5]) {
      const result = parseJsonText(source as never);
      expect(result.ok ? "parsed" : result.diagnostics[0]?.message).toMatch(/must be a string, not /);
    }
    const hostile = {
      toString() {
        throw new Error("no");
      },
    };
    const result = parseJsonText("{", { subject: hostile as never });
    expect(result.ok ? "parsed" : result.diagnostics[0]?.hint).toContain("the text");
    expect(parseJsonText("[1]", null as never)).toMatchObject({ ok: true, value: [1] });
  });

  it("plain JSON is parsed once, by JSON.parse", () => {
    const parse = vi.spyOn(JSON, "parse");
    expect(parseJsonText('{"name": "Ada", "n": [1, 2.5, 0], "ok": true}', { limits: VALUE }).ok).toBe(true);
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it("hints name the text as the caller says, and speak of a plan only for subject plan (review, stop 32)", () => {
    const hints = (text: string, options: { subject?: string } = {}) => {
      const read = parseJsonText(text, { limits: { maxDepth: 2, maxStringLength: 3 }, ...options });
      if (read.ok) throw new Error(`accepted: ${text}`);
      return read.diagnostics.map(({ hint }) => hint);
    };
    // every refusal: not JSON, a repeated key, beyond ±2^53, 1e999, 1e-400, too deep, a string too long
    for (const text of [
      "{ nope",
      '{"a": 1, "a": 2}',
      "9007199254740993",
      "1e999",
      "1e-400",
      "[[[1]]]",
      '"abcd"',
    ])
      for (const hint of hints(text)) expect(hint).not.toMatch(/plan/i);
    expect(hints("{ nope")).toEqual(["the text must be strict JSON (no comments)"]);
    expect(hints("{ nope", { subject: "request body" })).toEqual([
      "the request body must be strict JSON (no comments)",
    ]);
    expect(hints('{"a": 1, "a": 2}', { subject: "request body" })).toEqual([
      "keep one of them: JSON.parse would silently keep the last",
    ]);
    // the plan readers' hints, unchanged
    expect(hints("{ nope", { subject: "plan" })).toEqual(["the plan must be strict JSON (no comments)"]);
    expect(parsePlanText("{ nope").diagnostics.map(({ hint }) => hint)).toEqual([
      "the plan must be strict JSON (no comments)",
    ]);
    expect(hints('{"a": 1, "a": 2}', { subject: "plan" })).toEqual([
      expect.stringContaining("a plan must say each thing once"),
    ]);
    expect(parsePlanText('{"a": 1, "a": 2}').diagnostics).toEqual([
      expect.objectContaining({ hint: expect.stringContaining("a plan must say each thing once") }),
    ]);
  });

  it("hints name the cause of a syntax error where it is recognisable (s32 L4); codes, messages, pointers as before", () => {
    const syntax = (text: string, subject?: string) => {
      const read = parseJsonText(text, subject === undefined ? {} : { subject });
      if (read.ok) throw new Error(`accepted: ${text}`);
      expect(read.diagnostics).toHaveLength(1);
      const [diagnostic] = read.diagnostics;
      expect(diagnostic).toMatchObject({ code: "JSON_SYNTAX", pointer: "" });
      return { message: diagnostic?.message, hint: diagnostic?.hint };
    };
    const fence = "remove the Markdown code fence (```json … ```) and any text around the JSON";
    for (const text of ['```json\n{"a": 1}\n```', "```\n[1]\n```", 'Here it is:\n```json\n{"a": 1}\n```'])
      expect(syntax(text).hint).toBe(`${fence}: the text must be strict JSON, nothing else`);
    const quotes = `JSON strings and keys take double quotes: write "name", not 'name'`;
    expect(syntax("{'a': 1}")).toEqual({
      message: "invalid JSON at line 1, column 2: invalid symbol",
      hint: quotes,
    });
    expect(syntax("{\"a\": 'x'}").hint).toBe(quotes);
    expect(syntax('{"a": 1,}')).toEqual({
      message: "invalid JSON at line 1, column 9: property name expected",
      hint: "remove the comma before this }: JSON allows no trailing comma",
    });
    expect(syntax("[1, 2,\n]").hint).toBe("remove the comma before this ]: JSON allows no trailing comma");
    const cut = "the text ends before the JSON does: was it cut short?";
    for (const text of ['{"a":', '{"a": [1, 2', '{"a": "abc', "[1, 2,", '{"a": 1', '{"a": 1.'])
      expect({ text, hint: syntax(text).hint }).toEqual({ text, hint: cut });
    expect(syntax('{"a": 1, "b"  \n').hint).toBe(cut);
    const comments = "the text must be strict JSON (no comments)";
    for (const text of ["// c\n{}", "{/* x */}", '{"a": 1} // x', "{/* x"])
      expect({ text, hint: syntax(text).hint }).toEqual({ text, hint: comments });
    expect(syntax("   ").hint).toBe("the text is empty: give a JSON value");
    // U+FEFF is no JSON whitespace: inside the text it is named, and a text of it is not "empty"
    const mark = "remove the byte order mark (U+FEFF) here: JSON allows none inside the text";
    for (const text of ["[1,\uFEFF2]", '{"a":1}\uFEFF', "\uFEFF\uFEFF{}"])
      expect({ text, hint: syntax(text).hint }).toEqual({ text, hint: mark });
    // other Unicode spaces (a no-break space pasted from a page) are not JSON whitespace either
    const space = (code: string) =>
      `replace the space character U+${code} here: JSON's whitespace is space, tab, line feed and carriage return`;
    expect(syntax("\u00a0").hint).toBe(space("00A0"));
    expect(syntax('{"a":\u00a01}').hint).toBe(space("00A0"));
    expect(syntax("[1,\u2003 2]").hint).toBe(space("2003"));
    // not recognised: the general hint
    for (const text of ["[1 2]", '{"a" 1}', "{ nope"]) expect(syntax(text).hint).toBe(comments);
    // the subject names the text; the plan reader's hints say plan
    expect(syntax('{"a":', "request body").hint).toBe(
      "the request body ends before the JSON does: was it cut short?",
    );
    expect(parsePlanText('{"plan": [').diagnostics.map(({ hint }) => hint)).toEqual([
      "the plan ends before the JSON does: was it cut short?",
    ]);
    expect(parsePlanText('```json\n{"plan": []}\n```').diagnostics.map(({ hint }) => hint)).toEqual([
      `${fence}: the plan must be strict JSON, nothing else`,
    ]);
  });

  it("text after a whole JSON value is hinted as such; in a plan's text, a second plan after the first is named (decision 0065)", () => {
    const after = (text: string) => {
      const read = parseJsonText(text);
      return read.ok ? [] : read.diagnostics.map(({ message, hint }) => ({ message, hint }));
    };
    const prose = "remove the text after the JSON value: the text must be strict JSON, nothing else";
    expect(after('{"a": 1} x')).toEqual([
      { message: "invalid JSON at line 1, column 10: invalid symbol", hint: prose },
    ]);
    expect(after('{"a": 1}\n{"b": 2}')).toEqual([
      { message: "invalid JSON at line 2, column 1: end of file expected", hint: prose },
    ]);
    const second =
      "the text holds a second plan after the first: send one plan, or merge the calls into one list";
    const first = '[{"_tool": "a"}]';
    for (const text of [
      `${first}\n${first}`,
      `${first}${first}`,
      `${first}\n\nAnd then:\n${first}`,
      `{"type": "plan", "plan": []}\r\n{"type": "plan", "plan": []}`,
    ])
      expect({ text, hints: parsePlanText(text).diagnostics.map(({ hint }) => hint) }).toEqual({
        text,
        hints: [second],
      });
    // prose after a plan, brackets within its lines or "[step 2]" at a line's start, is no second plan
    for (const text of [`${first}\nDone: see [{"x": 1}] above.`, `${first}\n[step 2] next`])
      expect(parsePlanText(text).diagnostics.map(({ hint }) => hint)).toEqual([
        "remove the text after the JSON value: the plan must be strict JSON, nothing else",
      ]);
  });

  it("refuses exactly the JSON_SYNTAX and PLAN_LIMIT problems the plan reader reports, at the same pointers", () => {
    const numbers = fc.constantFrom("0", "-0", "1e-5", "9007199254740993", "1e999", "1e-400", "12.5");
    const text = fc.letrec<{ value: string }>((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        numbers,
        fc.constantFrom("true", '"a"', '"a\\":b"', "nul"),
        fc.array(tie("value"), { maxLength: 3 }).map((items) => `[${items.join(",")}]`),
        fc
          .array(fc.tuple(fc.constantFrom("a", "b", "__proto__"), tie("value")), { maxLength: 3 })
          .map((members) => `{${members.map(([key, value]) => `"${key}": ${value}`).join(", ")}}`),
      ),
    })).value;
    fc.assert(
      fc.property(text, (source) => {
        const limits = { maxDepth: 4, maxStringLength: 8 };
        const read = parseJsonText(source, { limits });
        const plan = parsePlanText(source, { limits }).diagnostics.filter((d) => d.code !== "PLAN_SHAPE");
        if (read.ok) {
          expect(plan).toEqual([]);
          // JSON.parse's value, -0 read as 0
          expect(read.value).toEqual(JSON.parse(source, (_key, value) => (Object.is(value, -0) ? 0 : value)));
          return;
        }
        // the same codes, messages and pointers; the hints the plan reader's only for subject plan
        const withoutHint = (diagnostics: readonly object[]) =>
          diagnostics.map(({ hint: _, ...rest }: { hint?: string }) => rest);
        expect(withoutHint(read.diagnostics)).toEqual(withoutHint(plan));
        const asPlan = parseJsonText(source, { limits, subject: "plan" });
        expect(asPlan.ok ? [] : asPlan.diagnostics).toEqual(plan);
      }),
      { numRuns: 1000 },
    );
  });
});
