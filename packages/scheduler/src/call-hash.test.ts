import { canonicalJson, sha256Hex } from "@obelisk/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fakeCall } from "./__fixtures__/fake-call.js";
import { callHash, callKeyJson } from "./call-hash.js";

describe("callHash", () => {
  it("is the SHA-256 of the canonical JSON of tool, params, output path and method", () => {
    const call = fakeCall("c", 0, { writes: [["†state.a"], ["†state.b"]], method: "push" });
    const params = { z: 1, a: { y: [1, "x"], b: null } };
    const key = {
      tool: call.tool,
      params,
      outputPath: call.outputPath?.text ?? null,
      method: call.outputMethod,
    };
    expect(callKeyJson(call, params)).toBe(canonicalJson(key));
    expect(callHash(call, params)).toBe(`sha256:${sha256Hex(canonicalJson(key))}`);
  });

  it("includes a latent call's _output and changes with the parameters", () => {
    const call = { ...fakeCall("c", 0), hasOutput: true, output: { v: 1 } };
    const key = { tool: call.tool, params: {}, outputPath: null, method: "set", output: { v: 1 } };
    expect(callKeyJson(call, {})).toBe(canonicalJson(key));
    expect(callHash(call, { a: 1 })).not.toBe(callHash(call, { a: 2 }));
  });

  it("equals the canonical JSON of the key for any tool, output path text and method (escapes included)", () => {
    const text = fc.oneof(
      fc.string({ unit: "binary" }),
      fc.constantFrom("†state.a", 'a"b', "a\\b", "\u0001", "\ud800", "😀"),
    );
    fc.assert(
      fc.property(text, text, text, fc.boolean(), (tool, path, method, withPath) => {
        const base = fakeCall("c", 0, withPath ? { writes: [["†state.a"]] } : {});
        const outputPath = base.outputPath === undefined ? undefined : { ...base.outputPath, text: path };
        const call = {
          ...base,
          tool,
          outputMethod: method as "set",
          ...(outputPath === undefined ? {} : { outputPath }),
        };
        const params = { b: [path], a: 1 };
        const key = { tool, params, outputPath: outputPath?.text ?? null, method };
        expect(callKeyJson(call, params)).toBe(canonicalJson(key));
      }),
    );
  });
});

describe("callHash of large stored arrays (digested)", () => {
  const records = (count: number, last = "z") =>
    Object.freeze(
      Array.from({ length: count }, (_, i) => Object.freeze({ id: i, name: i === count - 1 ? last : "r" })),
    );
  const reading = fakeCall("c", 0, { reads: [[["†state.records"]]], writes: [["†state.out"]] });
  const params = (value: unknown) => Object.freeze({ p0: value, limit: 3 }) as never;

  it("equal content gives equal keys, whatever the objects; changed content changes the key", () => {
    const a = records(2_000);
    const b = records(2_000);
    expect(a).not.toBe(b);
    expect(callHash(reading, params(a))).toBe(callHash(reading, params(b)));
    expect(callHash(reading, params(a))).not.toBe(callHash(reading, params(records(2_000, "y"))));
    expect(callHash(reading, params(a))).not.toBe(callHash(reading, params(records(2_001))));
  });

  it("writes the array as a NUL-marked digest that no parameter value can spell", () => {
    const a = records(1_024);
    const key = callKeyJson(reading, params(a));
    const digest = `\u0000sha256:${sha256Hex(canonicalJson(a))}`;
    expect(key).toContain(`"params":{"limit":3,"p0":${digest}}`);
    expect(key).not.toContain('"name"');
    // the same text as a string is escaped by JSON, so it cannot collide
    expect(callHash(reading, params(digest))).not.toBe(callHash(reading, params(a)));
  });

  it("keeps the plain canonical JSON below 1,024 items", () => {
    const small = records(1_023);
    const key = {
      tool: reading.tool,
      params: { p0: small, limit: 3 },
      outputPath: "†state.out",
      method: "set",
    };
    expect(callKeyJson(reading, params(small))).toBe(canonicalJson(key));
  });

  it("keeps a digest only for parameters the caller says are deeply frozen", () => {
    const items = Array.from({ length: 1_100 }, (_, i) => ({ v: i }));
    const shallow = Object.freeze(items);
    const before = callHash(reading, params(shallow));
    (items[0] as { v: number }).v = 999;
    const fresh = callHash(reading, params(items.map((item) => ({ ...item }))));
    expect(callHash(reading, params(shallow))).toBe(fresh);
    expect(fresh).not.toBe(before);
    // deep-frozen (as the scheduler's resolved parameters are): the digest is kept, and stays right
    const frozen = records(1_100);
    expect(callHash(reading, params(frozen), true)).toBe(callHash(reading, params(frozen)));
    expect(callHash(reading, params(frozen), true)).toBe(callHash(reading, params(records(1_100)), true));
  });

  it("digests every large array once, wherever it sits, the same container read twice included", () => {
    const big = records(1_024);
    const shared = Object.freeze({ rows: big, n: 1 });
    const many = Object.freeze(
      Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i % 2 === 0 ? big : shared])),
    );
    const key = callKeyJson(reading, many as never);
    expect(key.split("\u0000sha256:").length - 1).toBe(50);
    expect(key).not.toContain("obelisk-digest");
    const copy = Object.fromEntries(
      Object.entries(many).map(([k, v]) => [
        k,
        Array.isArray(v) ? records(1_024) : { rows: records(1_024), n: 1 },
      ]),
    );
    expect(callKeyJson(reading, copy as never)).toBe(key);
  });

  it("depends on the values only: literal or referenced, frozen or not, nested anywhere", () => {
    const literal = fakeCall("c", 0, { writes: [["†state.out"]] });
    const large = records(2_000);
    const copy = large.map((item) => ({ ...item }));
    expect(callHash(literal, { p0: large, limit: 3 } as never)).toBe(callHash(reading, params(copy)));
    const nested = (value: unknown) => ({ a: [{ b: value }], c: "x" }) as never;
    expect(callKeyJson(literal, nested(large))).toBe(callKeyJson(literal, nested(copy)));
    expect(callKeyJson(literal, nested(large))).toContain(`"b":\u0000sha256:`);
    expect(callHash(literal, nested(large))).not.toBe(callHash(literal, nested(records(2_000, "y"))));
  });
});
