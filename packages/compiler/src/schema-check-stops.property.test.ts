import type { JsonObject } from "@obelisk/core";
import { Ajv2020 } from "ajv/dist/2020.js";
import formatsModule from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { literalIssues } from "./schema-issues.js";
import {
  completeCheckOf,
  createSchemaCompiler,
  MAX_COLLECTED_ERRORS,
  type SchemaCheck,
  type SchemaIssue,
} from "./schema-validator.js";

/** ajv as it was configured before checks could stop: every error, always. */
const reference = new Ajv2020({ allErrors: true, strict: false, strictTuples: false });
formatsModule.default(reference);

/** Item schemas: plain ones, and ones under keywords whose errors a later step takes back or reads again. */
const ITEM_SCHEMAS: readonly JsonObject[] = [
  { type: "string" },
  { type: "string", minLength: 2, pattern: "^a+$" },
  { type: "string", format: "email", pattern: "^[a-z]+@[a-z]+$" },
  { type: "object", properties: { k: { const: 1 } }, required: ["k"], additionalProperties: false },
  { enum: ["a", "aa", 1] },
  { allOf: [{ type: "string" }, { maxLength: 1 }] },
  { anyOf: [{ type: "string" }, { type: "null" }] },
  { oneOf: [{ type: "number" }, { type: "integer" }] },
  // zod's .nullable() object: the object branch's errors are read when the item is an object (stop 39)
  { anyOf: [{ type: "object", properties: { k: { const: 1 } }, required: ["k"] }, { type: "null" }] },
  { oneOf: [{ type: "boolean" }, { type: "string", pattern: "^a+$" }, { type: "integer", minimum: 5 }] },
  { not: { type: "number" } },
  // biome-ignore lint/suspicious/noThenProperty: a JSON Schema's if/then, not a thenable
  { if: { type: "number" }, then: { minimum: 5 }, else: { type: "string" } },
  { $ref: "#/$defs/word" },
];

/** The reference validators and the checks, by schema text (ajv compiles each schema object anew). */
const validators = new Map<string, ReturnType<typeof reference.compile>>();
const checks = new Map<string, SchemaCheck>();

/** Item values, each breaking some of the item schemas in one or more places. */
const ITEMS: readonly unknown[] = [
  0,
  7,
  1.5,
  "a",
  "aa",
  "b",
  "x@y",
  "",
  null,
  true,
  { k: 1 },
  { k: 2, q: 1 },
];

/** The array's schema, alone or as the first branch of an `anyOf`. */
function wrapped(array: JsonObject, wrapper: string): JsonObject {
  if (wrapper === "nullable") return { anyOf: [array, { type: "null" }] };
  if (wrapper === "null first") return { oneOf: [{ type: "null" }, array] };
  if (wrapper === "either") return { anyOf: [array, { type: "array" }] };
  return array;
}

/** True once in four. */
const rarely = fc.integer({ min: 0, max: 3 }).map((n) => n === 0);

const schemaArb = fc
  .record({
    // the first four settle: as often as the others together
    items: fc.oneof(fc.constantFrom(...ITEM_SCHEMAS.slice(0, 4)), fc.constantFrom(...ITEM_SCHEMAS.slice(4))),
    contains: rarely,
    // the array alone, or as a branch of an anyOf / oneOf: with null (its errors stay), or with any array
    // (they go)
    wrapper: fc.constantFrom("none", "none", "nullable", "null first", "either"),
    // open, closed, or a recursive definition (a function of its own, which is the one that stops)
    root: fc.constantFrom("open", "closed", "open", "closed", "recursive"),
  })
  .map(({ items, contains, wrapper, root }): JsonObject => {
    const array: JsonObject = {
      type: "array",
      items,
      ...(contains ? { contains: { type: "boolean" } } : {}),
    };
    const properties = { xs: wrapped(array, wrapper), n: { type: "number" }, ys: array };
    const word = { type: "string", pattern: "^[a-z]+$" };
    if (root === "recursive") {
      const node = { type: "object", properties: { ...properties, next: { $ref: "#/$defs/node" } } };
      return { $ref: "#/$defs/node", $defs: { word, node } };
    }
    return {
      type: "object",
      properties,
      ...(root === "closed" ? { additionalProperties: false } : {}),
      $defs: { word },
    };
  });

