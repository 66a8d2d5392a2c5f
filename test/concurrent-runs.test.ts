import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngine, createMemoryStore, type Engine, type StateStore } from "obelisk";
import { createSqliteStore } from "obelisk/sqlite";
import { afterAll, describe, expect, it, vi } from "vitest";
import { signal } from "./support/manual-timers.js";

const tick = () => new Promise((resolve) => setImmediate(resolve));
const workDir = mkdtempSync(join(tmpdir(), "obelisk-race-"));
let files = 0;
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

/** Figures for docs/reliability.md. */
export const raceFigures = { runs: 0, busy: 0 };
afterAll(() => {
  console.log(`concurrent-runs figures: ${JSON.stringify(raceFigures)}`);
});

/** `inc` adds one to its argument after a tick; `gate` waits for the test to open it. */
function raceTools(gate: { promise: Promise<void> }, started: () => void) {
  return [
    {
      name: "inc",
      input: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
      async run(args: { n: number }) {
        await tick();
        return args.n + 1;
      },
    },
    {
      name: "gate",
      input: { type: "object" },
      async run() {
        started();
        await gate.promise;
        return "opened";
      },
    },
  ];
}

const INCREMENT = { _tool: "inc", n: "†state.counter || †input.zero", _outputPath: "†state.counter" };
const INPUT = { zero: 0 };

const stores: [string, () => StateStore][] = [
  ["memory", () => createMemoryStore()],
  ["sqlite", () => createSqliteStore(join(workDir, `race-${files++}.db`))],
];

