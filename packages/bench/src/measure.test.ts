import { describe, expect, it } from "vitest";
import type { Adapter } from "./adapters/adapter.js";
import { preparedRun } from "./adapters/adapter.js";
import { generateDag } from "./dag.js";
import { measureInterleaved, warmUntil } from "./measure.js";
import { referenceResults, work } from "./work.js";

const dag = generateDag("sparse", 20, 3);
const expected = referenceResults(dag);
const small = generateDag("sparse", 5, 3);
const warmUp = { dag: small, expected: referenceResults(small) };

/** An adapter that records each run's DAG size in `log` and returns the reference (or corrupts node 2). */
function fake(name: string, log: string[], wrong = false): Adapter {
  return {
    name,
    async prepare(d) {
      return preparedRun(async () => {
        log.push(`${name}:${d.size}`);
        const results = referenceResults(d);
        if (wrong) results[2] = -1;
        return results;
      });
    },
  };
}

describe("measureInterleaved", () => {
  it("warms up on the warm-up DAG, then runs the engines interleaved in a fixed order", async () => {
    const log: string[] = [];
    const all = await measureInterleaved([fake("a", log), fake("b", log)], dag, { task: work }, expected, {
      reps: 2,
      warmUp,
    });
    expect(log).toEqual(["a:5", "b:5", "a:20", "b:20", "a:20", "b:20"]);
    expect(all.map((e) => e.samples.length)).toEqual([2, 2]);
  });

  it("lowers an engine's repetitions from its first timed run", async () => {
    const log: string[] = [];
    const all = await measureInterleaved([fake("a", log), fake("b", log)], dag, { task: work }, expected, {
      reps: 5,
      repsFor: () => 3,
    });
    expect(all.map((e) => e.samples.length)).toEqual([3, 3]);
    expect(log).toHaveLength(6);
  });

  it("stops counting an engine after a wrong result, keeps the others", async () => {
    const log: string[] = [];
    const all = await measureInterleaved(
      [fake("bad", log, true), fake("ok", log)],
      dag,
      { task: work },
      expected,
      {
        reps: 3,
      },
    );
    expect(all[0]?.error).toBeDefined();
    expect(all[0]?.samples).toHaveLength(0);
    expect(all[1]?.samples).toHaveLength(3);
    expect(log.filter((line) => line.startsWith("bad"))).toHaveLength(1);
  });

  it("repeats warm-up runs on the case's DAG within the run budget, for every engine", async () => {
    const log: string[] = [];
    await measureInterleaved([fake("a", log), fake("b", log)], dag, { task: work }, expected, {
      reps: 1,
      warmUp: { ...warmUp, repeat: { budgetMs: 60_000, maxRuns: 2 } },
    });
    expect(log).toEqual(["a:5", "a:20", "a:20", "b:5", "b:20", "b:20", "a:20", "b:20"]);
  });

  it("stops repeating warm-up runs once the time budget is spent", async () => {
    const log: string[] = [];
    await measureInterleaved([fake("a", log)], dag, { task: work }, expected, {
      reps: 1,
      warmUp: { ...warmUp, repeat: { budgetMs: 0, maxRuns: 5 } },
    });
    expect(log).toEqual(["a:5", "a:20"]);
  });

  it("applies each adapter's own time limit", async () => {
    // a negative limit: any run is over it, whatever the clock says
    const log: string[] = [];
    const all = await measureInterleaved([fake("a", log), fake("b", log)], dag, { task: work }, expected, {
      reps: 2,
      timeoutMs: [Number.POSITIVE_INFINITY, -1],
    });
    expect(all[0]?.samples).toHaveLength(2);
    expect(all[1]?.tooSlow).toBeDefined();
    expect(all[1]?.samples).toHaveLength(0);
  });

  it("checks the warm-up run too", async () => {
    const log: string[] = [];
    const all = await measureInterleaved([fake("bad", log, true)], dag, { task: work }, expected, {
      reps: 3,
      warmUp,
    });
    expect(all[0]?.error).toBeDefined();
    expect(log).toEqual(["bad:5"]);
  });
});

describe("warmUntil", () => {
  it("counts the runs' own times against the budget, not the time around them", async () => {
    // each run reports 4 ms of run time; whatever the GC, setup and checks around it cost is not counted
    let runs = 0;
    const spent = await warmUntil({ budgetMs: 10, maxRuns: 20 }, async () => {
      runs++;
      return 4;
    });
    expect(runs).toBe(3);
    expect(spent).toBe(12);
  });

  it("counts the run time already spent, stops at maxRuns and on a failed run", async () => {
    let runs = 0;
    await warmUntil({ budgetMs: 10, maxRuns: 20 }, async () => ++runs && 4, 8);
    expect(runs).toBe(1);
    runs = 0;
    await warmUntil({ budgetMs: 1_000, maxRuns: 2 }, async () => ++runs && 1);
    expect(runs).toBe(2);
    runs = 0;
    await warmUntil({ budgetMs: 1_000, maxRuns: 5 }, async () => (++runs === 2 ? undefined : 1));
    expect(runs).toBe(2);
  });
});
