import { describe, expect, it } from "vitest";
import { commitOf, THREAD, write } from "../conformance/commit-fixtures.js";
import { createMemoryStore } from "../memory-store.js";
import { stateRegExp } from "./state-reg-exp.js";
import { createStateValidator } from "./state-validator.js";

// `.`, `\s`, `\S` and surrogate pairs match as in JavaScript (stops 39, 40), and a pattern JavaScript refuses
// is refused (stop 40): which engine runs a pattern shows in what ajv is given, not in what it matches
const PATTERN = "^x-$";

describe("state-schema patterns run on re2js, linear in the value (decision 0057, Amended)", () => {
  it("ajv is given RE2's matcher, or JavaScript's where RE2 cannot run the pattern", () => {
    expect(String(stateRegExp(PATTERN, "u"))).toBe(`re2:${PATTERN}`);
    expect(stateRegExp("^(a+)-\\1$", "u")).toBeInstanceOf(RegExp);
  });

  it("a `pattern` is matched by RE2", () => {
    const validator = createStateValidator({
      type: "object",
      properties: { gap: { type: "string", pattern: PATTERN } },
    });
    expect(validator.violation({ gap: "x-" })).toBeUndefined();
    expect(validator.violation({ gap: "y-" })).toEqual(["gap"]);
  });

  it("so is a `patternProperties` key", () => {
    const validator = createStateValidator({
      type: "object",
      patternProperties: { [PATTERN]: { type: "number" } },
    });
    expect(validator.violation({ "x-": "x" })).toEqual(["x-"]);
    expect(validator.violation({ "y-": "x" })).toBeUndefined();
  });

  it("with ECMA-262's ., \\s and \\S outside a class (stop 39): a one-line pattern refuses a carriage return", () => {
    const validator = createStateValidator({
      type: "object",
      properties: { line: { type: "string", pattern: "^.+$" }, gap: { type: "string", pattern: "^\\s$" } },
    });
    expect(validator.violation({ line: "a\rb" })).toEqual(["line"]);
    expect(validator.violation({ line: "a\u2028b" })).toEqual(["line"]);
    expect(validator.violation({ line: "ab", gap: "\v" })).toBeUndefined();
  });

  it("a pattern RE2 cannot run (a backreference) keeps JavaScript's engine, as for tool schemas", () => {
    const validator = createStateValidator({
      type: "object",
      properties: { twice: { type: "string", pattern: "^(a+)-\\1$" } },
    });
    expect(validator.violation({ twice: "aa-aa" })).toBeUndefined();
    expect(validator.violation({ twice: "aa-a" })).toEqual(["twice"]);
  });

  it("a commit's write is checked the same way", async () => {
    const store = createMemoryStore();
    await store.openThread(THREAD, {
      stateSchema: { type: "object", properties: { gap: { type: "string", pattern: PATTERN } } },
    });
    const refused = await store.commitCall(commitOf({ callId: "c", writes: [write(["gap"], "y-")] }));
    expect(refused).toMatchObject({ ok: false });
    const accepted = await store.commitCall(commitOf({ callId: "d", writes: [write(["gap"], "x-")] }));
    expect(accepted).toMatchObject({ ok: true });
    await store.close();
  });

  it("a surrogate pair written as two \\u escapes matches the character it writes, as in JavaScript (stop 40)", () => {
    const validator = createStateValidator({
      type: "object",
      properties: {
        face: { type: "string", pattern: "^\\uD83D\\uDE00$" },
        faces: { type: "string", pattern: "^[\\uD83D\\uDE00-\\uD83D\\uDE4F]+$" },
      },
    });
    expect(validator.violation({ face: "😀", faces: "😀🙏" })).toBeUndefined();
    expect(validator.violation({ face: "\uD83D" })).toEqual(["face"]);
    expect(validator.violation({ faces: "😀a" })).toEqual(["faces"]);
  });

  it("a pattern JavaScript refuses with the u flag is USAGE naming it and where it is, though RE2 takes it (stop 40)", () => {
    const refusal = (schema: Parameters<typeof createStateValidator>[0]) => {
      try {
        createStateValidator(schema);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    expect(
      refusal({ type: "object", properties: { gap: { type: "string", pattern: "^x\\-$" } } }),
    ).toMatchObject({
      code: "USAGE",
      message: expect.stringMatching(
        /^invalid stateSchema at \/properties\/gap\/pattern: the pattern "\^x\\\\-\$" is not a valid regular expression \(Invalid escape\)/,
      ),
    });
    expect(refusal({ type: "object", patternProperties: { "]": { type: "number" } } })).toMatchObject({
      code: "USAGE",
      message: expect.stringContaining(
        'invalid stateSchema at /patternProperties/]: the pattern "]" is not a valid',
      ),
    });
  });
});
