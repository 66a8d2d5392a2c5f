import type { Diagnostic } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import { compile } from "./compile.js";
import { createIncrementalCompiler } from "./incremental-compiler.js";
import { MAX_COLLECTED_ERRORS } from "./schema-validator.js";
import { createToolRegistry } from "./tool-registry.js";
import { MAX_LISTED_PER_CALL, MAX_LISTED_PER_PLAN } from "./violation-listing.js";

const strings = { type: "object", properties: { xs: { type: "array", items: { type: "string" } } } };
const registry = createToolRegistry([
  { name: "t", input: strings, run: () => 1 },
  { name: "later", input: { type: "object" }, output: strings },
]);

/** A plan document of `calls`. */
const plan = (calls: readonly unknown[]): unknown => ({ type: "plan", plan: calls });

/** A call of `t` whose `xs` holds `count` numbers where strings are required. */
const wrong = (count: number): Record<string, unknown> => ({
  _tool: "t",
  xs: Array.from({ length: count }, (_, i) => i),
});

const HINT = "fix the listed violations and validate again: the rest are often the same mistake";

describe("schema violations listed per call and per plan (decision 0076)", () => {
  it("lists a call's first 100 violations in order and counts the rest in one PARAM_INVALID at the call", () => {
    const compiled = compile(plan([wrong(250)]), registry);
    expect(compiled.ok).toBe(false);
    expect(compiled.diagnostics).toHaveLength(MAX_LISTED_PER_CALL + 1);
    // In document order the call comes before its parameters.
    const listed = compiled.diagnostics.slice(1);
    expect(listed.map((d) => d.pointer)).toEqual(listed.map((_, i) => `/plan/0/xs/${i}`));
    expect(
      listed.every(
        (d) => d.code === "PARAM_INVALID" && d.message === `xs/${d.pointer.slice(11)}: must be string`,
      ),
    ).toBe(true);
    expect(compiled.diagnostics[0]).toMatchObject({
      code: "PARAM_INVALID",
      severity: "error",
      pointer: "/plan/0",
      message:
        'the parameters break the input schema of tool "t" in 150 more places (the first 100 are listed)',
      hint: HINT,
    });
  });

  it("lists nothing more once the plan has listed 1,000: each later call gets one PARAM_INVALID counting its own", () => {
    const compiled = compile(plan(Array.from({ length: 25 }, () => wrong(50))), registry);
    const listedPerCall = MAX_LISTED_PER_PLAN / 50;
    expect(compiled.diagnostics).toHaveLength(MAX_LISTED_PER_PLAN + 25 - listedPerCall);
    const atCall = (d: Diagnostic): number => Number(d.pointer.split("/")[2]);
    expect(compiled.diagnostics.filter((d) => atCall(d) < listedPerCall)).toHaveLength(MAX_LISTED_PER_PLAN);
    const unlisted = compiled.diagnostics.filter((d) => atCall(d) >= listedPerCall);
    expect(unlisted.map((d) => d.pointer)).toEqual([20, 21, 22, 23, 24].map((i) => `/plan/${i}`));
    expect(unlisted[0]?.message).toBe(
      'the parameters break the input schema of tool "t" in 50 places (not listed: a plan lists its first 1,000)',
    );
  });

  it("counts a latent call's _output violations past 100 the same way", () => {
    const xs = Array.from({ length: 130 }, (_, i) => i);
    const compiled = compile(plan([{ _tool: "later", _output: { xs }, _outputPath: "†state.x" }]), registry);
    expect(compiled.diagnostics).toHaveLength(MAX_LISTED_PER_CALL + 1);
    expect(compiled.diagnostics[1]).toMatchObject({
      pointer: "/plan/0/_output/xs/0",
      message: "_output/xs/0: must be string",
    });
    expect(compiled.diagnostics[0]).toMatchObject({
      code: "PARAM_INVALID",
      pointer: "/plan/0/_output",
      message:
        '_output breaks the output schema of tool "later" in 30 more places (the first 100 are listed)',
    });
  });

  it("streams the same: each added call answers what it lists, and close gives the batch compile's diagnostics", () => {
    // Named: a refused streamed call gives its automatic id back (so every call here would be t$1).
    const calls = Array.from({ length: 23 }, (_, i) => ({ ...wrong(50), _id: `c${i}` }));
    const stream = createIncrementalCompiler(registry);
    const answers = calls.map((call) => stream.addCall(call).diagnostics.length);
    expect(answers).toEqual([...Array<number>(20).fill(50), 1, 1, 1]);
    expect(stream.close().diagnostics).toEqual(compile(plan(calls), registry).diagnostics);
  });
});

