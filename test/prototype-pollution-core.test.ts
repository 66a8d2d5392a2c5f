import { compile, createToolRegistry } from "@obelisk/compiler";
import {
  applyOutput,
  getAtPath,
  normalizePlan,
  OUTPUT_METHODS,
  type OutputMethod,
  type Path,
  parseExpression,
  parseOutputPath,
  parseParameterString,
  parsePlanText,
  parseReference,
  toJsonValue,
} from "@obelisk/core";
import fc from "fast-check";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { withSeed } from "./support/fuzz-seed.js";
import { fuzzTools } from "./support/fuzz-tools.js";
import { pollutionSigns, prototypeFingerprint } from "./support/prototype-guard.js";

let clean = "";
beforeAll(() => {
  clean = prototypeFingerprint();
});
afterEach(() => {
  expect(pollutionSigns()).toEqual([]);
  expect(prototypeFingerprint()).toBe(clean);
});

const HOSTILE_REFERENCES = [
  "†state.__proto__.polluted",
  "†state.constructor.prototype.polluted",
  '†state["__proto__"].polluted',
  '†state["constructor"]["prototype"]',
  "†state.a.prototype",
  "†input.__proto__",
  '†state["__proto__"]',
  "†state.x || †state.__proto__",
  "†state.x && †state.constructor",
];

/** Look-alikes: Cyrillic о/е, fullwidth underscore, zero-width joiner, combining marks, trailing space. */
const LOOK_ALIKE_KEYS = [
  "__prоto__",
  "__proto__\u200d",
  "\uff3f\uff3fproto\uff3f\uff3f",
  "cоnstructor",
  "prototypе",
  "__proto__ ",
  "__PROTO__",
];

describe("parsers refuse forbidden segments", () => {
  it.each(HOSTILE_REFERENCES)(
    "%s is REF_FORBIDDEN_SEGMENT as an expression and as an output path",
    (text) => {
      const expression = parseExpression(text);
      expect(expression.ok ? "ok" : expression.issue.code).toBe("REF_FORBIDDEN_SEGMENT");
      const output = parseOutputPath(text.replace("†input", "†state"));
      expect(output.ok ? "ok" : output.issue.code).toMatch(/^(REF_FORBIDDEN_SEGMENT|OUTPUT_PATH_SYNTAX)$/);
      const parameter = parseParameterString(`{${text}}`);
      expect(parameter.ok).toBe(false);
    },
  );

  it.each(LOOK_ALIKE_KEYS)(
    "the look-alike key %j is an ordinary own key, written and read as itself",
    (key) => {
      const reference = parseReference(`†state[${JSON.stringify(key)}].polluted`);
      if (!reference.ok) {
        expect(reference.issue.code).toMatch(/^(REF_SYNTAX|REF_FORBIDDEN_SEGMENT)$/);
        return;
      }
      const written = applyOutput({}, reference.value.path, "set", true);
      expect(written.ok).toBe(true);
      if (!written.ok) return;
      expect(Object.keys(written.value as object)).toEqual([key]);
      expect(Object.getPrototypeOf((written.value as Record<string, object>)[key])).toBe(Object.prototype);
      expect(getAtPath(written.value, reference.value.path)).toEqual({ found: true, value: true });
    },
  );
});

describe("reads never reach prototypes", () => {
  it.each([
    ["constructor"],
    ["__proto__"],
    ["toString"],
    ["hasOwnProperty"],
    ["prototype"],
    ["a", "constructor"],
  ])("getAtPath(%j) on plain data finds nothing", (...path) => {
    expect(getAtPath({ a: {} }, path as Path)).toEqual({ found: false });
    expect(getAtPath([], path as Path)).toEqual({ found: false });
  });
});

const METHODS = Object.keys(OUTPUT_METHODS) as OutputMethod[];

