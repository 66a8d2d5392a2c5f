import { ObeliskError as CoreError } from "@obelisk/core";
import { createMemoryStore, type StateStore } from "@obelisk/state";
import { describe, expect, expectTypeOf, it } from "vitest";
import { createEngine, ObeliskError } from "./index.js";

/**
 * A store whose lock is taken over while a run holds it once `takeOver()` is called: from then on its
 * commits are refused with THREAD_BUSY, as the SQLite store refuses a run whose stale lock another process
 * took over (`sqlite-lock.ts`, `assertOwned`).
 */
function takenOver(store: StateStore): { readonly store: StateStore; takeOver(): void } {
  let lost = false;
  const refuse = (): never => {
    throw new CoreError(
      "THREAD_BUSY",
      'thread "t" is no longer locked by this run (another process took the lock over): the commit was refused',
      { data: { threadId: "t" }, hint: "a lock whose holder sends no heartbeat may be taken over" },
    );
  };
  const proxy = new Proxy(store, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      if (key === "commitCall" || key === "commitCalls")
        return (...args: unknown[]) => (lost ? refuse() : value.apply(target, args));
      return value.bind(target);
    },
  });
  return { store: proxy, takeOver: () => (lost = true) };
}

const plan = [{ _tool: "step", _id: "a", _outputPath: "†state.a" }];

describe("THREAD_BUSY from a run that had started (its lock taken over mid-run)", () => {
  it("carries data.runId and data.started: true, so it is told from one that never started", async () => {
    const { store, takeOver } = takenOver(createMemoryStore());
    let calls = 0;
    const engine = createEngine({
      store,
      tools: [
        {
          name: "step",
          run: () => {
            calls++;
            takeOver(); // the lock is lost while the tool runs: its result cannot be committed
            return 1;
          },
        },
      ],
    });
    const error = await engine.run(plan, { threadId: "t" }).catch((caught: unknown) => caught);
    const [run] = await engine.runs.list({ threadId: "t" });
    expect(calls).toBe(1);
    expect(error).toMatchObject({
      code: "THREAD_BUSY",
      message: expect.stringContaining("no longer locked by this run"),
      data: { threadId: "t", runId: run?.runId, started: true },
      hint: expect.stringContaining("had started"),
    });
    expect((error as Error).cause).toMatchObject({ code: "THREAD_BUSY", data: { threadId: "t" } });
    expect(run?.status).toBe("failed");
    // a host's retry-on-busy logic reads it without a cast (core's ObeliskErrorData)
    if (!ObeliskError.is(error, "THREAD_BUSY") || !error.data.started) throw new Error("not a started run");
    expectTypeOf(error.data.runId).toEqualTypeOf<string>();
    expect((await engine.runs.show(error.data.runId)).run.status).toBe("failed");
    await engine.close();
  });

  it("a stream's close() throws it the same way", async () => {
    const { store, takeOver } = takenOver(createMemoryStore());
    const engine = createEngine({ store, tools: [{ name: "step", run: () => 1 }] });
    const stream = await engine.open({ threadId: "t" });
    takeOver();
    stream.add(plan[0]);
    await expect(stream.close()).rejects.toMatchObject({
      code: "THREAD_BUSY",
      data: { threadId: "t", runId: stream.runId, started: true },
    });
    await engine.close();
  });

  it("the THREAD_BUSY of a run that never started (the lock is held) has no started flag: nothing ran", async () => {
    let release = (): void => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = (): void => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const engine = createEngine({
      tools: [
        {
          name: "step",
          run: async () => {
            started();
            await held;
            return 1;
          },
        },
      ],
    });
    const first = engine.run(plan, { threadId: "t" });
    await running;
    const error = await engine.run(plan, { threadId: "t" }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "THREAD_BUSY", data: { threadId: "t" } });
    expect((error as { data: object }).data).not.toHaveProperty("started");
    expect((error as { data: object }).data).not.toHaveProperty("runId");
    release();
    expect((await first).status).toBe("succeeded");
    await engine.close();
  });
});

