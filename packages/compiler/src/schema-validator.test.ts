import type { JsonObject } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { literalIssues } from "./schema-issues.js";
import {
  completeCheckOf,
  createSchemaCompiler,
  MAX_COLLECTED_ERRORS,
  type SchemaIssue,
} from "./schema-validator.js";

const person: JsonObject = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };

describe("createSchemaCompiler", () => {
  it("gives every compiler the same verdicts for the same schema text", () => {
    const first = createSchemaCompiler().lazyCheck(person, "a");
    const second = createSchemaCompiler().lazyCheck(structuredClone(person), "b");
    for (const check of [first, second]) {
      expect(check({ name: "Ada" })).toEqual([]);
      expect(check({})).toEqual([expect.objectContaining({ keyword: "required", instancePath: "" })]);
    }
  });

  it("keeps schemas that differ apart, even when they differ only deep inside", () => {
    const strict = createSchemaCompiler().lazyCheck({ ...person, additionalProperties: false }, "strict");
    const loose = createSchemaCompiler().lazyCheck(person, "loose");
    expect(strict({ name: "Ada", age: 3 })).toHaveLength(1);
    expect(loose({ name: "Ada", age: 3 })).toEqual([]);
  });

  it("compiles schemas with an $id in each compiler's own instance: two engines may use the same $id", () => {
    const withId = (type: string): JsonObject => ({ $id: "https://example.com/thing", type });
    const asString = createSchemaCompiler().lazyCheck(withId("string"), "s");
    const asNumber = createSchemaCompiler().lazyCheck(withId("number"), "n");
    expect(asString("x")).toEqual([]);
    expect(asNumber(1)).toEqual([]);
    expect(asNumber("x")).toEqual([expect.objectContaining({ keyword: "type" })]);
  });

  it("resolves a $ref to another schema of the same compiler by its $id", () => {
    const compiler = createSchemaCompiler();
    const id = compiler.lazyCheck({ $id: "https://example.com/id", type: "integer" }, "id");
    expect(id(1)).toEqual([]);
    const holder = compiler.lazyCheck(
      { type: "object", properties: { id: { $ref: "https://example.com/id" } } },
      "h",
    );
    expect(holder({ id: 2 })).toEqual([]);
    expect(holder({ id: "x" })).toEqual([expect.objectContaining({ instancePath: "/id" })]);
  });

  it("refuses a schema that is not one (USAGE), before anything is compiled", () => {
    expect(() => createSchemaCompiler().assertValid({ type: 3 } as unknown as JsonObject, "bad")).toThrow(
      expect.objectContaining({ code: "USAGE" }),
    );
  });

  it("refuses an async schema (a truthy $async, as ajv reads it) at registration: its check would answer a promise", () => {
    for (const $async of [true, 1, "yes", {}]) {
      const schema = { $async, type: "object", properties: { n: { type: "number" } } } as JsonObject;
      expect(() => createSchemaCompiler().assertValid(schema, "tool input")).toThrow(
        expect.objectContaining({ code: "USAGE", hint: expect.stringContaining("remove $async") }),
      );
    }
    const sync = { $async: false, type: "object", properties: { n: { type: "number" } } };
    expect(() => createSchemaCompiler().assertValid(sync, "tool input")).not.toThrow();
  });

  it("a schema whose text looks like ajv's code for an added error still compiles and checks (decision 0085)", () => {
    const code = "{vErrors.push(err0);}errors++;";
    const schema = { type: "object", properties: { mode: { enum: [code, "b"] }, [code]: { const: code } } };
    const compiler = createSchemaCompiler();
    compiler.assertValid(schema, "tool input");
    const check = compiler.lazyCheck(schema, "tool input");
    expect(check({ mode: "b", [code]: code })).toEqual([]);
    expect(check({ mode: "c" })).toEqual([expect.objectContaining({ instancePath: "/mode" })]);
  });

  it("a schema the meta-check cannot even walk (a cycle) is USAGE with the reason and a hint", () => {
    const cyclic: Record<string, unknown> = { type: "object", properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    expect(() => createSchemaCompiler().assertValid(cyclic as JsonObject, "tool input")).toThrow(
      expect.objectContaining({
        code: "USAGE",
        message: expect.stringMatching(/^tool input is not a valid JSON Schema: ./),
        hint: expect.stringContaining('no cycles (use "$ref"'),
      }),
    );
  });

  it("stops collecting past MAX_COLLECTED_ERRORS where the first ones are certain, else checks in full", () => {
    const check = createSchemaCompiler().lazyCheck(
      { type: "object", properties: { xs: { type: "array", items: { type: "string" } } } },
      "xs",
    );
    const many = Array.from({ length: 3 * MAX_COLLECTED_ERRORS }, (_, i) => i);
    const issues = check({ xs: many });
    // The errors of the last value collected are left out: more of that value could follow.
    expect(issues).toHaveLength(MAX_COLLECTED_ERRORS);
    expect(issues.map((issue) => issue.instancePath)).toEqual(
      many.slice(0, MAX_COLLECTED_ERRORS).map((i) => `/xs/${i}`),
    );
    const complete = completeCheckOf(issues)?.();
    expect(complete).toHaveLength(many.length);
    expect(complete?.slice(0, issues.length)).toEqual(issues);
    // A later check of a valid value is not affected; a check under the limit is complete.
    expect(check({ xs: ["a"] })).toEqual([]);
    const few = check({ xs: [1, 2] });
    expect(few).toHaveLength(2);
    expect(completeCheckOf(few)).toBeUndefined();

    // It does not stop where a later step could take errors back or read them otherwise: checks in full.
    const compiler = createSchemaCompiler();
    const numbers = Array.from({ length: 2 * MAX_COLLECTED_ERRORS }, (_, i) => i);
    const strings = { type: "array", items: { type: "string" } };
    // The first branch refuses every item, the second takes them all: valid.
    const either = compiler.lazyCheck(
      { anyOf: [strings, { type: "array", items: { type: "number" } }] },
      "e",
    );
    expect(either(numbers)).toEqual([]);
    // Two branches the value's type does not tell apart: either may be the one read (see below).
    const arrays = compiler.lazyCheck({ anyOf: [strings, { type: "array", maxItems: 1 }] }, "a");
    const both = arrays(numbers);
    expect(both).toHaveLength(numbers.length + 2);
    expect(completeCheckOf(both)).toBeUndefined();
    // Through a reference ajv writes the target's path: its errors' places are unknown.
    const referred = compiler.lazyCheck({ $defs: { s: strings }, $ref: "#/$defs/s" }, "r");
    expect(referred(numbers)).toHaveLength(numbers.length);
    // A recursive target is a function of its own, and it is the one that stops.
    const node = { type: "object", properties: { xs: strings, next: { $ref: "#/$defs/node" } } };
    const recursive = compiler.lazyCheck({ $defs: { node }, $ref: "#/$defs/node" }, "node");
    expect(recursive({ next: { xs: numbers } })).toHaveLength(numbers.length);
  });

  it("stops under a combinator whose branch the value's type decides, with the errors that will close it (stop 39)", () => {
    const compiler = createSchemaCompiler();
    const numbers = Array.from({ length: 2 * MAX_COLLECTED_ERRORS }, (_, i) => i);
    const strings = { type: "array", items: { type: "string" } };
    const text = (issues: readonly SchemaIssue[]): string[] =>
      issues.map((issue) => `${issue.instancePath} ${issue.schemaPath} ${issue.message}`);
    // zod's .nullable(): an array is not null, so the array branch's errors are the violations
    for (const anyOf of [
      [strings, { type: "null" }],
      [{ type: "null" }, strings],
    ]) {
      const issues = compiler.lazyCheck(
        { type: "object", properties: { xs: { anyOf } } },
        "n",
      )({ xs: numbers });
      const complete = completeCheckOf(issues)?.() ?? [];
      expect(complete).toHaveLength(numbers.length + 2);
      // its first errors, then the ones ajv adds when the combinator ends: the null branch's, the anyOf's
      const closing = text(complete.slice(-2));
      const nullFirst = anyOf[0]?.type === "null";
      expect(text(issues)).toEqual([
        ...text(complete.slice(0, MAX_COLLECTED_ERRORS)),
        ...closing.slice(nullFirst ? 1 : 0),
      ]);
      const kept = literalIssues(issues, []);
      expect(kept).toHaveLength(MAX_COLLECTED_ERRORS - (nullFirst ? 1 : 0));
      expect(kept).toEqual(literalIssues(complete, []).slice(0, kept.length));
    }
    // Items of a nullable object (each combinator ends before the next item's): null items pass, a string
    // is refused by both branches (one anyOf violation), a wrong object's field is the violation.
    const objects = {
      type: "array",
      items: { anyOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "null" }] },
    };
    const items = Array.from({ length: MAX_COLLECTED_ERRORS }, (_, i) => [null, { a: i }, "s"][i % 3]);
    const issues = compiler.lazyCheck(objects, "o")(items);
    const complete = completeCheckOf(issues)?.() ?? [];
    expect(complete.length).toBeGreaterThan(MAX_COLLECTED_ERRORS);
    expect(issues.length).toBeLessThanOrEqual(MAX_COLLECTED_ERRORS);
    expect(text(issues)).toEqual(text(complete.slice(0, issues.length)));
    const kept = literalIssues(issues, []);
    expect(text(kept.slice(0, 2))).toEqual([
      "/1/a #/items/anyOf/0/properties/a/type must be string",
      "/2 #/items/anyOf must match a schema in anyOf",
    ]);
    expect(kept).toEqual(literalIssues(complete, []).slice(0, kept.length));
  });

  it("a stopped check of a schema with formats keeps each pattern error with its format error", () => {
    const email = { type: "string", format: "email", pattern: "^[a-z]+@[a-z]+\\.[a-z]+$" };
    const check = createSchemaCompiler().lazyCheck({ type: "array", items: email }, "emails");
    const issues = check(Array.from({ length: MAX_COLLECTED_ERRORS }, () => "no"));
    expect(completeCheckOf(issues)).toBeDefined();
    expect(issues).toHaveLength(MAX_COLLECTED_ERRORS);
    expect(issues.slice(0, 2).map((issue) => `${issue.instancePath} ${issue.keyword}`)).toEqual([
      "/0 pattern",
      "/0 format",
    ]);
    // A pattern error whose value's format passes may meet a format error elsewhere later: in full.
    const lone = createSchemaCompiler().lazyCheck(
      { type: "array", items: { type: "string", pattern: "^a$" }, contains: { format: "email" } },
      "lone",
    );
    expect(
      completeCheckOf(lone(Array.from({ length: MAX_COLLECTED_ERRORS + 5 }, () => "b"))),
    ).toBeUndefined();
  });
});
