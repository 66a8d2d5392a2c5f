import type { Diagnostic } from "@obelisk/core";
import { createKindTable, parseOutputPath } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { batchAndStreamed } from "./__fixtures__/batch-and-streamed.js";
import { exampleTools } from "./__fixtures__/tools.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry(exampleTools);
const hints = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => `${d.code}: ${d.hint ?? ""}`);
const kinds = createKindTable();

/**
 * What stands for the dagger, and what does not: the rows of core's `sigil-lookalike.test.ts` (decision
 * 0108). Before, a lone `\` was no look-alike here while core's `_outputPath` took it
 * for one, and core took a quote, `]` and a control character for one while this layer did not.
 */
const LOOKALIKES = [
  "\u2021",
  "+",
  "-",
  "@",
  "#",
  "*",
  "%",
  "~",
  "|",
  "`",
  "&",
  "\\",
  "&dagger;",
  "\\u2020",
  "\u007f",
  "\u00a0",
  "\u{1F600}",
];
const NOT_LOOKALIKES = ["'", '"', "]", "[", "{", "}", ".", " ", "\t", "\u000b", "\u0000", "_", "a", "Z", "1"];

/** The hint core's `_outputPath` parser gives for `text`, or "" (parsed, or no hint). */
const outputPathHint = (text: string) => {
  const parsed = parseOutputPath(text, kinds);
  return parsed.ok ? "" : (parsed.issue.hint ?? "");
};

describe("a literal, an _outputPath and its list form judge a look-alike of the dagger alike (decision 0108)", () => {
  const context = { state: {}, input: { userId: "u1" } };

  it.each(LOOKALIKES)("%j before known data: did you mean the reference, in every layer", (sigil) => {
    expect(
      hints(
        batchAndStreamed(registry, [{ _tool: "log", message: `${sigil}input.userId` }], context, (d) => d),
      ),
    ).toEqual(['REF_SUSPICIOUS: did you mean "†input.userId"?']);
    expect(outputPathHint(`${sigil}state.user`)).toBe(
      'did you mean "†state.user"? (every reference starts with "†")',
    );
    const listed = { _tool: "log", message: "m", _outputPath: [`${sigil}state.a`, "†state.b"] };
    expect(hints(batchAndStreamed(registry, [listed], context, (d) => d))).toEqual([
      'OUTPUT_PATH_SYNTAX: write one string: "_outputPath": "†state.a && †state.b" ("&&" writes the output to every target)',
    ]);
  });

  it.each(NOT_LOOKALIKES)("%j before known data: no dagger hint, in any layer", (sigil) => {
    expect(
      hints(
        batchAndStreamed(registry, [{ _tool: "log", message: `${sigil}input.userId` }], context, (d) => d),
      ),
    ).toEqual([]);
    expect(outputPathHint(`${sigil}state.user`)).not.toContain('"†state.user"');
  });
});
