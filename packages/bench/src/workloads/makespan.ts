import { type BenchConfig, laterWarmUp } from "../bench-config.js";
import { median, round } from "../stats.js";
import { type EngineChild, startChild } from "./makespan-children.js";
import { lowerBound, MAKESPAN_ENGINES, makespanSetup } from "./makespan-setup.js";

/** One engine's makespan figures for one concurrency setting. */
export interface MakespanFigure {
  readonly engine: string;
  /** Median makespan (ms). */
  readonly medianMs?: number;
  /** Median of makespan / nominal lower bound (from the seeded durations). */
  readonly ratioToBound?: number;
  /** Median of makespan / lower bound recomputed from the sleeps actually observed in that run (timer slack removed). */
  readonly ratioToObservedBound?: number;
  readonly samplesMs?: readonly number[];
  readonly error?: string;
}

/** Makespan results for one concurrency setting. */
export interface MakespanCase {
  /** `unbounded` or the limit. */
  readonly concurrency: number | "unbounded";
  /** Nominal lower bound (ms): critical path, or max(critical path, total work / limit). */
  readonly lowerBoundMs: number;
  readonly engines: readonly MakespanFigure[];
}

/** One engine's timed runs in one setting. */
interface EngineRuns {
  readonly ms: number[];
  readonly ratios: number[];
  readonly observedRatios: number[];
  error?: string;
}

/**
 * Workload 2: seeded 5–50 ms sleeps on a random DAG; makespan / lower bound, unbounded and limit 4.
 * Each engine runs in its own child process. Warm-up (CPU-bound) goes one engine at a time; each timed
 * repetition starts every engine's run at once and waits for all (the runs are mostly asleep: one event
 * loop per engine, so none waits behind another's callbacks, and drift hits all alike), then runs each
 * engine whose own work is heavy (`config.makespan.aloneAbove`, per setting) alone; unbounded (threshold 0),
 * every engine runs alone, one after another.
 */
export async function runMakespan(config: BenchConfig, log: (line: string) => void): Promise<MakespanCase[]> {
  const { size, minMs, maxMs, reps, sleepingWarmUps } = config.makespan;
  const definition = { size, minMs, maxMs, seed: config.seed };
  const { dag, durations } = makespanSetup(definition);
  const started = await Promise.allSettled(MAKESPAN_ENGINES.map((key) => startChild(key, definition)));
  const children = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const startErrors = started.flatMap((s, index) =>
    s.status === "rejected" ? [{ key: MAKESPAN_ENGINES[index], error: String(s.reason) }] : [],
  );
  try {
    const cases: MakespanCase[] = [];
    const warmed = new Set<EngineChild>();
    for (const limit of [undefined, 4]) {
      const active = limit === undefined ? children.filter((c) => c.key !== "p-graph-priorities") : children;
      const bound = lowerBound(dag, durations, limit);
      const runs = active.map((): EngineRuns => ({ ms: [], ratios: [], observedRatios: [] }));
      // Warm-up with instant tasks (not timed): at least one run, more within the budget of run time. An
      // engine that ran the first setting (warm-up and timed runs: the same code but the limit's queue) gets
      // a few runs with the limit; one new in this setting (p-graph with priorities) the whole budget.
      const alone = new Set<EngineChild>();
      const aloneAbove = config.makespan.aloneAbove[limit === undefined ? "unbounded" : "limited"];
      for (const [index, child] of active.entries()) {
        const budget = warmed.has(child) ? laterWarmUp(config) : config.warmUp;
        warmed.add(child);
        const reply = await child.ask({ type: "warm", limit: limit ?? null, budget });
        const entry = runs[index];
        if (reply.type !== "warmed") continue;
        if (entry && reply.error !== undefined) entry.error = reply.error;
        if (runsAlone(reply.runMs, bound, aloneAbove)) alone.add(child);
      }
      const runOnce = async (child: EngineChild, index: number, timed: boolean) => {
        const entry = runs[index];
        if (entry === undefined || entry.error !== undefined) return;
        const reply = await child.ask({ type: "run", limit: limit ?? null });
        if (reply.type !== "ran" || reply.error !== undefined || reply.ms === undefined) {
          entry.error = reply.type === "ran" ? (reply.error ?? "no time") : `unexpected ${reply.type}`;
          return;
        }
        if (!timed) return;
        entry.ms.push(reply.ms);
        entry.ratios.push(reply.ms / bound);
        entry.observedRatios.push(reply.ms / (reply.observedBoundMs ?? bound));
      };
      await repeatInGroups(repetitionGroups(active, alone), sleepingWarmUps, reps, (child, timed) =>
        runOnce(child, active.indexOf(child), timed),
      );
      const engines: MakespanFigure[] = [
        ...active.map((child, index) => figure(child.name, runs[index])),
        ...startErrors
          .filter((failed) => limit !== undefined || failed.key !== "p-graph-priorities")
          .map((failed) => ({ engine: failed.key ?? "?", error: failed.error })),
      ];
      cases.push({ concurrency: limit ?? "unbounded", lowerBoundMs: round(bound), engines });
      log(
        `makespan ${limit ?? "unbounded"} (bound ${round(bound)} ms; alone: ${[...alone].map((c) => c.name).join(", ") || "none"}): ${engines.map((e) => `${e.engine}=${e.ratioToBound ?? e.error}`).join(", ")}`,
      );
    }
    return cases;
  } finally {
    for (const child of children) child.close();
  }
}

/**
 * `warmUps` untimed repetitions, then `reps` timed ones; each repetition runs `groups` one after another,
 * the members of a group side by side. `runOne` is told whether its run is timed.
 */
export async function repeatInGroups<T>(
  groups: readonly (readonly T[])[],
  warmUps: number,
  reps: number,
  runOne: (item: T, timed: boolean) => Promise<void>,
): Promise<void> {
  for (let rep = 0; rep < warmUps + reps; rep++)
    for (const group of groups) await Promise.all(group.map((item) => runOne(item, rep >= warmUps)));
}

/**
 * Whether an engine's timed runs go alone: its last warm-up run (instant tasks, so all of it is the
 * engine's own work) took over `aloneAbove` × the setting's lower bound. Unknown (a failed warm-up): no.
 */
export function runsAlone(runMs: number | undefined, boundMs: number, aloneAbove: number): boolean {
  return runMs !== undefined && runMs > aloneAbove * boundMs;
}

/** One repetition's order: every engine not in `alone` at the same time, then each of `alone` by itself. */
export function repetitionGroups<T>(engines: readonly T[], alone: ReadonlySet<T>): T[][] {
  const together = engines.filter((engine) => !alone.has(engine));
  const apart = engines.filter((engine) => alone.has(engine)).map((engine) => [engine]);
  return together.length > 0 ? [together, ...apart] : apart;
}

function figure(engine: string, entry: EngineRuns | undefined): MakespanFigure {
  if (entry?.error !== undefined) return { engine, error: entry.error };
  return {
    engine,
    medianMs: round(median(entry?.ms ?? [])),
    ratioToBound: round(median(entry?.ratios ?? []), 4),
    ratioToObservedBound: round(median(entry?.observedRatios ?? []), 4),
    samplesMs: (entry?.ms ?? []).map((ms) => round(ms)),
  };
}
