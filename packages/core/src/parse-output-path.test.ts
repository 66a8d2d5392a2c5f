import { describe, expect, it } from "vitest";
import { createKindTable, DEFAULT_KINDS } from "./kinds.js";
import { parseOutputPath } from "./parse-output-path.js";
import { parseParameterString } from "./parse-parameter-string.js";

describe("parseOutputPath", () => {
  it.each([
    ["†state.user.summary", "†state.user.summary", [[["user", "summary"]]]],
    ["†state.a||†state.b&&†state.c", "†state.a || †state.b && †state.c", [[["a"]], [["b"], ["c"]]]],
    ["†state.a <|> †state.b *> †state.c", "†state.a || †state.b && †state.c", [[["a"]], [["b"], ["c"]]]],
    ['†state["a b"].items.0', '†state["a b"].items[0]', [[["a b", "items", 0]]]],
    ["†state.a || †state.a", "†state.a || †state.a", [[["a"]], [["a"]]]],
    [
      "†state.a.b && †state.a.c",
      "†state.a.b && †state.a.c",
      [
        [
          ["a", "b"],
          ["a", "c"],
        ],
      ],
    ],
    [
      "†state.list[0] && †state.list[1]",
      "†state.list[0] && †state.list[1]",
      [
        [
          ["list", 0],
          ["list", 1],
        ],
      ],
    ],
  ])("parses %j", (text, canonical, paths) => {
    const result = parseOutputPath(text);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.text).toBe(canonical);
    expect(result.value.alternatives.map((targets) => targets.map((target) => target.path))).toEqual(paths);
    expect(result.value.alternatives.flat().every((target) => target.kind === "state")).toBe(true);
  });

  it.each([
    ["", "OUTPUT_PATH_SYNTAX", 0],
    ["state.a", "OUTPUT_PATH_SYNTAX", 0],
    ["†state", "OUTPUT_PATH_SYNTAX", 6],
    ["†state || †state.a", "OUTPUT_PATH_SYNTAX", 6],
    ["†state[0]", "OUTPUT_PATH_SYNTAX", 6],
    ['†state["a"]', "OUTPUT_PATH_SYNTAX", -1],
    ["†state.a[-1]", "OUTPUT_PATH_SYNTAX", 9],
    ["†state.a.-1", "OUTPUT_PATH_SYNTAX", 9],
    ["†state.a.", "OUTPUT_PATH_SYNTAX", 9],
    ["†state.a ||", "OUTPUT_PATH_SYNTAX", 11],
    ["†state.a ", "OUTPUT_PATH_SYNTAX", 8],
    [" †state.a", "OUTPUT_PATH_SYNTAX", 0],
    ["†state.a x", "OUTPUT_PATH_SYNTAX", 9],
    ["†state.a && †state.a", "OUTPUT_PATH_SYNTAX", 12],
    ["†state.a && †state.a.b", "OUTPUT_PATH_SYNTAX", 12],
    ["†state.a.b && †state.a", "OUTPUT_PATH_SYNTAX", 14],
    ["†state.x || †state.a && †state.b && †state.a", "OUTPUT_PATH_SYNTAX", 36],
    ["†input.a", "OUTPUT_PATH_READONLY", 1],
    ["†state.a && †calls.x", "OUTPUT_PATH_READONLY", 13],
    ["†stat.a", "REF_KIND_UNKNOWN", 1],
    ["†state.__proto__", "REF_FORBIDDEN_SEGMENT", 7],
    ['†state.a["prototype"]', "REF_FORBIDDEN_SEGMENT", 9],
    ["†state.a.constructor", "REF_FORBIDDEN_SEGMENT", 9],
  ])("reports %j as %s at offset %i", (text, code, offset) => {
    const result = parseOutputPath(text);
    expect(result.ok).toBe(offset === -1);
    if (!result.ok) expect(result.issue).toMatchObject({ code, offset });
  });

  it("gives the readonly error a hint naming writable kinds", () => {
    const result = parseOutputPath("†input.a");
    expect(!result.ok && result.issue.hint).toContain("†state");
  });

  it("accepts writable host kinds and rejects read-only ones", () => {
    const kinds = createKindTable([
      { kind: "scratch", writable: true, engineManaged: false, description: "scratch" },
      { kind: "env", writable: false, engineManaged: false, description: "env" },
    ]);
    expect(parseOutputPath("†scratch.x && †state.x", kinds)).toMatchObject({ ok: true });
    expect(parseOutputPath("†env.x", kinds)).toMatchObject({
      ok: false,
      issue: { code: "OUTPUT_PATH_READONLY" },
    });
  });

  it("honours maxPathDepth", () => {
    expect(parseOutputPath("†state.a.b", undefined, { maxPathDepth: 1 })).toMatchObject({
      ok: false,
      issue: { code: "PLAN_LIMIT", offset: 8 },
    });
  });
});

describe("an output path written without its dagger", () => {
  const kinds = createKindTable();
  const hintOf = (text: string) => {
    const parsed = parseOutputPath(text, kinds, { maxPathDepth: 32 });
    return parsed.ok ? "parsed" : parsed.issue.hint;
  };

  it.each([
    ["state.u", '"†state.u"'],
    ["input[0].x", '"†input[0].x"'],
    ["†state.a || state.b", '"†state.b"'],
  ])("%s → did you mean %s", (text, fixed) => {
    expect(hintOf(text)).toBe(`did you mean ${fixed}? (every reference starts with "†")`);
  });

  it.each(["stat.u", "state", "  state.u", "1state.u"])("%j gets no guess", (text) => {
    expect(hintOf(text)).toBeUndefined();
  });
});

describe("a literal where an operand of || belongs", () => {
  it("is REF_SYNTAX with a hint that operands are references and where a default goes", () => {
    for (const text of ["†state.nick || 'friend'", '†state.nick || "friend"', "†state.n || 0"]) {
      const parsed = parseParameterString(text, createKindTable(), { maxPathDepth: 32 });
      expect(parsed.ok ? "parsed" : [parsed.issue.code, parsed.issue.hint]).toEqual([
        "REF_SYNTAX",
        expect.stringContaining("a literal default is not part of the language"),
      ]);
    }
  });
});

describe("parseOutputPath: maxOutputTargets", () => {
  const targets = (n: number, separator: string) =>
    Array.from({ length: n }, (_, i) => `†state.t${i}`).join(separator);

  it("more targets than the limit, over fan-outs and alternatives alike, is PLAN_LIMIT at the first one beyond it", () => {
    for (const separator of [" && ", " || "]) {
      const text = targets(1_001, separator);
      const result = parseOutputPath(text);
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.issue.code).toBe("PLAN_LIMIT");
      expect(result.issue.message).toContain("1001 targets in one _outputPath, more than the limit of 1000");
      expect(result.issue.offset).toBe(text.indexOf("†state.t1000"));
    }
  });

  it("the limit itself is fine, and a configured limit is held", () => {
    expect(parseOutputPath(targets(1_000, " && ")).ok).toBe(true);
    const limited = parseOutputPath("†state.a && †state.b || †state.c", DEFAULT_KINDS, {
      maxPathDepth: 32,
      maxOutputTargets: 2,
    });
    expect(limited.ok ? "parsed" : limited.issue.code).toBe("PLAN_LIMIT");
  });
});
