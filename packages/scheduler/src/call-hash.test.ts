import { canonicalJson, sha256Hex } from "@obelisk/core";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
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

describe("callHash of long strings and large objects (digested, decision 0112)", () => {
  const reading = fakeCall("c", 0, { reads: [[["†state.doc"]]], writes: [["†state.out"]] });
  const params = (value: unknown, i = 0) => Object.freeze({ p0: value, i }) as never;
  /** Characters JSON.stringify wrote while `work` ran (canonical JSON writes every value through it). */
  const stringified = (work: () => void): number => {
    let chars = 0;
    const original = JSON.stringify;
    const spy = vi
      .spyOn(JSON, "stringify")
      .mockImplementation((...args: Parameters<typeof JSON.stringify>) => {
        const text = original(...args);
        chars += typeof text === "string" ? text.length : 0;
        return text;
      });
    try {
      work();
    } finally {
      spy.mockRestore();
    }
    return chars;
  };
  const text = (tag: string, length = 100_000) => `${tag}:${"x".repeat(length - tag.length - 1)}`;
  const document = (tag: string, keys = 40) =>
    Object.freeze(
      Object.fromEntries(
        Array.from({ length: keys }, (_, k) => [
          `k${k}`,
          Object.freeze({ text: `${tag} ${"y".repeat(2_000)}` }),
        ]),
      ),
    );

  it("writes a long string once however many calls read it (20 readers of a 100,000-character text)", () => {
    const stored = text("a");
    const chars = stringified(() => {
      for (let i = 0; i < 20; i++) callHash(reading, params(stored, i), true);
    });
    // each call writing it again: 2,000,000 characters
    expect(chars).toBeLessThan(stored.length + 20 * 1_000);
  });

  it("writes a large frozen object once however many calls read it (by weight, and by 1,024 keys)", () => {
    const heavy = document("b");
    const wide = Object.freeze(Object.fromEntries(Array.from({ length: 1_024 }, (_, k) => [`k${k}`, k])));
    const heavyChars = JSON.stringify(heavy).length;
    const wideChars = JSON.stringify(wide).length;
    const chars = stringified(() => {
      for (let i = 0; i < 20; i++) {
        callHash(reading, params(heavy, i), true);
        callHash(reading, params(wide, i), true);
      }
    });
    expect(chars).toBeLessThan(heavyChars + wideChars + 40 * 1_000);
  });

  it("a new container holding large stored values costs their digests, not their text", () => {
    const rows = document("c");
    const notes = text("c");
    const chars = stringified(() => {
      // the plan builds { data: { rows: †state.rows, notes: †state.notes } } anew for each call
      for (let i = 0; i < 20; i++) callHash(reading, params({ data: { rows, notes } }, i), true);
    });
    expect(chars).toBeLessThan(JSON.stringify(rows).length + notes.length + 20 * 1_000);
  });

  it("equal values give equal keys whatever their objects; another value another key", () => {
    const stored = text("d");
    const rebuilt = ["d:", "x".repeat(100_000 - 2)].join(""); // another string object, as read from disk
    expect(callHash(reading, params(stored), true)).toBe(callHash(reading, params(rebuilt)));
    expect(callHash(reading, params(stored))).not.toBe(callHash(reading, params(text("e"))));
    const doc = document("f");
    const copy = JSON.parse(JSON.stringify(doc)) as unknown;
    expect(callHash(reading, params(doc), true)).toBe(callHash(reading, params(copy)));
    expect(callHash(reading, params({ a: [doc] }), true)).toBe(callHash(reading, params({ a: [copy] })));
    expect(callHash(reading, params(doc), true)).not.toBe(callHash(reading, params(document("g"))));
  });

  it("writes a long string as the NUL-marked digest of its JSON, and keeps shorter ones as text", () => {
    const stored = text("h", 65_536);
    const key = callKeyJson(reading, params(stored));
    expect(key).toContain(`"p0":\u0000sha256:${sha256Hex(JSON.stringify(stored))}}`);
    expect(key).not.toContain("xxxx");
    const shorter = text("h", 65_535);
    expect(callKeyJson(reading, params(shorter))).toContain(JSON.stringify(shorter));
    // a digested object's digest covers its large members by their digests
    const holder = { s: stored };
    const holderKey = callKeyJson(reading, params(holder));
    const inner = `{"s":\u0000sha256:${sha256Hex(JSON.stringify(stored))}}`;
    expect(holderKey).toContain(`"p0":\u0000sha256:${sha256Hex(inner)}}`);
  });

  it("never keys the parameters' root by a digest, even one kept from a nested use of the same object", () => {
    const big = Object.freeze(Object.fromEntries(Array.from({ length: 1_100 }, (_, k) => [`k${k}`, k])));
    const before = callKeyJson(reading, big as never, true);
    callKeyJson(reading, Object.freeze({ x: big }) as never, true); // keeps big's digest as a nested value
    expect(callKeyJson(reading, big as never, true)).toBe(before);
    expect(before).toBe(callKeyJson(reading, Object.freeze({ ...big }) as never, true));
  });

  it("keeps the digests of the 64 long strings used last", () => {
    const first = text("i0");
    const written = () => stringified(() => callHash(reading, params(first)));
    expect(written()).toBeGreaterThan(first.length);
    expect(written()).toBeLessThan(1_000);
    for (let n = 1; n <= 64; n++) callHash(reading, params(text(`i${n}`)));
    expect(written()).toBeGreaterThan(first.length);
  });
});