/** Arrays long enough to pass the stop: a short pattern of item values, repeated. */
const valueArb = fc
  .record({
    cycle: fc.array(fc.integer({ min: 0, max: ITEMS.length - 1 }), { minLength: 1, maxLength: 4 }),
    length: fc.integer({ min: MAX_COLLECTED_ERRORS / 2, max: MAX_COLLECTED_ERRORS }),
    n: fc.constantFrom(1, "one"),
    other: fc.boolean(),
  })
  .map(({ cycle, length, n, other }) => {
    const xs = Array.from({ length }, (_, i) => ITEMS[cycle[i % cycle.length] as number]);
    return { xs, n, ys: xs, ...(other ? { other: 1 } : {}) };
  });

/** One issue's text, to compare issues. */
const issueText = (x: SchemaIssue): string =>
  `${x.instancePath}\u0000${x.schemaPath}\u0000${x.keyword}\u0000${x.message}\u0000${JSON.stringify(x.params)}`;

/** How many first issues of `a` are those of `b`. */
function firstShared(a: readonly SchemaIssue[], b: readonly SchemaIssue[]): number {
  let at = 0;
  while (
    at < a.length &&
    at < b.length &&
    issueText(a[at] as SchemaIssue) === issueText(b[at] as SchemaIssue)
  )
    at++;
  return at;
}

/** Whether `a`'s issues are in `b`, in the same order. */
function isSubList(a: readonly SchemaIssue[], b: readonly SchemaIssue[]): boolean {
  let at = 0;
  for (const issue of b) if (at < a.length && issueText(issue) === issueText(a[at] as SchemaIssue)) at++;
  return at === a.length;
}

/** Whether two lists hold the same issues (a deep comparison of 10,000 issues takes seconds). */
function sameIssues(a: readonly SchemaIssue[], b: readonly SchemaIssue[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i] as SchemaIssue, b[i] as SchemaIssue];
    if (x.instancePath !== y.instancePath || x.schemaPath !== y.schemaPath || x.keyword !== y.keyword)
      return false;
    if (x.message !== y.message || JSON.stringify(x.params) !== JSON.stringify(y.params)) return false;
  }
  return true;
}

describe("a check that stops collecting errors (decision 0085)", () => {
  it("gives every error of the complete check, or its first ones, read the same by literalIssues", () => {
    const compiler = createSchemaCompiler();
    let stops = 0;
    let closings = 0;
    fc.assert(
      fc.property(schemaArb, valueArb, (schema, value) => {
        const text = JSON.stringify(schema);
        const validate = validators.get(text) ?? reference.compile(schema);
        validators.set(text, validate);
        const all = (validate(value) ? [] : (validate.errors ?? [])) as readonly SchemaIssue[];
        const check = checks.get(text) ?? compiler.lazyCheck(schema, "s");
        checks.set(text, check);
        const issues = check(value);
        const complete = completeCheckOf(issues);
        if (complete === undefined) {
          expect(sameIssues(issues, all)).toBe(true);
          return;
        }
        stops++;
        // The complete list's first issues, then the ones that close the combinators still running when the
        // check stopped (decision 0085, stop 39): these come later in it, in the same order.
        const first = firstShared(issues, all);
        expect(first).toBeGreaterThan(0);
        // (a few closing ones may be past the first 10,000, when they come next in the complete list)
        expect(issues.length).toBeLessThanOrEqual(MAX_COLLECTED_ERRORS + 10);
        if (first < issues.length) closings++;
        expect(isSubList(issues.slice(first), all.slice(first))).toBe(true);
        expect(sameIssues(complete(), all)).toBe(true);
        // Each issue collected is read as in the complete list: the kept ones are its first kept ones.
        const kept = literalIssues(issues, []);
        expect(kept.length).toBeGreaterThan(0);
        expect(sameIssues(kept, literalIssues(all, []).slice(0, kept.length))).toBe(true);
      }),
      { numRuns: 50, seed: 38 },
    );
    // The generators reach the stop often enough for the property to say something.
    expect(stops).toBeGreaterThan(3);
    expect(closings).toBeGreaterThan(0);
  }, 60_000);
});
