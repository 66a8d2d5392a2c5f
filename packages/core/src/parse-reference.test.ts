import { describe, expect, it } from "vitest";
import { createKindTable } from "./kinds.js";
import { parseReference } from "./parse-reference.js";

describe("parseReference", () => {
  it.each([
    ["†input.userName", "input", ["userName"], "†input.userName"],
    ["†state", "state", [], "†state"],
    ["†calls.search$1", "calls", ["search$1"], "†calls.search$1"],
    ["†state.user.first-name", "state", ["user", "first-name"], "†state.user.first-name"],
    ["†state._x.$y", "state", ["_x", "$y"], "†state._x.$y"],
    ["†state.items[0]", "state", ["items", 0], "†state.items[0]"],
    ["†state.items.0", "state", ["items", 0], "†state.items[0]"],
    ["†state.items[-1]", "state", ["items", -1], "†state.items[-1]"],
    ["†state.items.-2", "state", ["items", -2], "†state.items[-2]"],
    ["†state.items[007]", "state", ["items", 7], "†state.items[7]"],
    ["†state.items[-0]", "state", ["items", 0], "†state.items[0]"],
    ['†state.user["first name"]', "state", ["user", "first name"], '†state.user["first name"]'],
    ['†state["user"]', "state", ["user"], "†state.user"],
    ['†state["0"]', "state", ["0"], '†state["0"]'],
    ['†state[""]', "state", [""], '†state[""]'],
    ['†state["a\\"b\\\\c\\/d"]', "state", ['a"b\\c/d'], '†state["a\\"b\\\\c/d"]'],
    ['†state["\\n\\t\\r\\b\\f"]', "state", ["\n\t\r\b\f"], '†state["\\n\\t\\r\\b\\f"]'],
    ['†state["\\u00e9\\u0041"]', "state", ["éA"], '†state["éA"]'],
    ['†state["a.b"][1]["x y"].z', "state", ["a.b", 1, "x y", "z"], '†state["a.b"][1]["x y"].z'],
  ])("parses %s", (text, kind, path, canonical) => {
    expect(parseReference(text)).toEqual({ ok: true, value: { kind, path, text: canonical } });
  });

  it.each([
    ["", 0],
    ["state.x", 0],
    ["†", 1],
    ["†1state", 1],
    ["†state.", 7],
    ["†state..x", 7],
    ["†state.x.", 9],
    ["†state[", 7],
    ["†state[]", 7],
    ["†state[x]", 7],
    ["†state[1", 8],
    ["†state[-]", 8],
    ["†state.-", 8],
    ["†state.1a", 8],
    ['†state["x', 7],
    ['†state["x"', 10],
    ['†state["\\q"]', 8],
    ['†state["\\u12"]', 8],
    ['†state["a\nb"]', 9],
    ["†state[12345678901234567]", 7],
    ["†state.x ", 8],
    ["†state.x y", 8],
    ["†state.x||†state.y", 8],
    [" †state.x", 0],
    ["†state.a b", 8],
  ])("reports REF_SYNTAX for %j at offset %i", (text, offset) => {
    const result = parseReference(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issue).toMatchObject({ code: "REF_SYNTAX", offset });
  });

  it("reports REF_KIND_UNKNOWN with the nearest kind as a hint", () => {
    const result = parseReference("†stat.user");
    expect(result).toEqual({
      ok: false,
      issue: expect.objectContaining({ code: "REF_KIND_UNKNOWN", offset: 1, hint: 'did you mean "state"?' }),
    });
  });

  it("marks the call-output hint with the kind it names (hintKind), and no other hint", () => {
    expect(parseReference("†outputs.s[0]")).toEqual({
      ok: false,
      issue: expect.objectContaining({ code: "REF_KIND_UNKNOWN", offset: 1, hintKind: "calls" }),
    });
    for (const text of ["†stat.user", "†zzzzzzzz", "†outputs"]) {
      const result = parseReference(text);
      expect(result.ok === false && "hintKind" in result.issue).toBe(false);
    }
  });

  it("lists the known kinds when no kind is close", () => {
    const result = parseReference("†zzzzzzzz");
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.issue.code).toBe("REF_KIND_UNKNOWN");
      expect(result.issue.hint).toBe("known kinds: input, state, calls");
    }
  });

  it("accepts kinds declared by the host", () => {
    const kinds = createKindTable([
      { kind: "env", writable: false, engineManaged: false, description: "env" },
    ]);
    expect(parseReference("†env.HOME", kinds)).toMatchObject({ ok: true, value: { kind: "env" } });
    expect(parseReference("†env.HOME")).toMatchObject({ ok: false, issue: { code: "REF_KIND_UNKNOWN" } });
  });

  it.each([
    ["†state.__proto__", 7],
    ["†state.prototype", 7],
    ["†state.a.constructor", 9],
    ['†state["__proto__"]', 7],
    ['†state.a["constructor"].b', 9],
    ['†state["\\u005f_proto__"]', 7],
  ])("reports REF_FORBIDDEN_SEGMENT for %s", (text, offset) => {
    expect(parseReference(text)).toMatchObject({
      ok: false,
      issue: { code: "REF_FORBIDDEN_SEGMENT", offset },
    });
  });

  it("allows names that merely contain a forbidden word", () => {
    expect(parseReference("†state.myconstructor.__proto__x")).toMatchObject({ ok: true });
  });

  it("reports PLAN_LIMIT beyond maxPathDepth", () => {
    expect(parseReference("†state.a.b.c", undefined, { maxPathDepth: 3 })).toMatchObject({ ok: true });
    expect(parseReference("†state.a.b.c[0]", undefined, { maxPathDepth: 3 })).toMatchObject({
      ok: false,
      issue: { code: "PLAN_LIMIT", offset: 12 },
    });
  });

  it("applies the default depth limit of 32", () => {
    expect(parseReference(`†state${".a".repeat(32)}`).ok).toBe(true);
    expect(parseReference(`†state${".a".repeat(33)}`)).toMatchObject({
      ok: false,
      issue: { code: "PLAN_LIMIT" },
    });
  });
});
