import { describe, expect, it } from "vitest";
import { REFERENCE_STRING_SCHEMA } from "./reference-string-schema.js";

const pattern = REFERENCE_STRING_SCHEMA.pattern as string;

/**
 * The pattern as llama.cpp's JSON-Schema-to-grammar converter reads it (examples/json_schema_to_grammar.py):
 * an unanchored pattern gets `.*` written before and after its text, ungrouped, and the grammar matches the
 * whole string.
 */
const asGrammarReadsIt = new RegExp(`^(?:.*${pattern}.*)$`, "u");

describe("REFERENCE_STRING_SCHEMA's pattern (decision 0096)", () => {
  it.each([
    ["†state.user.name", true],
    ["†a || †b", true],
    ["Hello {†input.name}!", true],
    ["$tool_output.c1.x", true],
    ["†", false],
    ["plain text", false],
  ])("%s: a grammar that adds .* at the ends takes what the pattern takes (%s)", (text, taken) => {
    expect(new RegExp(pattern, "u").test(text)).toBe(taken);
    expect(asGrammarReadsIt.test(text)).toBe(taken);
  });
});
