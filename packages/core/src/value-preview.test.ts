import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonValue } from "./json-value.js";
import { DEFAULT_PREVIEW_CHARS, previewValue } from "./value-preview.js";

describe("previewValue", () => {
  it("shows small values whole, as JSON", () => {
    const value = { name: "Ada", tags: ["a", "b"], n: 1.5, ok: true, none: null, nested: { x: [] } };
    expect(previewValue(value)).toEqual({ text: JSON.stringify(value), truncated: false, visited: 10 });
    expect(previewValue('a"b\n').text).toBe(JSON.stringify('a"b\n'));
    expect(previewValue({}).text).toBe("{}");
  });

  it("bounds a 1,000,000-element array by the budget", () => {
    const preview = previewValue(Array.from({ length: 1_000_000 }, (_, index) => index));
    expect(preview.text.length).toBeLessThanOrEqual(DEFAULT_PREVIEW_CHARS);
    expect(preview.text).toMatch(/^\[0,1,2,.*,…\+\d+\]$/);
    expect(preview.truncated).toBe(true);
    expect(preview.visited).toBeLessThan(DEFAULT_PREVIEW_CHARS);
  });

  it("bounds a 1,000,000-element array of objects and an object of such arrays by the budget", () => {
    const rows = Array.from({ length: 1_000_000 }, (_, id) => ({ id, tags: ["a", "b"] }));
    const preview = previewValue(rows);
    expect(preview.text.length).toBeLessThanOrEqual(DEFAULT_PREVIEW_CHARS);
    expect(preview.text).toMatch(/^\[{"id":0,"tags":\[.*,…\+\d+\]$/);
    expect(preview.visited).toBeLessThan(DEFAULT_PREVIEW_CHARS);
    const nested = previewValue({ a: rows, b: rows, c: "x".repeat(10_000_000) }, { maxChars: 120 });
    expect(nested.text.length).toBeLessThanOrEqual(120);
    expect(nested.visited).toBeLessThan(120);
  });

  it("shows the shape of a list of records: the first one's keys, then whole records or a count (stop 30 review)", () => {
    const results = Array.from({ length: 50 }, (_, i) => ({
      title: `Result ${i} about something long enough`,
      url: `https://example.com/page/${i}`,
      snippet: "lorem ipsum dolor sit amet ".repeat(5),
      score: 0.5,
    }));
    // every key of an item is named, where an even share showed `{"title":"Result …",…}` and the url never
    expect(previewValue({ search: { results } }, { maxChars: 240 }).text).toBe(
      '{"search":{"results":[{"title":"Result …(+29 chars)","url":"https://e…(+17 chars)","snippet":"lore…(+131 chars)","score":0.5},…+49]}}',
    );
    const table = [
      ["date", "region", "units"],
      ...Array.from({ length: 100 }, (_, i) => [`2024-01-${i}`, "north", i]),
    ];
    // the header whole, then as many whole rows as fit, never slivers of rows
    expect(previewValue(table, { maxChars: 120 }).text).toBe(
      '[["date","region","units"],["2024-01-0","north",0],["2024-01-1","north",1],["2024-01-2","north",2],…+97]',
    );
    expect(previewValue([{ a: 1 }, { a: 2 }], { maxChars: 240 }).text).toBe('[{"a":1},{"a":2}]');
  });

  it("slices a 50 MB string", () => {
    const preview = previewValue("x".repeat(50 * 1024 * 1024), { maxChars: 100 });
    expect(preview.text.length).toBeLessThanOrEqual(100);
    expect(preview.text).toMatch(/^"x+…\(\+\d+ chars\)"$/);
    expect(preview.visited).toBe(1);
  });

  it("shares the budget among the members of an object of 100 KB strings", () => {
    const value = Object.fromEntries(["a", "b", "c", "d", "e"].map((key) => [key, key.repeat(100_000)]));
    const preview = previewValue(value);
    expect(preview.text.length).toBeLessThanOrEqual(DEFAULT_PREVIEW_CHARS);
    for (const key of ["a", "b", "c", "d", "e"]) expect(preview.text).toContain(`"${key}":"${key}${key}`);
    expect(preview.visited).toBe(6);
  });

  it("touches a bounded number of keys of a huge object", () => {
    const value: Record<string, number> = {};
    for (let index = 0; index < 100_000; index++) value[`k${index}`] = index;
    const preview = previewValue(value);
    expect(preview.text.length).toBeLessThanOrEqual(DEFAULT_PREVIEW_CHARS);
    expect(preview.text.endsWith(",…}")).toBe(true);
    expect(preview.visited).toBeLessThan(60);
  });

  it("stops descending into deep values", () => {
    let deep: JsonValue = 1;
    for (let level = 0; level < 10_000; level++) deep = [deep];
    const preview = previewValue(deep, { maxChars: 10_000 });
    expect(preview.text).toContain("[…]");
    expect(preview.visited).toBeLessThan(40);
  });

  it("shows an empty key like any other (no spurious cut after it)", () => {
    for (const value of [{ "": 1 }, { "": { "": 2 } }, { a: 1, "": [""] }]) {
      expect(previewValue(value)).toMatchObject({ text: JSON.stringify(value), truncated: false });
    }
  });

  it("keeps __proto__ keys as data and ignores inherited keys", () => {
    const value = JSON.parse('{"__proto__":{"a":1}}') as JsonValue;
    expect(previewValue(value).text).toBe('{"__proto__":{"a":1}}');
    const inherited = Object.create({ hidden: 1 }) as Record<string, JsonValue>;
    inherited.own = 2;
    expect(previewValue(inherited).text).toBe('{"own":2}');
  });

  it("writes keys and strings with quotes, backslashes, control characters and lone surrogates as JSON does (property)", () => {
    const special = fc.constantFrom('"', "\\", "\n", "\u0001", "\u007f", "\ud800", "\udc00", "a", "é", "😀");
    const text = fc.oneof(
      fc.string({ unit: special, maxLength: 70 }),
      fc.string({ unit: "binary", maxLength: 80 }),
    );
    fc.assert(
      fc.property(
        fc.dictionary(text, text, { maxKeys: 4 }),
        fc.integer({ min: 1, max: 400 }),
        (value, maxChars) => {
          const preview = previewValue(value, { maxChars });
          expect(preview.text.length).toBeLessThanOrEqual(maxChars);
          if (!preview.truncated) expect(preview.text).toBe(JSON.stringify(value));
        },
      ),
      { numRuns: 1000 },
    );
    for (const odd of ['"', "\\", "\n", "\u001f", "\ud800", "\udc00"]) {
      const value = { [`k${odd}`]: `v${odd}` };
      expect(previewValue(value).text).toBe(JSON.stringify(value));
    }
  });

  it("never exceeds maxChars, and is the JSON text when nothing is cut (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 1, max: 120 }), (value, maxChars) => {
        const preview = previewValue(value as JsonValue, { maxChars });
        expect(preview.text.length).toBeLessThanOrEqual(maxChars);
        if (!preview.truncated) expect(preview.text).toBe(JSON.stringify(value));
      }),
      { numRuns: 500 },
    );
  });
});