describe("a run an error ended: its record says why, and run-end comes once the record is finished", () => {
  it("run: the record's reason carries the error's code and message; run-end (with the error) sees it failed", async () => {
    const { store, takeOver } = takenOver(createMemoryStore());
    const seen: string[] = [];
    const engine = createEngine({
      store,
      tools: [
        {
          name: "step",
          run: () => {
            takeOver();
            return 1;
          },
        },
      ],
    });
    let recordAtRunEnd: string | undefined;
    const error = await engine
      .run(plan, {
        threadId: "t",
        onEvent: async (event) => {
          seen.push(event.type === "call-end" ? `call-end:${event.status}` : event.type);
          if (event.type === "run-end") {
            expect(event).toMatchObject({ status: "failed", error: { code: "THREAD_BUSY" } });
            recordAtRunEnd = (await engine.runs.show(event.runId)).run.status;
          }
        },
      })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "THREAD_BUSY" });
    expect(seen).toEqual(["run-start", "call-ready", "call-start", "call-end:failed", "run-end"]);
    expect(recordAtRunEnd).toBe("failed");
    const [run] = await engine.runs.list({ threadId: "t" });
    expect(run).toMatchObject({
      status: "failed",
      reason: expect.stringMatching(/^THREAD_BUSY: .*no longer locked/),
    });
    await engine.close();
  });

  it("run: a run-end observer reads the record finished on the normal path too", async () => {
    const engine = createEngine({ tools: [{ name: "step", run: () => 1 }] });
    let recordAtRunEnd: string | undefined;
    const result = await engine.run(plan, {
      threadId: "t",
      onEvent: async (event) => {
        if (event.type === "run-end") recordAtRunEnd = (await engine.runs.show(event.runId)).run.status;
      },
    });
    expect(result.status).toBe("succeeded");
    expect(recordAtRunEnd).toBe("succeeded");
    await engine.close();
  });

  it("open: close() finishes the record before run-end, and a failed close records the reason", async () => {
    const engine = createEngine({ tools: [{ name: "step", run: () => 1 }] });
    let recordAtRunEnd: string | undefined;
    const stream = await engine.open({
      threadId: "ok",
      onEvent: async (event) => {
        if (event.type === "run-end") recordAtRunEnd = (await engine.runs.show(event.runId)).run.status;
      },
    });
    stream.add(plan[0]);
    expect((await stream.close()).status).toBe("succeeded");
    expect(recordAtRunEnd).toBe("succeeded");
    await engine.close();

    const { store, takeOver } = takenOver(createMemoryStore());
    const failing = createEngine({ store, tools: [{ name: "step", run: () => 1 }] });
    const broken = await failing.open({ threadId: "t" });
    takeOver();
    broken.add(plan[0]);
    await expect(broken.close()).rejects.toMatchObject({ code: "THREAD_BUSY" });
    expect((await failing.runs.show(broken.runId)).run).toMatchObject({
      status: "failed",
      reason: expect.stringMatching(/^THREAD_BUSY: /),
    });
    await failing.close();
  });
});

describe("run-start's queuedMs: how long a run waited for its thread and compile", () => {
  it("a run that waited for another run's lock says how long, by the engine's clock", async () => {
    let clock = 1_000;
    let release = (): void => {};
    let entered = (): void => {};
    const inTool = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const engine = createEngine({
      now: () => clock,
      lockWaitMs: 60_000,
      tools: [
        {
          name: "hold",
          run: () =>
            new Promise<number>((resolve) => {
              release = () => resolve(1);
              entered();
            }),
        },
        { name: "quick", run: () => 2 },
      ],
    });
    const queued: (number | undefined)[] = [];
    const onEvent = (event: { type: string; queuedMs?: number }): void => {
      if (event.type === "run-start") queued.push(event.queuedMs);
    };
    const first = engine.run([{ _tool: "hold", _outputPath: "†state.a" }], { threadId: "t", onEvent });
    await inTool;
    const second = engine.run([{ _tool: "quick", _outputPath: "†state.b" }], { threadId: "t", onEvent });
    clock += 5_000; // the second run waits while the first holds the thread
    release();
    expect((await first).status).toBe("succeeded");
    expect((await second).status).toBe("succeeded");
    expect(queued).toEqual([0, 5_000]);
    // a stream says the same
    const stream = await engine.open({ threadId: "t", onEvent });
    expect((await stream.close()).status).toBe("succeeded");
    expect(queued).toEqual([0, 5_000, 0]);
    await engine.close();
  });
});