describe("one call's check stops collecting past 10,000 violations (decision 0085)", () => {
  const STOP = "; a check stops after 10,000 schema errors of one call";
  const huge = 3 * MAX_COLLECTED_ERRORS;

  it("lists the same first 100 and counts at least the rest it collected", () => {
    const compiled = compile(plan([wrong(huge)]), registry);
    expect(compiled.diagnostics).toHaveLength(MAX_LISTED_PER_CALL + 1);
    expect(compiled.diagnostics.slice(1).map((d) => d.pointer)).toEqual(
      Array.from({ length: MAX_LISTED_PER_CALL }, (_, i) => `/plan/0/xs/${i}`),
    );
    expect(compiled.diagnostics[0]).toMatchObject({
      code: "PARAM_INVALID",
      pointer: "/plan/0",
      message: `the parameters break the input schema of tool "t" in at least 9,900 more places (the first 100 are listed${STOP})`,
      hint: HINT,
    });
  });

  it("counts at least what it collected for a call past the plan's 1,000, and for a latent call's _output", () => {
    const calls = [...Array.from({ length: 10 }, () => wrong(MAX_LISTED_PER_CALL)), wrong(huge)];
    const compiled = compile(plan(calls), registry);
    expect(compiled.diagnostics.at(-1)).toMatchObject({
      pointer: "/plan/10",
      message: `the parameters break the input schema of tool "t" in at least 10,000 places (not listed: a plan lists its first 1,000${STOP})`,
    });
    const xs = Array.from({ length: huge }, (_, i) => i);
    const latent = compile(plan([{ _tool: "later", _output: { xs }, _outputPath: "†state.x" }]), registry);
    expect(latent.diagnostics).toHaveLength(MAX_LISTED_PER_CALL + 1);
    expect(latent.diagnostics[0]).toMatchObject({
      pointer: "/plan/0/_output",
      message: `_output breaks the output schema of tool "later" in at least 9,900 more places (the first 100 are listed${STOP})`,
    });
  });

  it("stops under zod's .nullable() (anyOf: array | null) as for a plain array: the array branch's items are listed", () => {
    // stop 39: the value is an array, so the null branch refuses it by its type and ajv's errors of the
    // array branch are certain (decision 0085 amended); before, every one of the 30,000 was built
    const items = { type: "array", items: { type: "string" } };
    const tools = createToolRegistry([
      {
        name: "t",
        input: { type: "object", properties: { xs: { anyOf: [items, { type: "null" }] } } },
        run: () => 1,
      },
    ]);
    const compiled = compile(plan([wrong(huge)]), tools);
    expect(compiled.diagnostics.map((d) => `${d.pointer} ${d.message}`)).toEqual([
      `/plan/0 the parameters break the input schema of tool "t" in at least 9,900 more places (the first 100 are listed${STOP})`,
      ...Array.from({ length: MAX_LISTED_PER_CALL }, (_, i) => `/plan/0/xs/${i} xs/${i}: must be string`),
    ]);
    // null passes; a value neither branch takes is one anyOf violation, as before
    expect(compile(plan([{ _tool: "t", xs: null }]), tools).diagnostics).toEqual([]);
    expect(compile(plan([{ _tool: "t", xs: 1 }]), tools).diagnostics.map((d) => d.message)).toEqual([
      "xs: must match a schema in anyOf",
    ]);
  });

  it("stops for zod's .startsWith() strings as for a plain pattern: their format never fails (review rev1, stop 39)", () => {
    // zod writes { format: "starts_with", pattern: "^y.*" }: a pattern error waited for a format error
    // that never comes, so such a check was always made in full
    const prefixed = { type: "string", format: "starts_with", pattern: "^y.*" };
    const tools = createToolRegistry([
      {
        name: "t",
        input: { type: "object", properties: { xs: { type: "array", items: prefixed } } },
        run: () => 1,
      },
    ]);
    const xs = Array.from({ length: huge }, (_, i) => `n${i}`);
    const compiled = compile(plan([{ _tool: "t", xs }]), tools);
    expect(compiled.diagnostics.map((d) => `${d.pointer} ${d.message}`)).toEqual([
      `/plan/0 the parameters break the input schema of tool "t" in at least 9,900 more places (the first 100 are listed${STOP})`,
      ...Array.from(
        { length: MAX_LISTED_PER_CALL },
        (_, i) => `/plan/0/xs/${i} xs/${i}: must match pattern "^y.*"`,
      ),
    ]);
  });

  it("a stop right after a running oneOf's first branch keeps none of its errors (review rev1, stop 39)", () => {
    // 9,999 wrong items, then xs = [1, 2, 3] under oneOf [null, string[]]: the stop falls right after the
    // null branch's type error, before the picked branch has any: that combinator is not settled yet
    const tools = createToolRegistry([
      {
        name: "t",
        input: {
          type: "object",
          properties: {
            pre: { type: "array", items: { type: "string" } },
            xs: { oneOf: [{ type: "null" }, { type: "array", items: { type: "string" } }] },
          },
        },
        run: () => 1,
      },
    ]);
    const pre = Array.from({ length: MAX_COLLECTED_ERRORS - 1 }, (_, i) => i);
    const compiled = compile(plan([{ _tool: "t", pre, xs: [1, 2, 3] }]), tools);
    // the 9,999 items' errors are kept, 100 listed; the oneOf's own error (which the complete reading drops
    // once its picked branch's errors come) is not counted as a violation
    expect(compiled.diagnostics.map((d) => `${d.pointer} ${d.message}`)).toEqual([
      `/plan/0 the parameters break the input schema of tool "t" in at least 9,899 more places (the first 100 are listed${STOP})`,
      ...Array.from({ length: MAX_LISTED_PER_CALL }, (_, i) => `/plan/0/pre/${i} pre/${i}: must be string`),
    ]);
  });

  it("checks in full under a combinator whose other branch the value's type does not refuse, until it has failed", () => {
    const items = { type: "array", items: { type: "string" } };
    const xs = { anyOf: [items, { type: "array", maxItems: 1 }] };
    const tools = createToolRegistry([
      { name: "t", input: { type: "object", properties: { xs } }, run: () => 1 },
    ]);
    const compiled = compile(plan([wrong(huge)]), tools);
    // both branches take an array: the anyOf is the one violation (its branches' errors are not read)
    expect(compiled.diagnostics.map((d) => `${d.pointer} ${d.message}`)).toEqual([
      "/plan/0/xs xs: must match a schema in anyOf",
    ]);
    // An item's anyOf that has failed is certain (one violation each: 60 + 1 + 1 errors); the check stops
    // in the 162nd item's, which is left out
    const listed = createToolRegistry([
      {
        name: "p",
        input: { type: "object", properties: { xs: { type: "array", items: xs } } },
        run: () => 1,
      },
    ]);
    const many = Array.from({ length: 300 }, () => Array<number>(60).fill(1));
    const counted = compile(plan([{ _tool: "p", xs: many }]), listed);
    expect(counted.diagnostics.map((d) => `${d.pointer} ${d.message}`).slice(0, 2)).toEqual([
      `/plan/0 the parameters break the input schema of tool "p" in at least 61 more places (the first 100 are listed${STOP})`,
      "/plan/0/xs/0 xs/0: must match a schema in anyOf",
    ]);
  });

  it("a latent call's _output whose certain violations fit the listing is checked in full: the rest are listed too", () => {
    // Item 0's anyOf ends after 6,001 errors (one violation); the check stops inside item 1's, whose branches
    // its type does not tell apart: the certain errors end before it, and hold 1 violation. Only the
    // complete check knows that item 1 is another.
    const either = {
      anyOf: [
        { type: "array", items: { type: "string" } },
        { type: "array", items: { type: "number" } },
      ],
    };
    const output = { type: "object", properties: { xs: { type: "array", items: either } } };
    const tools = createToolRegistry([{ name: "later", input: { type: "object" }, output }]);
    const xs = [Array<boolean>(3_000).fill(true), Array<boolean>(3_000).fill(true)];
    const compiled = compile(plan([{ _tool: "later", _output: { xs }, _outputPath: "†state.x" }]), tools);
    expect(compiled.diagnostics.map((d) => `${d.pointer} ${d.message}`)).toEqual([
      "/plan/0/_output/xs/0 _output/xs/0: must match a schema in anyOf",
      "/plan/0/_output/xs/1 _output/xs/1: must match a schema in anyOf",
    ]);
  });

  /** Compiles a call of tool "n" (a `number[]` parameter) given `ns`, whose references read `†state.a`. */
  function compileNumbers(ns: readonly string[]) {
    // uniqueItems: false keeps the references in the checked value (see paramsForSchemaCheck).
    const numbers = {
      type: "object",
      properties: { ns: { type: "array", items: { type: "number" }, uniqueItems: false } },
    };
    const tools = createToolRegistry([
      { name: "n", input: numbers, run: () => 1 },
      { name: "src", run: () => 1 },
    ]);
    return compile(
      plan([
        { _tool: "src", _outputPath: "†state.a" },
        { _tool: "n", ns },
      ]),
      tools,
    );
  }

  it("checks in full when the violations kept fill the listing but end there: the rest are counted exactly", () => {
    // 9,900 references (dropped) and 100 literals fill the first 10,000 errors: the listing takes all they
    // hold, and only the complete check knows how many more there are
    const references = MAX_COLLECTED_ERRORS - MAX_LISTED_PER_CALL;
    const ns = [...Array<string>(references).fill("†state.a"), ...Array<string>(5_101).fill("x")];
    const compiled = compileNumbers(ns);
    expect(compiled.diagnostics).toHaveLength(MAX_LISTED_PER_CALL + 1);
    expect(compiled.diagnostics[0]).toMatchObject({
      pointer: "/plan/1",
      message:
        'the parameters break the input schema of tool "n" in 5,001 more places (the first 100 are listed)',
    });
  });

  it("checks in full when the first 10,000 are references (dropped): the violations after them are listed", () => {
    const ns = [...Array<string>(MAX_COLLECTED_ERRORS + 10).fill("†state.a"), "x", "y"];
    const compiled = compileNumbers(ns);
    expect(compiled.diagnostics.map((d) => `${d.pointer} ${d.message}`)).toEqual([
      `/plan/1/ns/${MAX_COLLECTED_ERRORS + 10} ns/${MAX_COLLECTED_ERRORS + 10}: must be number`,
      `/plan/1/ns/${MAX_COLLECTED_ERRORS + 11} ns/${MAX_COLLECTED_ERRORS + 11}: must be number`,
    ]);
  });
});
