import { describe, expect, it, vi } from "vitest";
import { codeOf } from "./__fixtures__/error-codes.js";
import { createEngine, createMemoryStore, type StateStore } from "./index.js";

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
        // a run recorded succeeded is answered (s33r F11): a thrown error would invite running it twice
        for (const run of runs) expect(run.status).not.toMatch(/^(running|succeeded)$/);
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

/** A memory store whose `method` rejects with `thrown` (a value, not an Error). */
function failingStore(method: keyof StateStore, thrown: unknown): StateStore {
  const inner = createMemoryStore();
  return new Proxy(inner, {
    get(target, key) {
      if (key === method) return () => Promise.reject(thrown);
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("a custom store's failures (review s33r F11)", () => {
  it("retention failing after the run's end is recorded: the run's result stands, with a process warning", async () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    try {
      const engine = createEngine({ tools: [echo], store: failingStore("applyRetention", "backend down") });
      const result = await engine.run(plan, { threadId: "t" });
      expect(result.status).toBe("succeeded");
      expect(result.state).toEqual({ a: 1, b: 1 });
      expect(warn).toHaveBeenCalledWith(
        expect.stringContaining("backend down"),
        expect.objectContaining({ code: "OBELISK_AFTER_RUN_ERROR" }),
      );
    } finally {
      warn.mockRestore();
    }
  });

  it.each([null, "store broke"])(
    "a store rejecting with %j is STORE_ERROR, the value kept as cause",
    async (thrown) => {
      const engine = createEngine({ tools: [echo], store: failingStore("getThread", thrown) });
      const error = await engine.run(plan, { threadId: "t" }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: "STORE_ERROR", message: expect.stringContaining(String(thrown)) });
      expect((error as Error).cause).toBe(thrown);
    },
  );
});
