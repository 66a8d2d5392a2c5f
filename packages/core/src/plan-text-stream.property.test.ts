import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonValue } from "./json-value.js";
import type { LimitOverrides } from "./limits.js";
import { ObeliskError } from "./obelisk-error.js";
import { parsePlanText } from "./parse-plan-text.js";
import { createPlanTextStream } from "./plan-text-stream.js";
import { utf8Length } from "./utf8-length.js";

/** Strings with what is hard to split: escapes, quotes, brackets, surrogate pairs, †, line separators. */
const tricky = fc.oneof(
  fc.string({ unit: "binary", maxLength: 12 }),
  fc
    .array(
      fc.constantFrom('"', "\\", "\\u00e9", "†", "\ud83d\ude00", "\u2028", "\n", "}", "]", "{[", ":", ","),
      {
        maxLength: 8,
      },
    )
    .map((parts) => parts.join("")),
);
const value = fc.jsonValue({ maxDepth: 3, stringUnit: "binary" });
const parameter = fc.oneof(value, tricky);
const parameterName = fc
  .oneof(tricky, fc.constantFrom("__proto__", "x", "†"))
  .filter((name) => !name.startsWith("_") && !["type", "plan", "calls"].includes(name));
const call = fc
  .tuple(tricky, fc.array(fc.tuple(parameterName, parameter), { maxLength: 4 }))
  .map(([tool, parameters]) => {
    const built: Record<string, unknown> = { _tool: tool };
    for (const [name, parameterValue] of parameters)
      Object.defineProperty(built, name, {
        value: parameterValue,
        enumerable: true,
        configurable: true,
        writable: true,
      });
    return built;
  });
const calls = fc.array(fc.oneof({ weight: 4, arbitrary: call }, { weight: 1, arbitrary: value }), {
  maxLength: 6,
});

/** A plan document's members in any order, the call list among them. */
const planDocument = fc
  .tuple(
    calls,
    fc.shuffledSubarray(["type", "id", "description", "inputSchema", "$schema"]),
    fc.nat(5),
    tricky,
  )
  .map(([list, names, listAt, text]) => {
    const entries: [string, unknown][] = names.map((name) => [
      name,
      name === "type" ? "plan" : name === "inputSchema" ? { type: "object", description: text } : text,
    ]);
    entries.splice(Math.min(listAt, entries.length), 0, ["plan", list]);
    return Object.fromEntries(entries);
  });
const plan: fc.Arbitrary<{ readonly document: unknown; readonly calls: (parsed: unknown) => unknown[] }> =
  fc.oneof(
    calls.map((list) => ({ document: list, calls: (parsed: unknown) => parsed as unknown[] })),
    planDocument.map((document) => ({
      document,
      calls: (parsed: unknown) => (parsed as { plan: unknown[] }).plan,
    })),
    calls.map((list) => ({
      document: { calls: list },
      calls: (parsed: unknown) => (parsed as { calls: unknown[] }).calls,
    })),
    call.map((one) => ({ document: one, calls: (parsed: unknown) => [parsed] })),
  );
/** JSON text as an LLM writes it: compact or indented, LF or CRLF, maybe in a fence after prose. */
const planText = fc
  .tuple(
    plan,
    fc.constantFrom(undefined, 2, "\t"),
    fc.boolean(),
    fc.constantFrom("", "```json\n", "Plan: \r\n```\n"),
  )
  .map(([{ document, calls: callsOf }, indent, crlf, before]) => {
    const json = JSON.stringify(document, null, indent);
    const text = `${before}${crlf ? json.replaceAll("\n", "\r\n") : json}${before === "" ? "" : "\n```\nDone."}`;
    return { text, expected: callsOf(JSON.parse(json)) };
  });
/** Offsets to cut the text at (any, including inside a surrogate pair). */
const cuts = fc.array(fc.nat(), { maxLength: 40 });

