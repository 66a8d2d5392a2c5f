import type { JsonObject, JsonValue } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { InputChecker } from "./check-input.js";
import { normalizeInput } from "./normalize-input.js";

const found = (schema: JsonObject, input: JsonValue) =>
  new InputChecker()
    .check(normalizeInput(input), schema)
    .map((d) => ({ code: d.code, pointer: d.pointer, message: d.message }));

describe("a plan inputSchema's patterns mean what JSON Schema (ECMA-262, u flag) says, on RE2 (stop 40)", () => {
  it.each([
    ["\\-", "^x\\-$", "Invalid escape"],
    ["a lone ]", "]", "Lone quantifier brackets"],
    ["a lone {", "a{", "Incomplete quantifier"],
    ["\\x{41}", "^\\x{41}$", "Invalid escape"],
    ["(?i)", "(?i)a", "Invalid group"],
  ])(
    "a pattern JavaScript refuses but RE2 takes (%s) is PLAN_SHAPE at the pattern",
    (_label, pattern, reason) => {
      expect(found({ properties: { s: { pattern } } }, { s: "x" })).toEqual([
        {
          code: "PLAN_SHAPE",
          pointer: "/inputSchema/properties/s/pattern",
          message: expect.stringContaining(
            `the pattern ${JSON.stringify(pattern)} is not a valid regular expression (${reason})`,
          ),
        },
      ]);
    },
  );

  it("a surrogate pair written as two \\u escapes matches the character it writes", () => {
    const schema = { properties: { s: { pattern: "^\\uD83D\\uDE00$" } } };
    expect(found(schema, { s: "😀" })).toEqual([]);
    expect(found(schema, { s: "\uD83D" }).map((d) => [d.code, d.pointer])).toEqual([
      ["PARAM_INVALID", "/inputSchema/properties/s/pattern"],
    ]);
  });
});
