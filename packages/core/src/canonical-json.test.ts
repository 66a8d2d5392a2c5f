import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json.js";

describe("canonicalJson", () => {
  it("sorts keys by UTF-16 code units at every level, without whitespace", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null }, B: true })).toBe(
      '{"B":true,"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson({ "\u{1F600}": 1, "\uFFFF": 2 })).toBe('{"\u{1F600}":1,"\uFFFF":2}');
  });

  it("follows JSON.stringify for strings, numbers and omitted values", () => {
    expect(canonicalJson({ s: 'a"\n\u0001', n: -0, e: 1e21, f: 0.1, x: undefined, g: () => 1 })).toBe(
      '{"e":1e+21,"f":0.1,"n":0,"s":"a\\"\\n\\u0001"}',
    );
    expect(canonicalJson([undefined, Number.NaN, Number.POSITIVE_INFINITY])).toBe("[null,null,null]");
    expect(canonicalJson(JSON.parse('{"__proto__":{"b":1,"a":2}}'))).toBe('{"__proto__":{"a":2,"b":1}}');
    expect(canonicalJson(new Date(0))).toBe('"1970-01-01T00:00:00.000Z"');
  });

  it("handles very deep values without recursion and throws on cycles", () => {
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(canonicalJson(deep)).toHaveLength(200_001);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(expect.objectContaining({ code: "USAGE" }));
    const shared = { a: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"a":1},{"a":1}]');
  });

  it("is a fixed point and agrees with JSON.parse (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it("does not depend on key insertion order (property)", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (record) => {
        const reversed = Object.fromEntries(Object.entries(record).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(record));
      }),
    );
  });
});

describe("canonicalJson fast and deep paths", () => {
  it("gives the same text below and above the recursion threshold (200 levels)", () => {
    for (const depth of [199, 200, 201, 1_000]) {
      let value: unknown = { b: 1, a: [undefined, "x"], c: undefined };
      for (let level = 0; level < depth; level++) value = level % 2 === 0 ? [value] : { z: value, y: null };
      let expected = '{"a":[null,"x"],"b":1}';
      for (let level = 0; level < depth; level++)
        expected = level % 2 === 0 ? `[${expected}]` : `{"y":null,"z":${expected}}`;
      expect(canonicalJson(value)).toBe(expected);
    }
  });

  it("writes boxed primitives by their own keys on every path, as before the native path", () => {
    const boxed = [new Number(3), new String("ab"), new Boolean(false), Object(1n)];
    expect(canonicalJson(boxed)).toBe('[{},{"0":"a","1":"b"},{},{}]');
    let deep: unknown = boxed;
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(canonicalJson(deep).slice(100_000, -100_000)).toBe('[{},{"0":"a","1":"b"},{},{}]');
  });

  it("writes long lists of out-of-order objects (the sorting replacer) like short ones (the JS writer)", () => {
    const item = (i: number) => ({
      z: i,
      a: { y: [i, { d: 1, c: undefined }], x: null },
      ...JSON.parse(`{"__proto__":{"q":${i},"p":"†"}}`),
      m: () => i,
      d: new Date(i),
    });
    const list = Array.from({ length: 100 }, (_, i) => item(i));
    expect(canonicalJson(list)).toBe(`[${list.map((value) => canonicalJson(value)).join(",")}]`);
    expect(canonicalJson(list[1])).toBe(
      '{"__proto__":{"p":"†","q":1},"a":{"x":null,"y":[1,{"d":1}]},"d":"1970-01-01T00:00:00.001Z","z":1}',
    );
    const indexLike = Array.from({ length: 100 }, (_, i) => ({ "": i, "0": false, "10": 1, "2": 2 }));
    expect(canonicalJson(indexLike)).toBe(`[${indexLike.map((value) => canonicalJson(value)).join(",")}]`);
    expect(canonicalJson(indexLike[0])).toBe('{"":0,"0":false,"10":1,"2":2}');
    const cyclic: unknown[] = Array.from({ length: 100 }, (_, i) => ({ b: i, a: i }));
    cyclic.push(cyclic);
    expect(() => canonicalJson(cyclic)).toThrow(expect.objectContaining({ code: "USAGE" }));
  });

  it("writes long lists of flat out-of-order objects (sorted copies, native writer) like each item alone", () => {
    const call = (i: number) => ({
      _tool: "step",
      _id: `n${i}`,
      inputs: [`†state.n${i - 1}`, i, null, { a: 1, b: [true] }],
      _outputPath: `†state.n${i}`,
      skipped: undefined,
      run: () => i,
      ...JSON.parse(`{"__proto__":${i}}`),
    });
    const calls = Array.from({ length: 100 }, (_, i) => call(i));
    expect(canonicalJson(calls)).toBe(`[${calls.map((value) => canonicalJson(value)).join(",")}]`);
    expect(canonicalJson(calls[2])).toBe(
      '{"__proto__":2,"_id":"n2","_outputPath":"†state.n2","_tool":"step","inputs":["†state.n1",2,null,{"a":1,"b":[true]}]}',
    );
    const mixed: unknown[] = [...calls, "text", 3, null, [{ b: 1, a: 2 }], undefined];
    expect(canonicalJson(mixed)).toBe(`[${mixed.map((value) => canonicalJson(value) ?? "null").join(",")}]`);
  });

  it("writes long lists of plain objects (one sorted key list, native writer) like each item alone", () => {
    const call = (i: number) => ({
      z: { "10": i, "9": [i, { y: 1, x: 2 }], b: undefined },
      _tool: "step",
      _id: `n${i}`,
      inputs: [`†state.n${i - 1}`, i],
    });
    const calls: unknown[] = Array.from({ length: 100 }, (_, i) => call(i));
    const bare = Object.assign(Object.create(null) as object, { k: 1, a: { c: 2, b: 1 } });
    calls.push(bare);
    const expected = `[${calls.map((value) => canonicalJson(value)).join(",")}]`;
    expect(canonicalJson(calls)).toBe(expected);
    expect(canonicalJson(calls[3])).toBe(
      '{"_id":"n3","_tool":"step","inputs":["†state.n2",3],"z":{"10":3,"9":[3,{"x":2,"y":1}]}}',
    );
    // A non-enumerable own property named like another object's key is not written; an instance of a
    // class writes its own keys only.
    const hidden = { b: 1, a: 2 };
    Object.defineProperty(hidden, "_id", { value: "secret", enumerable: false });
    class Item {
      b = 1;
      a = 2;
    }
    for (const odd of [hidden, new Item(), Object(5)]) {
      const list = [...calls, odd];
      expect(canonicalJson(list)).toBe(`[${list.map((value) => canonicalJson(value)).join(",")}]`);
    }
    expect([hidden, new Item(), Object(5)].map((odd) => canonicalJson(odd))).toEqual([
      '{"a":2,"b":1}',
      '{"a":2,"b":1}',
      "{}",
    ]);
  });

  it("writes any long list of objects like its items one by one (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }), {
          minLength: 64,
          maxLength: 80,
        }),
        (list) => {
          expect(canonicalJson(list)).toBe(`[${list.map((value) => canonicalJson(value)).join(",")}]`);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("still refuses a cycle on the fast path", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(/cycle/);
  });
});