function chunksOf(text: string, offsets: readonly number[]): string[] {
  const points = [...new Set(offsets.map((offset) => offset % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let from = 0;
  for (const point of [...points, text.length]) {
    chunks.push(text.slice(from, point));
    from = point;
  }
  return chunks;
}

/** Everything the stream tells for these chunks: the calls in order, then the end or the error. */
function outcome(
  chunks: readonly string[],
  limits: LimitOverrides = {},
): { calls: JsonValue[]; end?: unknown; error?: unknown } {
  const stream = createPlanTextStream({ limits });
  const yielded: JsonValue[] = [];
  try {
    for (const chunk of chunks) yielded.push(...stream.push(chunk));
    return { calls: yielded, end: stream.end() };
  } catch (error) {
    if (!ObeliskError.is(error)) throw error;
    return { calls: yielded, error: { code: error.code, message: error.message, data: error.data } };
  }
}

describe("createPlanTextStream (properties)", () => {
  it("every split of a valid plan yields exactly JSON.parse's calls, in order", () => {
    fc.assert(
      fc.property(planText, cuts, ({ text, expected }, offsets) => {
        const { calls: yielded, end, error } = outcome(chunksOf(text, offsets));
        expect(error).toBeUndefined();
        expect(yielded).toEqual(expected);
        expect(end).toMatchObject({ calls: expected.length });
      }),
      { numRuns: 300 },
    );
  });

  it("on any text, valid or not, the outcome does not depend on the split and nothing else is thrown", () => {
    const mutated = fc
      .tuple(planText, fc.nat(), fc.constantFrom("", '"', "\\", "{", "}", "]", ",", ":", "x"))
      .map(([{ text }, at, insert]) => {
        const cut = at % (text.length + 1);
        return text.slice(0, cut) + insert + text.slice(cut + (insert === "" ? 1 : 0));
      });
    const anyText = fc.oneof(
      mutated,
      fc.string({ unit: "binary" }),
      planText.map(({ text }) => text.slice(0, -3)),
    );
    fc.assert(
      fc.property(anyText, cuts, (text, offsets) => {
        expect(outcome(chunksOf(text, offsets))).toEqual(outcome([text]));
      }),
      { numRuns: 500 },
    );
  });

  it("a text run accepts as a plan streams the calls run would run", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          planText.map(({ text }) => text),
          fc.json(),
        ),
        cuts,
        (text, offsets) => {
          const whole = parsePlanText(text);
          fc.pre(whole.document !== undefined && whole.diagnostics.length === 0);
          const { calls: yielded, error } = outcome(chunksOf(text, offsets));
          expect(error).toBeUndefined();
          expect(yielded).toEqual(whole.document?.calls.map((source) => source.value));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("under any limits, a plan's text is refused by the stream exactly when run refuses it, with the same code", () => {
    const bare = fc
      .tuple(plan, fc.constantFrom(undefined, 1), fc.constantFrom("", " \n"))
      .map(([{ document }, indent, blanks]) => `${blanks}${JSON.stringify(document, null, indent)}${blanks}`);
    const limits = fc.record({
      maxDepth: fc.integer({ min: 1, max: 7 }),
      maxCalls: fc.integer({ min: 0, max: 6 }),
      maxStringLength: fc.integer({ min: 0, max: 24 }),
      bytesOver: fc.integer({ min: -3, max: 3 }),
    });
    fc.assert(
      fc.property(bare, limits, cuts, (text, { bytesOver, ...rest }, offsets) => {
        const given = { ...rest, maxDocumentBytes: Math.max(0, utf8Length(text) + bytesOver) };
        const whole = parsePlanText(text, { limits: given }).diagnostics[0];
        const { error } = outcome(chunksOf(text, offsets), given);
        expect((error as { code?: string } | undefined)?.code).toBe(whole?.code);
      }),
      { numRuns: 400 },
    );
  });
});
