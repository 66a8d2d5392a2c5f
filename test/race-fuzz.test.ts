import fc from "fast-check";
import { createEngine, createMemoryStore, type Engine, type StateStore } from "obelisk";
import { createSqliteStore } from "obelisk/sqlite";
import { describe, expect, it } from "vitest";
import { withSeed } from "./support/fuzz-seed.js";

const tick = () => new Promise((resolve) => setImmediate(resolve));

const tools = [
  {
    name: "inc",
    input: {
      type: "object",
      properties: { n: { type: "number" }, ticks: { type: "number" } },
      required: ["n"],
    },
    async run(args: { n: number; ticks?: number }) {
      for (let i = 0; i < (args.ticks ?? 1); i += 1) await tick();
      return args.n + 1;
    },
  },
];

interface Operation {
  readonly thread: number;
  readonly kind: "inc" | "set";
  readonly waits: boolean;
  readonly ticks: number;
}

const operation: fc.Arbitrary<Operation> = fc.record({
  thread: fc.nat(2),
  kind: fc.constantFrom<"inc" | "set">("inc", "inc", "inc", "set"),
  waits: fc.boolean(),
  ticks: fc.integer({ min: 0, max: 3 }),
});

/** Figures for docs/reliability.md. */
export const raceFuzzFigures = { schedules: 0, operations: 0, busy: 0 };

/** Launches every operation at once (two engines on one store: one fails fast, one waits). */
async function race(patient: Engine, impatient: Engine, ops: readonly Operation[]) {
  const launched = ops.map((op, index) => {
    const thread = `t${op.thread}`;
    if (op.kind === "set") return patient.set(thread, `†state.set${index}`, index).then(() => "set" as const);
    const engine = op.waits ? patient : impatient;
    const plan = {
      _tool: "inc",
      n: "†state.counter || †input.zero",
      ticks: op.ticks,
      _outputPath: "†state.counter",
    };
    return engine.run(plan, { threadId: thread, input: { zero: 0 } }).then((result) => result.status);
  });
  return Promise.allSettled(launched);
}

const stores: [string, () => StateStore, number][] = [
  ["memory", () => createMemoryStore(), 40],
  ["sqlite", () => createSqliteStore(":memory:"), 20],
];

describe.each(stores)("random race schedules (%s)", (_name, makeStore, numRuns) => {
  it("every accepted increment counts once, only THREAD_BUSY is refused, every set() lands", async () => {
    await withSeed("race fuzz", (seed) =>
      fc.assert(
        fc.asyncProperty(fc.array(operation, { minLength: 2, maxLength: 12 }), async (ops) => {
          const store = makeStore();
          const patient = createEngine({ store, tools: tools as never, lockWaitMs: 60_000 });
          const impatient = createEngine({ store, tools: tools as never });
          const outcomes = await race(patient, impatient, ops);
          raceFuzzFigures.schedules += 1;
          raceFuzzFigures.operations += ops.length;
          const accepted = [0, 0, 0];
          for (const [index, outcome] of outcomes.entries()) {
            const op = ops[index] as Operation;
            if (outcome.status === "rejected") {
              expect(outcome.reason).toMatchObject({ code: "THREAD_BUSY" });
              expect(op.waits).toBe(false);
              raceFuzzFigures.busy += 1;
            } else if (outcome.value !== "set") {
              expect(outcome.value).toBe("succeeded");
              accepted[op.thread] = (accepted[op.thread] ?? 0) + 1;
            }
          }
          for (let thread = 0; thread < 3; thread += 1) {
            const state = (await store.readState(`t${thread}` as never)) as Record<string, unknown>;
            expect(state.counter ?? 0).toBe(accepted[thread]);
            const sets = ops.flatMap((op, index) =>
              op.kind === "set" && op.thread === thread ? [`set${index}`] : [],
            );
            for (const key of sets) expect(state[key]).toBe(Number(key.slice(3)));
          }
          await store.close();
        }),
        { seed, numRuns },
      ),
    );
  });
});
