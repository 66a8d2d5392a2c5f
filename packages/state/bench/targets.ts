/**
 * The state targets of issue 4, measured on the built package (`dist`, what users run; build first):
 * ≥ 5,000 commits/s on SQLite (file, WAL, small values), ≥ 200,000 commits/s in memory, `summarize` of a
 * thread of 1,000 variables (ten of them 1,000,000-element arrays) under 5 ms.
 * Plain loops timed with `performance.now`, outside the test runner. Also prints the process CPU time per
 * operation (user + system, all threads): on a shared machine wall time includes waiting for a core, CPU
 * time does not. Run: `pnpm bench:targets` (what `pnpm bench` runs; `pnpm bench:vitest` runs `src/commit.bench.ts`,
 * the same commits and summaries timed inside vitest).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { JsonValue, ThreadId } from "@obelisk/core";
import { asCallId, asRunId, asThreadId } from "@obelisk/core";
import type { CallCommit, StateStore } from "@obelisk/state";
import { createMemoryStore, summarize } from "@obelisk/state";
import { createSqliteStore } from "@obelisk/state/sqlite";

const THREAD: ThreadId = asThreadId("bench");
const RUN = asRunId("run-1");

/** One small call: one state write (16 rotating top-level paths), its record with a call hash. */
function smallCommit(n: number): CallCommit {
  const reference = `†state.k${n % 16}`;
  return {
    record: {
      threadId: THREAD,
      runId: RUN,
      callId: asCallId(`c$${n}`),
      tool: "tool",
      status: "succeeded",
      attempts: 1,
      outputMethod: "set",
      wrote: [reference],
      callHash: `h${n}`,
    },
    writes: [{ path: [`k${n % 16}`], method: "set", value: { n }, reference }],
  };
}

interface Figure {
  readonly name: string;
  /** Median wall time per operation over the rounds, µs. */
  readonly wall: number;
  /** Median CPU time per operation, µs. */
  readonly cpu: number;
  /** Target: at most this many µs per operation (from the target rate). */
  readonly target: number;
  readonly unit: "commits/s" | "ms";
}

const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[values.length >> 1] as number;

/** Times `rounds` rounds (after one warm-up round) of `perRound` operations; medians of µs per operation. */
async function measure(
  rounds: number,
  perRound: number,
  round: (index: number) => void | Promise<void>,
): Promise<{ wall: number; cpu: number }> {
  await round(-1);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let index = 0; index < rounds; index++) {
    const before = process.cpuUsage();
    const start = performance.now();
    await round(index);
    const used = process.cpuUsage(before);
    wall.push(((performance.now() - start) * 1000) / perRound);
    cpu.push((used.user + used.system) / perRound);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

/** Commits `count` small calls into a fresh store per round (so rounds do not inherit a growing history). */
async function commits(name: string, open: () => StateStore, count: number, targetPerSecond: number) {
  const result = await measure(7, count, async () => {
    const store = open();
    for (let n = 1; n <= count; n++) {
      const outcome = store.commitCall(smallCommit(n));
      if (!("ok" in outcome) || !outcome.ok) throw new Error(`commit ${n} failed`);
    }
    await store.close();
  });
  return { name, ...result, target: 1e6 / targetPerSecond, unit: "commits/s" } satisfies Figure;
}

const dir = mkdtempSync(join(tmpdir(), "obelisk-state-targets-"));
let files = 0;
const figures: Figure[] = [];
try {
  figures.push(await commits("commit, memory", () => createMemoryStore(), 20_000, 200_000));
  figures.push(
    await commits(
      "commit, SQLite file (WAL, synchronous=NORMAL)",
      () => createSqliteStore(join(dir, `commits-${++files}.db`)),
      3_000,
      5_000,
    ),
  );

  const wide = createMemoryStore();
  const million: JsonValue = Array.from({ length: 1_000_000 }, (_, index) => index);
  for (let index = 0; index < 1000; index++) {
    const value: JsonValue = index % 100 === 0 ? million : { index, text: "t".repeat(200) };
    const reference = `†state.v${index}`;
    wide.commitCall({
      record: {
        threadId: THREAD,
        runId: RUN,
        callId: asCallId(`v$${index}`),
        tool: "load",
        status: "succeeded",
        attempts: 1,
        outputMethod: "set",
        wrote: [reference],
        description: `variable ${index}`,
      },
      writes: [{ path: [`v${index}`], method: "set", value, reference }],
    });
  }
  for (const format of ["markdown", "json"] as const) {
    const result = await measure(50, 1, async () => {
      await summarize(wide, THREAD, { format });
    });
    figures.push({ name: `summarize 1,000 variables (${format})`, ...result, target: 5000, unit: "ms" });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const [one, five] = loadavg();
console.log(`Node ${process.version}, load average ${one?.toFixed(2)} (1 min) ${five?.toFixed(2)} (5 min)`);
for (const figure of figures) {
  const shown = (micros: number) =>
    figure.unit === "ms"
      ? `${(micros / 1000).toFixed(3)} ms`
      : `${Math.round(1e6 / micros).toLocaleString("en")}/s (${micros.toFixed(1)} µs)`;
  const target =
    figure.unit === "ms"
      ? `< ${figure.target / 1000} ms`
      : `≥ ${Math.round(1e6 / figure.target).toLocaleString("en")}/s`;
  const verdict =
    figure.wall <= figure.target ? "met" : figure.cpu <= figure.target ? "met on CPU time only" : "MISSED";
  console.log(
    `${figure.name.padEnd(46)} wall ${shown(figure.wall)}, CPU ${shown(figure.cpu)}; target ${target}: ${verdict}`,
  );
}
