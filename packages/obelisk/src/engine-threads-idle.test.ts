import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallId, RunId, ThreadId } from "@obelisk/core";
import { createMemoryStore, type StateStore } from "@obelisk/state";
import { createSqliteStore } from "@obelisk/state/sqlite";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createEngine, type Engine } from "./index.js";

// Decision 0104, Amended (stop 41 review r3 #4, stop 42 f3 #2): an operator who expires or deletes threads
// idle for N days had to read every thread's listing; threads.list({ idleSince }) lists only those.

const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 1);
const tools = [{ name: "echo", run: (args: unknown) => (args as { v: unknown }).v }];
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A store with the given clock: memory, SQLite, and memory without `listIdleThreads` (a custom store). */
const kinds: [string, (now: () => number) => StateStore][] = [
  ["memory", (now) => createMemoryStore({ now })],
  [
    "sqlite",
    (now) => {
      const dir = mkdtempSync(join(tmpdir(), "obelisk-idle-"));
      dirs.push(dir);
      return createSqliteStore(join(dir, "state.db"), { now });
    },
  ],
  [
    "custom (no listIdleThreads)",
    (now) =>
      new Proxy(createMemoryStore({ now }), {
        get: (target, key) => (key === "listIdleThreads" ? undefined : Reflect.get(target, key, target)),
      }),
  ],
];

/**
 * Threads at day 0: "a" runs, "b" runs, "c" is opened only; day 5: "b" runs again, "d" runs; day 9: "e" is
 * created by a host's edit (no run). The engine's clock is day 10.
 */
async function history(open: (now: () => number) => StateStore): Promise<Engine> {
  let time = START;
  const now = () => time;
  const engine = createEngine({ tools, store: open(now), now });
  await engine.run([{ _tool: "echo", v: 1 }], { threadId: "a" });
  await engine.run([{ _tool: "echo", v: 1 }], { threadId: "b" });
  await engine.store.openThread("c" as never);
  time = START + 5 * DAY;
  await engine.run([{ _tool: "echo", v: 2 }], { threadId: "b" });
  await engine.run([{ _tool: "echo", v: 2 }], { threadId: "d" });
  time = START + 9 * DAY;
  await engine.set("e", "†state.x", 1);
  time = START + 10 * DAY;
  return engine;
}

const ids = (listing: readonly { threadId: string }[]): string[] => listing.map((thread) => thread.threadId);

describe.each(kinds)("threads.list({ idleSince }) on the %s store", (_name, open) => {
  it("lists the threads whose newest run ended before the time, or without a run created before it", async () => {
    const engine = await history(open);
    expect(ids(await engine.threads.list({ idleSince: START + 3 * DAY }))).toEqual(["a", "c"]);
    expect(ids(await engine.threads.list({ idleSince: new Date(START + 7 * DAY) }))).toEqual([
      "a",
      "b",
      "c",
      "d",
    ]);
    // the host's edit created "e" at day 9: idle since day 9.5, not since day 9 (strictly before)
    expect(ids(await engine.threads.list({ idleSince: START + 9 * DAY }))).toEqual(["a", "b", "c", "d"]);
    expect(ids(await engine.threads.list({ idleSince: START + 9.5 * DAY }))).toEqual([
      "a",
      "b",
      "c",
      "d",
      "e",
    ]);
    expect(await engine.threads.list({ idleSince: START })).toEqual([]);
    // each listing is the one threads.list() answers for that thread
    const all = await engine.threads.list();
    expect(await engine.threads.list({ idleSince: START + 3 * DAY })).toEqual(
      all.filter((thread) => thread.threadId === "a" || thread.threadId === "c"),
    );
    await engine.close();
  });

  it("pages the idle threads by id: limit and after as without it", async () => {
    const engine = await history(open);
    const since = START + 7 * DAY;
    const stats = vi.spyOn(engine.store, "stats");
    expect(ids(await engine.threads.list({ idleSince: since, limit: 2 }))).toEqual(["a", "b"]);
    // only the page's threads get their statistics
    expect(stats).toHaveBeenCalledTimes(2);
    expect(ids(await engine.threads.list({ idleSince: since, limit: 2, after: "b" }))).toEqual(["c", "d"]);
    expect(ids(await engine.threads.list({ idleSince: since, limit: 2, after: "d" }))).toEqual([]);
    // a cursor that names no thread, or a thread that is not idle
    expect(ids(await engine.threads.list({ idleSince: START + 3 * DAY, after: "b" }))).toEqual(["c"]);
    await engine.close();
  });

  it("a thread whose newest run has not ended is not idle", async () => {
    let time = START;
    const now = () => time;
    let release: () => void = () => {};
    let started: () => void = () => {};
    const begun = new Promise<void>((done) => (started = done));
    const engine = createEngine({
      tools: [
        {
          name: "wait",
          run: () => {
            started();
            return new Promise<number>((done) => (release = () => done(1)));
          },
        },
      ],
      store: open(now),
      now,
    });
    const running = engine.run([{ _tool: "wait" }], { threadId: "busy" });
    await begun;
    time = START + 10 * DAY;
    expect(await engine.threads.list({ idleSince: START + 5 * DAY })).toEqual([]);
    release();
    await running;
    time = START + 20 * DAY;
    expect(ids(await engine.threads.list({ idleSince: START + 15 * DAY }))).toEqual(["busy"]);
    await engine.close();
  });
});

