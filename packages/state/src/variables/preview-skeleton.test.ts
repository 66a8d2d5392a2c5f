import { describe, expect, it } from "vitest";
import { previewSkeleton } from "./preview-skeleton.js";
import { shortenPreview } from "./summary-renderers.js";

const results =
  '[{"title":"rust result 0","url":"https://example.com/rust/0","snippet":"lorem ipsum dolor sit amet lorem…(+152 chars)"},…+29]';

describe("previewSkeleton: a short preview keeps its keys", () => {
  it("cuts value strings to the most characters that fit, keeping every key and the item count", () => {
    expect(previewSkeleton(results, 60)).toBe('[{"title":"rust …","url":"https…","snippet":"lorem…"},…+29]');
    expect(shortenPreview(results, 60)).toBe(previewSkeleton(results, 60));
    expect(previewSkeleton(results, 50)).toBe('[{"title":"ru…","url":"ht…","snippet":"lo…"},…+29]');
    // not even values cut to nothing fit: the text is cut
    expect(previewSkeleton(results, 40)).toBeUndefined();
    expect(shortenPreview(results, 40)).toBe(`${results.slice(0, 39)}…`);
  });

  it("leaves the plain cut when it shows every key already, or there is no key (review s40 rev1)", () => {
    // the plain cut at 80 shows title, url and snippet: it keeps more of the values
    expect(previewSkeleton(results, 80)).toBeUndefined();
    const text = JSON.stringify(
      "Summary: the quarterly revenue grew by a lot, and more text to make it long",
    );
    expect(previewSkeleton(text, 40)).toBeUndefined();
    expect(shortenPreview(text, 40)).toHaveLength(40);
    const oneKey = '{"summary":"the quarterly revenue grew by a lot, and more text to make it long"}';
    expect(shortenPreview(oneKey, 40)).toBe(`${oneKey.slice(0, 39)}…`);
    expect(previewSkeleton("[1,2,3,4,5]", 4)).toBeUndefined();
  });

  it("leaves a preview that fits alone", () => {
    expect(shortenPreview(results, results.length)).toBe(results);
  });

  it("never splits an escape or a surrogate pair, and takes a string cut off at the end", () => {
    expect(previewSkeleton('{"a":"\\u00e9\\u00e9\\u00e9\\u00e9","bee":"x"}', 30)).toBe(
      '{"a":"\\u00e9…","bee":"x"}',
    );
    expect(previewSkeleton('{"a":"😀😀😀😀😀😀😀😀","bee":1}', 26)).toBe('{"a":"😀😀😀😀…","bee":1}');
    expect(previewSkeleton('{"cut":"unterminated text goes on and on","last":"more and more', 30)).toBe(
      '{"cut":"unte…","last":"more…"',
    );
  });

  it("finds a key with an escaped quote and a space before its colon", () => {
    expect(previewSkeleton('{"v":"hello there, how are you","say \\"hi\\"" : 1}', 30)).toBe(
      '{"v":"hell…","say \\"hi\\"" : 1}',
    );
  });
});
