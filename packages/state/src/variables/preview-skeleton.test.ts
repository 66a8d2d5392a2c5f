import { describe, expect, it } from "vitest";
import { previewSkeleton } from "./preview-skeleton.js";
import { shortenPreview } from "./summary-renderers.js";

const results =
  '[{"title":"rust result 0","url":"https://example.com/rust/0","snippet":"lorem ipsum dolor sit amet lorem…(+152 chars)"},…+29]';

describe("previewSkeleton: a short preview keeps its keys", () => {
  it("cuts value strings, longest first that fits, and keeps every key and the item count", () => {
    expect(previewSkeleton(results, 80)).toBe(
      '[{"title":"rust result …","url":"https://exam…","snippet":"lorem ipsum …"},…+29]',
    );
    expect(previewSkeleton(results, 60)).toBe('[{"title":"…","url":"…","snippet":"…"},…+29]');
    expect(previewSkeleton(results, 40)).toBeUndefined();
    expect(shortenPreview(results, 80)).toBe(previewSkeleton(results, 80));
  });

  it("is undefined without keys or when even cut values do not fit (the text is cut then)", () => {
    expect(previewSkeleton('"a long string value"', 5)).toBeUndefined();
    expect(previewSkeleton("[1,2,3,4,5]", 4)).toBeUndefined();
    expect(previewSkeleton('{"name":"Ada Lovelace","age":36}', 20)).toBeUndefined();
    expect(shortenPreview('{"name":"Ada Lovelace","age":36}', 20)).toBe('{"name":"Ada Lovela…');
  });

  it("leaves a preview that fits alone", () => {
    expect(shortenPreview(results, results.length)).toBe(results);
  });

  it("never splits an escape or a surrogate pair, and takes a string cut off at the end", () => {
    expect(previewSkeleton('{"a":"\\u00e9\\u00e9\\u00e9\\u00e9","b":"x"}', 30)).toBe(
      '{"a":"\\u00e9\\u00e9…","b":"x"}',
    );
    expect(previewSkeleton('{"a":"😀😀😀😀😀😀😀😀","b":1}', 24)).toBe('{"a":"😀😀😀…","b":1}');
    expect(previewSkeleton('{"k":"value","cut":"unterminated text goes on', 30)).toBe(
      '{"k":"value","cut":"unterm…"',
    );
  });

  it("keeps a key with an escaped quote and a space before its colon", () => {
    expect(previewSkeleton('{"say \\"hi\\"" : "hello there, how are you"}', 30)).toBe(
      '{"say \\"hi\\"" : "hello …"}',
    );
  });
});
