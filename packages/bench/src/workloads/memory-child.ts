/**
 * Child process of the memory workload: runs one engine once on one DAG and prints
 * `{ ok, ms, maxRssMb, error? }` as one JSON line. Argument `baseline` runs nothing (the floor:
 * Node, tsx, the DAG and its reference results).
 */
import { type EngineKey, loadAdapter } from "../adapters/registry.js";
import { type DagShape, generateDag } from "../dag.js";
import { timeRun } from "../measure.js";
import { referenceResults, work } from "../work.js";

const [key = "baseline", shape = "sparse", sizeText = "1000", seedText = "1"] = process.argv.slice(2);
const dag = generateDag(shape as DagShape, Number(sizeText), Number(seedText));
const expected = referenceResults(dag);
let ms = 0;
let error: string | undefined;
if (key !== "baseline") {
  const adapter = await loadAdapter(key as EngineKey);
  const run = await timeRun(adapter, dag, { task: work }, expected);
  ms = run.ms;
  error = run.error;
}
const maxRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
process.stdout.write(
  `${JSON.stringify({ ok: error === undefined, ms: Math.round(ms), maxRssMb, ...(error ? { error } : {}) })}\n`,
);