describe("writes never reach prototypes", () => {
  const hostileValue = () =>
    JSON.parse('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}},"ok":3}');

  it.each(METHODS)("%s with a value holding __proto__ keys keeps them as own data", (method) => {
    const existing = method === "push" || method === "concat" ? { list: [] } : { list: { old: 1 } };
    const value = method === "concat" ? [hostileValue()] : hostileValue();
    const result = applyOutput(existing, ["list"], method, value);
    expect(result.ok).toBe(true);
    const text = JSON.stringify(result.ok ? result.value : null);
    expect(text).toContain('"__proto__":{"polluted":1}');
    expect(pollutionSigns()).toEqual([]);
  });

  it.each([
    ["__proto__", "polluted"],
    ["constructor", "prototype", "polluted"],
    ["a", "__proto__"],
    ["prototype"],
  ])("applyOutput refuses the path %j for every method", (...path) => {
    for (const method of METHODS) {
      const result = applyOutput({ a: {} }, path as Path, method, { polluted: true });
      expect(result.ok).toBe(false);
    }
  });

  it("random paths and values: applyOutput never pollutes and writes exactly the path it was given", async () => {
    const segment = fc.oneof(
      fc.constantFrom(
        "__proto__",
        "constructor",
        "prototype",
        "polluted",
        "a",
        "toString",
        ...LOOK_ALIKE_KEYS,
      ),
      fc.nat(3),
    );
    const hostile = fc.constantFrom(
      '{"__proto__":{"polluted":1}}',
      '{"constructor":{"prototype":{"polluted":1}}}',
      "[1]",
      '"s"',
    );
    await withSeed("applyOutput pollution", (seed) =>
      fc.assert(
        fc.property(
          fc.array(segment, { minLength: 1, maxLength: 5 }),
          fc.constantFrom<OutputMethod>("set", "merge", "assign", "push", "concat"),
          hostile,
          (path, method, valueText) => {
            const value = JSON.parse(valueText);
            const result = applyOutput(
              { a: { b: [] } },
              path,
              method,
              method === "concat" && !Array.isArray(value) ? [value] : value,
            );
            expect(pollutionSigns()).toEqual([]);
            const forbidden = path.some((s) => s === "__proto__" || s === "constructor" || s === "prototype");
            if (forbidden) expect(result.ok).toBe(false);
            if (result.ok && method === "set")
              expect(getAtPath(result.value, path)).toEqual({ found: true, value });
          },
        ),
        { seed, numRuns: 1000 },
      ),
    );
  });
});

describe("documents and tool outputs with __proto__ keys", () => {
  const registry = createToolRegistry(fuzzTools);

  it('parsePlanText keeps "__proto__" keys as own data and never changes a prototype', () => {
    const text =
      '{"type":"plan","__proto__":{"polluted":1},"plan":[{"_tool":"echo","__proto__":{"polluted":2},"v":{"__proto__":{"polluted":3}}}]}';
    const parsed = parsePlanText(text);
    const call = parsed.document?.calls[0]?.value as Record<string, unknown> | undefined;
    expect(call).toBeDefined();
    expect(Object.hasOwn(call ?? {}, "__proto__")).toBe(true);
    expect(call?.polluted).toBeUndefined();
    const inner = call?.v as Record<string, unknown> | undefined;
    expect(Object.hasOwn(inner ?? {}, "__proto__")).toBe(true);
    expect(inner?.polluted).toBeUndefined();
  });

  it("a call with a __proto__ parameter is refused or kept as data, never applied to a prototype", () => {
    for (const submitted of [
      JSON.parse('{"type":"plan","plan":[{"_tool":"echo","__proto__":{"polluted":1}}]}'),
      '{"type":"plan","plan":[{"_tool":"echo","constructor":{"prototype":{"polluted":1}}}]}',
    ]) {
      const normalized = normalizePlan(typeof submitted === "string" ? JSON.parse(submitted) : submitted);
      expect(normalized.document === undefined || Array.isArray(normalized.document.calls)).toBe(true);
      const result = compile(submitted, registry);
      for (const call of result.calls)
        expect(Object.getPrototypeOf(call.params)).not.toHaveProperty("polluted");
    }
  });

  it("toJsonValue copies __proto__ keys as own data, with plain prototypes, and refuses class instances", () => {
    const output = JSON.parse('{"__proto__":{"polluted":1},"nested":[{"__proto__":{"isAdmin":true}}]}');
    const copy = toJsonValue(output);
    expect(copy.ok).toBe(true);
    if (!copy.ok) return;
    const value = copy.value as Record<string, unknown>;
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(JSON.stringify(value)).toBe(JSON.stringify(output));
    expect(Object.isFrozen(value)).toBe(true);
    expect(toJsonValue(new Date(0)).ok).toBe(false);
    expect(toJsonValue({ a: new Map() }).ok).toBe(false);
    const nullProto = Object.assign(Object.create(null), { a: 1 });
    const fromNull = toJsonValue(nullProto);
    expect(fromNull.ok ? JSON.stringify(fromNull.value) : fromNull.code).toBe('{"a":1}');
  });
});