describe.each(stores)("concurrent runs (%s)", (_name, makeStore) => {
  it("one thread, no lock wait: exactly one run holds the thread, the others fail THREAD_BUSY at once", async () => {
    const gate = signal();
    let started = 0;
    const engine = createEngine({ store: makeStore(), tools: raceTools(gate, () => started++) as never });
    const runs = Array.from({ length: 20 }, () =>
      engine.run({ _tool: "gate", _outputPath: "†state.g" }, { threadId: "t" }),
    );
    const settled = Promise.allSettled(runs);
    while (started === 0) await tick();
    gate.resolve();
    const outcomes = await settled;
    const fulfilled = outcomes.filter((outcome) => outcome.status === "fulfilled");
    const busy = outcomes.filter(
      (outcome) =>
        outcome.status === "rejected" && (outcome.reason as { code?: string }).code === "THREAD_BUSY",
    );
    expect(fulfilled).toHaveLength(1);
    expect(busy).toHaveLength(19);
    expect(started).toBe(1);
    expect(await engine.runs.list({ threadId: "t" })).toHaveLength(1);
    raceFigures.runs += 20;
    raceFigures.busy += busy.length;
    await engine.close();
  });

  it("one thread with a lock wait: 30 racing increments serialize, no lost update, call ids only go up", async () => {
    const engine = createEngine({
      store: makeStore(),
      lockWaitMs: 60_000,
      tools: raceTools(signal(), () => undefined) as never,
    });
    const results = await Promise.all(
      Array.from({ length: 30 }, () =>
        engine.run({ type: "plan", plan: [INCREMENT] }, { threadId: "t", input: INPUT }),
      ),
    );
    expect(results.every((result) => result.status === "succeeded")).toBe(true);
    expect(await engine.get("t", "†state.counter")).toMatchObject({ value: 30 });
    const log = await engine.store.readWriteLog("t" as never);
    expect(log.map((entry) => entry.write.value)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    const callNumbers = log.map((entry) => Number(entry.call.id.split("$")[1]));
    expect(callNumbers).toHaveLength(30);
    expect(callNumbers).toEqual([...callNumbers].sort((a, b) => a - b));
    expect(new Set(callNumbers).size).toBe(30);
    raceFigures.runs += 30;
    await engine.close();
  });

  it("different threads never wait for each other: 10 gated runs start together; 5 increments each", async () => {
    const gate = signal();
    let started = 0;
    const engine = createEngine({
      store: makeStore(),
      lockWaitMs: 60_000,
      tools: raceTools(gate, () => started++) as never,
    });
    const gated = Array.from({ length: 10 }, (_, t) =>
      engine.run({ _tool: "gate", _outputPath: "†state.g" }, { threadId: `g${t}` }),
    );
    while (started < 10) await tick();
    gate.resolve();
    expect((await Promise.all(gated)).every((result) => result.status === "succeeded")).toBe(true);
    const increments = Array.from({ length: 50 }, (_, i) =>
      engine.run({ type: "plan", plan: [INCREMENT] }, { threadId: `c${i % 10}`, input: INPUT }),
    );
    await Promise.all(increments);
    for (let t = 0; t < 10; t += 1)
      expect(await engine.get(`c${t}`, "†state.counter")).toMatchObject({ value: 5 });
    raceFigures.runs += 60;
    await engine.close();
  });

  it("set() during a run is THREAD_BUSY (SPEC §8: edits never land during a run); a streaming run holding the lock loses nothing", async () => {
    const gate = signal();
    let started = 0;
    const engine = createEngine({ store: makeStore(), tools: raceTools(gate, () => started++) as never });
    const running = engine.run({ _tool: "gate", _outputPath: "†state.g" }, { threadId: "t" });
    while (started === 0) await tick();
    await expect(engine.set("t", "†state.fromSet", { written: true })).rejects.toMatchObject({
      code: "THREAD_BUSY",
    });
    gate.resolve();
    const result = await running;
    expect(result.state).toEqual({ g: "opened" });
    await engine.set("t", "†state.fromSet", { written: true });

    const stream = await engine.open({ threadId: "t", input: INPUT });
    await expect(
      engine.run({ type: "plan", plan: [INCREMENT] }, { threadId: "t", input: INPUT }),
    ).rejects.toMatchObject({
      code: "THREAD_BUSY",
    });
    expect(stream.add(INCREMENT).ok).toBe(true);
    const closed = await stream.close();
    expect(closed.state).toEqual({ g: "opened", fromSet: { written: true }, counter: 1 });
    const after = await engine.run({ type: "plan", plan: [INCREMENT] }, { threadId: "t", input: INPUT });
    expect(after.state.counter).toBe(2);
    raceFigures.runs += 4;
    raceFigures.busy += 1;
    await engine.close();
  });
});

describe("two SQLite connections on one file (as two processes would)", () => {
  it("THREAD_BUSY without a wait; with a wait the second run proceeds after the first and nothing is lost", async () => {
    const file = join(workDir, "shared.db");
    const gate = signal();
    let started = 0;
    const one: Engine = createEngine({
      store: createSqliteStore(file),
      tools: raceTools(gate, () => started++) as never,
    });
    const two: Engine = createEngine({
      store: createSqliteStore(file),
      tools: raceTools(signal(), () => undefined) as never,
      lockWaitMs: 60_000,
    });
    const three: Engine = createEngine({
      store: createSqliteStore(file),
      tools: raceTools(signal(), () => undefined) as never,
    });
    const first = one.run({ _tool: "gate", _outputPath: "†state.g" }, { threadId: "t" });
    while (started === 0) await tick();
    await expect(
      three.run({ type: "plan", plan: [INCREMENT] }, { threadId: "t", input: INPUT }),
    ).rejects.toMatchObject({
      code: "THREAD_BUSY",
    });
    const waiting = two.run({ type: "plan", plan: [INCREMENT] }, { threadId: "t", input: INPUT });
    gate.resolve();
    await first;
    const second = await waiting;
    expect(second.state).toEqual({ g: "opened", counter: 1 });
    const third = await three.run({ type: "plan", plan: [INCREMENT] }, { threadId: "t", input: INPUT });
    expect(third.state).toEqual({ g: "opened", counter: 2 });
    const numbers = [second, third].map((result) => Number(Object.keys(result.calls)[0]?.split("$")[1]));
    expect(numbers[1]).toBeGreaterThan(numbers[0] as number);
    raceFigures.runs += 4;
    raceFigures.busy += 1;
    for (const engine of [one, two, three]) await engine.close();
  });
});

describe.each(stores)("lock waits and counters (%s)", (_name, makeStore) => {
  it("a waiter waits exactly lockWaitMs, then THREAD_BUSY; a waiter granted in time runs (fake timers)", async () => {
    // The lock wait is the engine's own setTimeout: faked here, so no real time passes.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const gate = signal();
      let started = 0;
      const engine = createEngine({
        store: makeStore(),
        lockWaitMs: 30,
        tools: raceTools(gate, () => started++) as never,
      });
      const holder = engine.run({ _tool: "gate", _outputPath: "†state.g" }, { threadId: "t" });
      while (started === 0) await tick();
      let settled: unknown;
      const waiter = engine.run({ type: "plan", plan: [INCREMENT] }, { threadId: "t", input: INPUT }).then(
        (result) => {
          settled = result.status;
        },
        (error: { code?: string }) => {
          settled = error.code;
        },
      );
      await vi.advanceTimersByTimeAsync(29);
      expect(settled).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      await waiter;
      expect(settled).toBe("THREAD_BUSY");
      // A second waiter is granted the lock when the holder ends, before its deadline, and runs.
      const granted = engine.run({ type: "plan", plan: [INCREMENT] }, { threadId: "t", input: INPUT });
      await vi.advanceTimersByTimeAsync(10);
      gate.resolve();
      expect((await holder).state).toEqual({ g: "opened" });
      expect((await granted).state).toEqual({ g: "opened", counter: 1 });
      raceFigures.runs += 3;
      raceFigures.busy += 1;
      await engine.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it("automatic call numbers keep going up across reset() and (SQLite) reopening the file", async () => {
    const file = join(workDir, `counters-${files++}.db`);
    const open = () =>
      createEngine({
        store: _name === "sqlite" ? createSqliteStore(file) : makeStore(),
        tools: raceTools(signal(), () => undefined) as never,
      });
    const numbers: number[] = [];
    const record = (result: { calls: Record<string, unknown> }) =>
      numbers.push(...Object.keys(result.calls).map((id) => Number(id.split("$")[1])));
    let engine = open();
    const two = { type: "plan", plan: [INCREMENT, { _tool: "inc", n: 1, _outputPath: "†state.x" }] };
    record(await engine.run(two, { threadId: "t", input: INPUT }));
    record(await engine.run({ type: "plan", plan: [INCREMENT] }, { threadId: "t", input: INPUT }));
    await engine.reset("t");
    record(await engine.run({ type: "plan", plan: [INCREMENT] }, { threadId: "t", input: INPUT }));
    if (_name === "sqlite") {
      await engine.close();
      engine = open();
      record(await engine.run({ type: "plan", plan: [INCREMENT] }, { threadId: "t", input: INPUT }));
    }
    expect(numbers.length).toBe(_name === "sqlite" ? 5 : 4);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(new Set(numbers).size).toBe(numbers.length);
    await engine.close();
  });
});
