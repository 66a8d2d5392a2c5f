import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatExpression } from "./format-expression.js";
import { formatOutputPath } from "./format-output-path.js";
import { formatReference } from "./format-path.js";
import type { InputExpression, OutputTarget, Reference } from "./language-ast.js";
import { parseExpression } from "./parse-expression.js";
import { parseOutputPath } from "./parse-output-path.js";
import { parseParameterString } from "./parse-parameter-string.js";
import { parseReference } from "./parse-reference.js";
import { FORBIDDEN_SEGMENTS, type Path, type PathSegment } from "./path.js";
import { pathsOverlap } from "./paths-overlap.js";

const notForbidden = (segment: PathSegment) =>
  typeof segment === "number" || !FORBIDDEN_SEGMENTS.has(segment);
const nameArb = fc.stringMatching(/^[A-Za-z_$][A-Za-z0-9_$-]{0,8}$/);
const keyArb = fc.oneof(
  nameArb,
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.constantFrom("0", "a b", "-1", ""),
);
const indexArb = fc.integer({ min: -1_000_000, max: 1_000_000 });
const segmentArb: fc.Arbitrary<PathSegment> = fc.oneof(keyArb, indexArb).filter(notForbidden);
const pathArb = fc.array(segmentArb, { maxLength: 6 });
const kindArb = fc.constantFrom("input", "state", "calls");
const referenceArb: fc.Arbitrary<Reference> = fc
  .tuple(kindArb, pathArb)
  .map(([kind, path]) => ({ kind, path, text: formatReference(kind, path) }));
const expressionArb: fc.Arbitrary<InputExpression> = fc
  .array(fc.array(referenceArb, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 })
  .map((alternatives) => ({ alternatives }));
const writePathArb: fc.Arbitrary<Path> = fc
  .tuple(keyArb, fc.array(fc.oneof(keyArb, fc.nat({ max: 1000 })), { maxLength: 5 }))
  .map(([first, rest]) => [first, ...rest])
  .filter((path) => path.every(notForbidden));
const targetArb: fc.Arbitrary<OutputTarget> = writePathArb.map((path) => ({
  kind: "state",
  path,
  text: formatReference("state", path),
}));
const distinctTargets = (targets: readonly OutputTarget[]) =>
  targets.every((target, i) =>
    targets.slice(0, i).every((earlier) => !pathsOverlap(earlier.path, target.path)),
  );
const alternativesArb = fc.array(
  fc.array(targetArb, { minLength: 1, maxLength: 3 }).filter(distinctTargets),
  {
    minLength: 1,
    maxLength: 3,
  },
);

const grammarPieces = [
  "†",
  "††",
  "{†",
  "{††",
  "}",
  "{",
  "state",
  "input",
  "calls",
  "stat",
  ".",
  "[",
  "]",
  '"',
  "\\",
  "\\u00",
  "-",
  "0",
  "9",
  "12",
  "a",
  "_",
  "$",
  "|",
  "||",
  "&&",
  "<|>",
  "*>",
  "&",
  " ",
  "\t",
  "__proto__",
  "constructor",
  "†state.",
  "$tool_output.",
  "é",
  "\u{1F600}",
  "\ud800",
];
const grammarStringArb = fc
  .array(fc.constantFrom(...grammarPieces), { maxLength: 16 })
  .map((p) => p.join(""));
const anyStringArb = fc.oneof(fc.string(), fc.string({ unit: "binary" }), grammarStringArb);

const parsers = { parseReference, parseExpression, parseParameterString, parseOutputPath };

describe("plan-language parsers (properties)", () => {
  it("round-trip generated references", () => {
    fc.assert(
      fc.property(referenceArb, (reference) => {
        expect(parseReference(formatReference(reference.kind, reference.path))).toEqual({
          ok: true,
          value: reference,
        });
      }),
    );
  });

  it("round-trip generated expressions, also as whole parameter strings", () => {
    fc.assert(
      fc.property(expressionArb, (expression) => {
        const text = formatExpression(expression);
        expect(parseExpression(text)).toEqual({ ok: true, value: expression });
        expect(parseParameterString(text)).toEqual({ ok: true, value: { type: "reference", expression } });
      }),
    );
  });

  it("round-trip generated templates", () => {
    const literalArb = fc.string({ minLength: 1 }).filter((s) => !s.includes("†") && !s.includes("{"));
    fc.assert(
      fc.property(literalArb, expressionArb, literalArb, (before, expression, after) => {
        const text = `${before}{${formatExpression(expression)}}${after}`;
        expect(parseParameterString(text)).toEqual({
          ok: true,
          value: { type: "template", parts: [before, expression, after] },
        });
      }),
    );
  });

  it("keep dagger-free strings as literals", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        fc.pre(!text.includes("†") && !text.startsWith("$tool_output."));
        expect(parseParameterString(text)).toEqual({
          ok: true,
          value: { type: "literal", value: text, suspicious: false },
        });
      }),
    );
  });

  it("round-trip generated output paths", () => {
    fc.assert(
      fc.property(alternativesArb, (alternatives) => {
        const text = formatOutputPath({ alternatives });
        expect(parseOutputPath(text)).toEqual({ ok: true, value: { alternatives, text } });
      }),
    );
  });

  it("format(parse(s)) is canonical and stable for any parsable string", () => {
    fc.assert(
      fc.property(anyStringArb, (text) => {
        const reference = parseReference(text);
        if (reference.ok) {
          expect(reference.value.text).toBe(formatReference(reference.value.kind, reference.value.path));
          expect(parseReference(reference.value.text)).toEqual(reference);
        }
        const expression = parseExpression(text);
        if (expression.ok) expect(parseExpression(formatExpression(expression.value))).toEqual(expression);
        const outputPath = parseOutputPath(text);
        if (outputPath.ok) {
          expect(outputPath.value.text).toBe(formatOutputPath(outputPath.value));
          expect(parseOutputPath(outputPath.value.text)).toEqual(outputPath);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("never throw, and report offsets inside the text", () => {
    fc.assert(
      fc.property(anyStringArb, fc.integer({ min: 0, max: 40 }), (text, maxPathDepth) => {
        for (const parse of Object.values(parsers)) {
          const result = parse(text, undefined, { maxPathDepth });
          if (!result.ok) {
            expect(result.issue.offset).toBeGreaterThanOrEqual(0);
            expect(result.issue.offset).toBeLessThanOrEqual(text.length);
          }
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("never accept a forbidden segment or a path deeper than the limit", () => {
    const hostileArb = fc
      .array(
        fc.constantFrom(".a", "[0]", ".__proto__", '["constructor"]', ".prototype", '["\\u005f_proto__"]'),
        {
          maxLength: 8,
        },
      )
      .map((segments) => `†state${segments.join("")}`);
    fc.assert(
      fc.property(
        fc.oneof(hostileArb, grammarStringArb),
        fc.integer({ min: 0, max: 6 }),
        (text, maxPathDepth) => {
          const result = parseReference(text, undefined, { maxPathDepth });
          if (result.ok) {
            expect(result.value.path.length).toBeLessThanOrEqual(maxPathDepth);
            expect(result.value.path.every(notForbidden)).toBe(true);
          }
        },
      ),
    );
  });
});
