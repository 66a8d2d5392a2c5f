import { bench, describe } from "vitest";
import type { JsonValue } from "./json-value.js";
import { previewValue } from "./value-preview.js";

const millionItems: JsonValue = Array.from({ length: 1_000_000 }, (_, index) => index);
const millionKeys: Record<string, number> = {};
for (let index = 0; index < 1_000_000; index++) millionKeys[`k${index}`] = index;
const fiftyMegabytes = "x".repeat(50 * 1024 * 1024);

// The array and string cases are bounded by the budget. The object case is dominated by V8 listing
// every key of a dictionary-mode object before the first `for…in` step (not avoidable from JS).
/** A preview takes microseconds: 100 ms gives tens of thousands of samples (vitest's default is 500 ms + 100 ms). */
const short = { time: 100, warmupTime: 20 };

describe("previewValue (default 200 chars)", () => {
  bench(
    "1,000,000-element array",
    () => {
      previewValue(millionItems);
    },
    short,
  );
  bench(
    "50 MB string",
    () => {
      previewValue(fiftyMegabytes);
    },
    short,
  );
  bench(
    "1,000,000-key object",
    () => {
      previewValue(millionKeys);
    },
    { iterations: 2, time: 0, warmupIterations: 1, warmupTime: 0 },
  );
});
