import { createObeliskAdapter } from "./adapters/obelisk.js";
import { generateDag } from "./dag.js";
import { firstMismatch, referenceResults, work } from "./work.js";

const size = Number(process.argv[2] ?? 2000);
const kind = (process.argv[3] ?? "memory") as "memory" | "sqlite";
const shape = (process.argv[4] ?? "sparse") as "sparse";
const dag = generateDag(shape, size, 7);
const ref = referenceResults(dag);
const a = createObeliskAdapter(kind);
for (let rep = 0; rep < Number(process.argv[5] ?? 3); rep++) {
  const p = await a.prepare(dag, { task: work });
  const c = process.cpuUsage();
  const t = performance.now();
  const r = await p.run();
  const wall = performance.now() - t;
  const cpu = process.cpuUsage(c);
  console.log(
    shape,
    size,
    a.name,
    ((wall * 1000) / size).toFixed(2),
    "us/call wall",
    ((cpu.user + cpu.system) / size).toFixed(2),
    "us/call cpu",
    firstMismatch(ref, r),
  );
  await p.dispose();
}
