import { describe, expect, it } from "vitest";
import { codeOf } from "./__fixtures__/error-codes.js";
import { createEngine } from "./index.js";

const echo = { name: "echo", run: () => 1 };
const plan = [
  { _tool: "echo", _id: "a", _outputPath: "†state.a" },
  { _tool: "echo", _id: "b", _outputPath: "†state.b" },
];

/** A clock that answers `good` times, then breaks (NaN, or a throw). */
function breakingClock(good: number, how: "nan" | "throw"): () => number {
  let calls = 0;
  return () => {
    calls++;
    if (calls <= good) return 1_700_000_000_000 + calls;
    if (how === "throw") throw new Error("clock broke");
    return Number.NaN;
  };
}

describe("an injected clock that breaks during a run", () => {
  it.each(["nan", "throw"] as const)(
    "(%s) fails the run with USAGE and the record still ends",
    async (how) => {
      // the clock breaks after the run is recorded, at each later moment it is read
      let recordedAndBroken = 0;
      for (let good = 1; good <= 12; good++) {
        const engine = createEngine({ tools: [echo], now: breakingClock(good, how) });
        const code = await codeOf(() => engine.run(plan, { threadId: "t" }));
        const runs = await engine.runs.list({ threadId: "t" });
        if (code === undefined) break; // from here on the good answers carry the whole run
        expect(code).toBe("USAGE");
        if (runs.length > 0) recordedAndBroken++;
        for (const run of runs) expect(run.status).not.toBe("running");
      }
      expect(recordedAndBroken).toBeGreaterThan(0);
    },
  );
});

describe("an injected random source that breaks during a retry", () => {
  const flaky = {
    name: "flaky",
    retry: { attempts: 3, backoffMs: 10, maxDelayMs: 20, jitter: true },
    run: () => {
      throw new Error("always");
    },
  };

  const broken: [string, () => number][] = [
    [
      "throws",
      () => {
        throw new Error("random broke");
      },
    ],
    ["answers outside [0, 1)", () => 5],
    ["answers NaN", () => Number.NaN],
  ];
  it.each(broken)(
    "(%s) fails the run with USAGE, not STORE_ERROR, and the record ends",
    async (_name, random) => {
      const engine = createEngine({ tools: [flaky], random });
      const code = await codeOf(() =>
        engine.run([{ _tool: "flaky", _id: "f", _outputPath: "†state.f" }], { threadId: "t" }),
      );
      expect(code).toBe("USAGE");
      const runs = await engine.runs.list({ threadId: "t" });
      expect(runs.map((run) => run.status)).toEqual(["failed"]);
    },
  );
});
