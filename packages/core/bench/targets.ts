/**
 * The core targets of issue 2, measured on the built package (`dist`, what users run; build first):
 * a reference parses in under 1 µs on average, a preview of any value costs under 50 µs.
 * Plain loops timed with `performance.now`, after a warm-up, outside the test runner (vitest's module
 * transform makes every imported call a few times slower than in a plain Node process). Also prints the
 * process CPU time per operation: on a shared machine wall time includes waiting for a core, CPU time not.
 * Run: `pnpm bench:targets` (what `pnpm bench` runs; the vitest benches in `src/*.bench.ts`, which time the
 * same operations inside vitest, are `pnpm bench:vitest`).
 */
import { loadavg } from "node:os";
import type { JsonValue } from "@obelisk/core";
import {
  parseExpression,
  parseOutputPath,
  parseParameterString,
  parseReference,
  previewValue,
} from "@obelisk/core";
import { mixedReferences } from "../src/__fixtures__/mixed-references.js";

interface Figure {
  readonly name: string;
  /** Mean µs per operation over the measured rounds. */
  readonly mean: number;
  /** Fastest round, µs per operation. */
  readonly best: number;
  /** Mean process CPU time (user + system), µs per operation. */
  readonly cpu: number;
  readonly target?: number;
}

/** Times `rounds` rounds of `perRound` operations after `warmUps` warm-up rounds; µs per operation. */
function measure(
  name: string,
  perRound: number,
  rounds: number,
  run: () => void,
  target?: number,
  warmUps = 3,
): Figure {
  for (let round = 0; round < warmUps; round++) run();
  const times: number[] = [];
  const before = process.cpuUsage();
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    run();
    times.push(((performance.now() - start) * 1000) / perRound);
  }
  const used = process.cpuUsage(before);
  const cpu = (used.user + used.system) / (rounds * perRound);
  const mean = times.reduce((sum, time) => sum + time, 0) / times.length;
  return { name, mean, best: Math.min(...times), cpu, ...(target === undefined ? {} : { target }) };
}

const COUNT = 100_000;
const references = mixedReferences(COUNT);
const outputPaths = references
  .filter((text) => text.startsWith("†state.") && !text.includes("-1"))
  .map((text, i) => `${text}.out && †state.audit.s${i}`);

let failures = 0;
const parseAll = (texts: readonly string[], parse: (text: string) => { ok: boolean }) => () => {
  for (const text of texts) if (!parse(text).ok) failures++;
};

const expressions = references.map((text, i) => `${text} || ${references[(i + 1) % COUNT]}`);
const literals = Array.from({ length: COUNT }, (_, i) => `plain literal value number ${i}`);

const PREVIEWS = 10_000;
const millionItems: JsonValue = Array.from({ length: 1_000_000 }, (_, index) => index);
const millionObjects: JsonValue = Array.from({ length: 1_000_000 }, (_, index) => ({
  id: index,
  tags: ["a"],
}));
const fiftyMegabytes = "x".repeat(50 * 1024 * 1024);
// V8 lists every key of a dictionary-mode object before the first `for…in` step: ~0.5 s per preview, far over
// the target, and not avoidable from JS (also the vitest bench's case).
const millionKeys: Record<string, number> = {};
for (let index = 0; index < 1_000_000; index++) millionKeys[`k${index}`] = index;
const previewMany = (value: JsonValue) => () => {
  for (let i = 0; i < PREVIEWS; i++) previewValue(value);
};

const figures: Figure[] = [
  measure("parseReference (100,000 mixed references)", COUNT, 20, parseAll(references, parseReference), 1),
  measure(
    "parseOutputPath (fan-out of two targets)",
    outputPaths.length,
    20,
    parseAll(outputPaths, parseOutputPath),
  ),
  measure("previewValue: 1,000,000-element array", PREVIEWS, 10, previewMany(millionItems), 50),
  measure("previewValue: 1,000,000 objects", PREVIEWS, 10, previewMany(millionObjects), 50),
  measure("previewValue: 50 MB string", PREVIEWS, 10, previewMany(fiftyMegabytes), 50),
  // the vitest benches' other figures, so that root `pnpm bench` (which runs this script, not them) shows them
  measure("parseExpression (two alternatives)", COUNT, 5, parseAll(expressions, parseExpression)),
  measure("parseParameterString (plain literal)", COUNT, 5, parseAll(literals, parseParameterString)),
  measure("parseParameterString (reference)", COUNT, 5, parseAll(references, parseParameterString)),
  measure("previewValue: 1,000,000-key object", 1, 2, () => previewValue(millionKeys), 50, 1),
];
if (failures > 0) throw new Error(`${failures} unexpected parse failures`);

const [one, five] = loadavg();
console.log(`Node ${process.version}, load average ${one?.toFixed(2)} (1 min) ${five?.toFixed(2)} (5 min)`);
for (const figure of figures) {
  const target = figure.target;
  const verdict =
    target === undefined
      ? ""
      : figure.mean < target
        ? `; target < ${target} µs: met`
        : figure.cpu < target
          ? `; target < ${target} µs: met on CPU time only`
          : `; target < ${target} µs: MISSED`;
  const opsPerSecond = Math.round(1e6 / figure.mean).toLocaleString("en");
  console.log(
    `${figure.name.padEnd(44)} mean ${figure.mean.toFixed(3)} µs (best ${figure.best.toFixed(3)} µs, CPU ${figure.cpu.toFixed(3)} µs), ${opsPerSecond} ops/s${verdict}`,
  );
}