/**
 * What a process that died mid-run leaves (review s42 rv #1): a run `running` that started at day 1 holding
 * its thread's lock, one call committed at day 2, and the lock gone with the process.
 */
async function leftRunning(store: StateStore): Promise<void> {
  const threadId = "crashed" as ThreadId;
  const runId = "r-crashed" as RunId;
  const lock = await store.lockThread(threadId);
  await store.createRun({
    runId,
    threadId,
    planHash: "sha256:x",
    plan: [],
    input: {},
    status: "running",
    startedAt: new Date(START + DAY).toISOString(),
  });
  const record = {
    threadId,
    runId,
    callId: "a" as CallId,
    tool: "echo",
    status: "succeeded" as const,
    attempts: 1,
    outputMethod: "set" as const,
    wrote: [],
    startedAt: new Date(START + DAY).toISOString(),
    endedAt: new Date(START + 2 * DAY).toISOString(),
  };
  const outcome = await store.commitCall({ record, writes: [] });
  if (!outcome.ok) throw new Error(`commit refused: ${outcome.error.code}`);
  await lock.release();
}

describe.each(kinds)("threads.list({ idleSince }) of a run left running on the %s store", (_name, open) => {
  it("counts it as ended at its last recorded activity, before and after a read marks it interrupted", async () => {
    let time = START;
    const now = () => time;
    const engine = createEngine({ tools, store: open(now), now });
    await leftRunning(engine.store);
    time = START + 10 * DAY;
    // idle since its call's end at day 2, not since whenever someone first looked at it
    expect(ids(await engine.threads.list({ idleSince: START + 3 * DAY }))).toEqual(["crashed"]);
    expect(await engine.threads.list({ idleSince: START + 2 * DAY })).toEqual([]);
    const [marked] = await engine.runs.list({ threadId: "crashed" });
    expect(marked).toMatchObject({
      status: "interrupted",
      endedAt: new Date(START + 10 * DAY).toISOString(),
    });
    time = START + 11 * DAY;
    const [listed] = await engine.threads.list({ idleSince: START + 3 * DAY });
    expect(listed).toMatchObject({ threadId: "crashed", lastRun: { status: "interrupted" } });
    expect(await engine.threads.list({ idleSince: START + 2 * DAY })).toEqual([]);
    await engine.close();
  });
});

describe("threads.list({ idleSince }): values that are not a time", () => {
  it.each([
    ["a string", "2026-01-01"],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["an invalid Date", new Date("nope")],
    ["null", null],
  ])("refuses %s (USAGE, with a hint)", async (_name, value) => {
    const engine = createEngine({ tools });
    await expect(engine.threads.list({ idleSince: value as never })).rejects.toMatchObject({
      code: "USAGE",
      message: expect.stringContaining("threads.list's idleSince must be a time"),
      hint: expect.stringContaining("Date.now() - 7 * 86_400_000"),
    });
    await engine.close();
  });

  it("a time outside four-digit years is the first or last one", async () => {
    const engine = createEngine({ tools });
    await engine.run([{ _tool: "echo", v: 1 }], { threadId: "t" });
    expect(ids(await engine.threads.list({ idleSince: 8.64e15 }))).toEqual(["t"]);
    expect(await engine.threads.list({ idleSince: -8.64e15 })).toEqual([]);
    await engine.close();
  });
});
