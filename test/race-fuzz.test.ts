import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { createEngine, createMemoryStore, type Engine, type StateStore } from "obelisk";
import { createSqliteStore } from "obelisk/sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { withSeed } from "./support/fuzz-seed.js";

const workDir = mkdtempSync(join(tmpdir(), "obelisk-race-fuzz-"));
let files = 0;
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

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
afterAll(() => {
  console.log(`race-fuzz figures: ${JSON.stringify(raceFuzzFigures)}`);
});

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

/** Two stores the engines use: one store twice, or two connections on one SQLite file (two processes). */
interface Setup {
  readonly patient: StateStore;
  readonly impatient: StateStore;
}
const setups: [string, () => Setup, number][] = [
  [
    "memory",
    () => {
      const store = createMemoryStore();
      return { patient: store, impatient: store };
    },
    40,
  ],
  [
    "sqlite, one connection",
    () => {
      const store = createSqliteStore(":memory:");
      return { patient: store, impatient: store };
    },
    20,
  ],
  [
    "sqlite, two connections on one file",
    () => {
      const file = join(workDir, `race-${files++}.db`);
      return { patient: createSqliteStore(file), impatient: createSqliteStore(file) };
    },
    12,
  ],
];

/** Counter writes of a thread's log: values in log order, and the automatic call numbers that wrote them. */
function counterHistory(
  log: readonly { call: { id: string }; write: { path: readonly unknown[]; value: unknown } }[],
) {
  const writes = log.filter((entry) => entry.write.path.length === 1 && entry.write.path[0] === "counter");
  return {
    values: writes.map((entry) => entry.write.value),
    callNumbers: writes.map((entry) => Number(entry.call.id.split("$")[1])),
  };
}

/**
 * The values the thread's `inc` calls wrote, in the order of the call numbers that wrote them (the counter
 * takes one number per call), from the call records of its runs.
 */
async function incrementHistory(store: StateStore, threadId: never) {
  const written: [number, number][] = [];
  for (const run of await store.listRuns({ threadId })) {
    for (const record of await store.listCallRecords(run.runId)) {
      if (record.tool !== "inc" || record.status !== "succeeded") continue;
      written.push([Number(record.callId.split("$")[1]), record.result as number]);
    }
  }
  written.sort((a, b) => a[0] - b[0]);
  return { values: written.map(([, value]) => value), callNumbers: written.map(([number]) => number) };
}

describe.each(setups)("random race schedules (%s)", (_name, makeSetup, numRuns) => {
  it("every accepted increment counts once, counters never go back, only THREAD_BUSY is refused, every set() lands", async () => {
    await withSeed("race fuzz", (seed) =>
      fc.assert(
        fc.asyncProperty(fc.array(operation, { minLength: 2, maxLength: 12 }), async (ops) => {
          const setup = makeSetup();
          const patient = createEngine({ store: setup.patient, tools: tools as never, lockWaitMs: 60_000 });
          const impatient = createEngine({ store: setup.impatient, tools: tools as never });
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
          // Two connections: read back through a fresh one (what a restarted process would see).
          const twoConnections = setup.patient !== setup.impatient;
          if (twoConnections) for (const store of [setup.patient, setup.impatient]) await store.close();
          const reader = twoConnections
            ? createSqliteStore(join(workDir, `race-${files - 1}.db`))
            : setup.patient;
          for (let thread = 0; thread < 3; thread += 1) {
            const threadId = `t${thread}` as never;
            const state = (await reader.readState(threadId)) as Record<string, unknown>;
            expect(state.counter ?? 0).toBe(accepted[thread]);
            const sets = ops.flatMap((op, index) =>
              op.kind === "set" && op.thread === thread ? [`set${index}`] : [],
            );
            for (const key of sets) expect(state[key]).toBe(Number(key.slice(3)));
            // The counter only goes up, one at a time, and the call numbers that wrote it only go up: the
            // increments' call records, each one value (records keep a small result, decision 0029).
            const increments = await incrementHistory(reader, threadId);
            expect(increments.values).toEqual(Array.from({ length: accepted[thread] ?? 0 }, (_, i) => i + 1));
            expect(new Set(increments.callNumbers).size).toBe(increments.callNumbers.length);
            // The write log folds to the state, in commit order; compaction may drop a counter write a later
            // one replaced (decision 0029), never reorder them or drop the last.
            const history = counterHistory(await reader.readWriteLog(threadId));
            expect(history.values).toEqual([...history.values].sort((a, b) => (a as number) - (b as number)));
            expect(history.values.at(-1)).toBe(accepted[thread] === 0 ? undefined : accepted[thread]);
            expect(history.callNumbers).toEqual([...history.callNumbers].sort((a, b) => a - b));
            expect(new Set(history.callNumbers).size).toBe(history.callNumbers.length);
          }
          await reader.close();
        }),
        { seed, numRuns },
      ),
    );
  }, 60_000);
});
