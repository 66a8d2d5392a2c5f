import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolvePointer } from "./json-pointer.js";
import { parsePlanText } from "./parse-plan-text.js";

const smallLimits = { maxDepth: 4, maxStringLength: 6, maxCalls: 3 };
const planish = fc.oneof(
  fc.jsonValue(),
  fc.record({ type: fc.constantFrom("plan", "input"), plan: fc.jsonValue() }, { requiredKeys: [] }),
  fc.record(
    { calls: fc.array(fc.jsonValue()), id: fc.jsonValue(), description: fc.jsonValue() },
    { requiredKeys: [] },
  ),
);

describe("parsePlanText (properties)", () => {
  it("never throws on arbitrary text", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json().map((json) => json.slice(0, -1)),
        ),
        (text) => {
          const result = parsePlanText(text, { limits: smallLimits });
          expect(Array.isArray(result.diagnostics)).toBe(true);
        },
      ),
    );
  });

  it("agrees with JSON.parse on what is syntactically valid", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.json().map((json) => `${json} `),
        ),
        (text) => {
          let valid = true;
          try {
            JSON.parse(text);
          } catch {
            valid = false;
          }
          const syntax = parsePlanText(text).diagnostics.some((d) => d.code === "JSON_SYNTAX");
          expect(syntax).toBe(!valid);
        },
      ),
    );
  });

  it("gives diagnostic pointers that resolve in the submitted document", () => {
    fc.assert(
      fc.property(planish, (value) => {
        const text = JSON.stringify(value);
        const result = parsePlanText(text, { limits: smallLimits });
        const parsed: unknown = JSON.parse(text);
        for (const diagnostic of result.diagnostics) {
          expect(resolvePointer(parsed, diagnostic.pointer).found).toBe(true);
          expect(result.sourceMap?.positionOf(diagnostic.pointer)).toBeDefined();
        }
        if (result.document) expect(result.document.source).toEqual(parsed);
      }),
    );
  });
});
