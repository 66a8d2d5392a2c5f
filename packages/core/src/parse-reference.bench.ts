import { bench, describe } from "vitest";
import { mixedReferences } from "./__fixtures__/mixed-references.js";
import { parseExpression } from "./parse-expression.js";
import { parseOutputPath } from "./parse-output-path.js";
import { parseParameterString } from "./parse-parameter-string.js";
import { parseReference } from "./parse-reference.js";

const COUNT = 100_000;
const references = mixedReferences(COUNT);
const literals = Array.from({ length: COUNT }, (_, i) => `plain literal value number ${i}`);
const expressions = references.map((text, i) => `${text} || ${references[(i + 1) % COUNT]}`);
const outputPaths = Array.from(
  { length: COUNT },
  (_, i) => `†state.result${i % 50}.summary && †state.audit.s${i}`,
);

/** Runs `parse` over every text once; the bench's ops/s × 100,000 is the per-item throughput. */
function each(texts: readonly string[], parse: (text: string) => { ok: boolean }): void {
  let failures = 0;
  for (const text of texts) if (!parse(text).ok) failures++;
  if (failures > 0) throw new Error(`${failures} unexpected parse failures`);
}

/**
 * One warm-up op, then 2 timed ops of 100,000 strings each (the targets script, the figure to trust, measures
 * per string; 4 timed ops made these five benches ~10 s of the root `pnpm bench`).
 */
const options = { warmupIterations: 1, warmupTime: 0, iterations: 2, time: 0 };

describe(`plan-language parsers (${COUNT.toLocaleString("en")} strings per op: µs per string = mean ms ÷ 100)`, () => {
  bench("parseReference", () => each(references, (t) => parseReference(t)), options);
  bench("parseExpression (two alternatives)", () => each(expressions, (t) => parseExpression(t)), options);
  bench(
    "parseParameterString (plain literal)",
    () => each(literals, (t) => parseParameterString(t)),
    options,
  );
  bench("parseParameterString (reference)", () => each(references, (t) => parseParameterString(t)), options);
  bench("parseOutputPath (fan-out)", () => each(outputPaths, (t) => parseOutputPath(t)), options);
});
