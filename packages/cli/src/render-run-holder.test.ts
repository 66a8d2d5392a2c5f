import {
  asRunId,
  asThreadId,
  createMemoryStore,
  type LockHolder,
  type RunRecord,
  type StateStore,
} from "obelisk";
import { describe, expect, it } from "vitest";
import type { CliIo } from "./cli-io.js";
import { createOutput } from "./output.js";
import { formatLockAge, renderRunHolder } from "./render-run-holder.js";
import { runHolder } from "./run-holder.js";

function textOutput(): { output: ReturnType<typeof createOutput>; text: () => string } {
  let buffer = "";
  const stream = { isTTY: false, write: (chunk: string) => (buffer += chunk) };
  const io: CliIo = { stdout: stream, stderr: stream, env: { NO_COLOR: "1" }, cwd: "/" };
  return { output: createOutput(io, "text"), text: () => buffer };
}

const RUN = {
  runId: asRunId("r1"),
  threadId: asThreadId("t"),
  planHash: "sha256:0",
  plan: [],
  input: {},
  status: "running",
  startedAt: "2026-11-26T00:00:00.000Z",
} as unknown as RunRecord;

const HOLDER: LockHolder = {
  host: "host-a",
  pid: 4711,
  workerThreadId: 0,
  sameProcess: false,
  heartbeatAt: "2026-11-26T00:00:00.000Z",
  heartbeatAgeMs: 2_400,
  staleMs: 30_000,
};

const rendered = (holder: LockHolder | null | undefined, run = RUN): string => {
  const { output, text } = textOutput();
  renderRunHolder(output, run, holder, " --store sqlite:s.db");
  return text();
};

describe("renderRunHolder (obelisk runs show of a running run)", () => {
  it("names the holding process and its heartbeat", () => {
    expect(rendered(HOLDER)).toBe(
      "\nstill running: held by pid 4711 on host-a, heartbeat 2 s ago (taken over after 30 s without one)\n" +
        "stuck? stop that process; then obelisk resume r1 --tools <module> --store sqlite:s.db continues the run (completed calls are satisfied)\n",
    );
    expect(rendered({ ...HOLDER, workerThreadId: 3, heartbeatAgeMs: -20 })).toContain(
      "held by pid 4711 on host-a (worker thread 3), heartbeat 0 ms ago (taken over",
    );
    // a lock without a heartbeat (memory) names the process only
    expect(rendered({ host: "host-a", pid: 4711, sameProcess: true })).toContain(
      "still running: held by pid 4711 on host-a\n",
    );
  });

  it("says a holder past staleMs is taken over by the next command that takes the lock", () => {
    expect(rendered({ ...HOLDER, heartbeatAgeMs: 185_000 })).toContain(
      "still running: held by pid 4711 on host-a, but no heartbeat for 3 min 5 s (over 30 s: hung or gone; the next command that takes the thread's lock takes it over and marks the run interrupted)\n",
    );
  });

  it("says when nobody holds the thread: not in progress, and how to continue it", () => {
    expect(rendered(null)).toBe(
      "\nnot in progress: no process holds thread t (its process stopped, or the run ended just now); the next command that takes the thread's lock marks it interrupted\n" +
        "continue it (completed calls are satisfied): obelisk resume r1 --tools <module> --store sqlite:s.db\n",
    );
  });

  it("prints nothing when the store cannot tell (a run not running, a store without lockHolder)", () => {
    expect(rendered(undefined)).toBe("");
  });

  it("formats ages in whole units", () => {
    expect([0, 999, 1_000, 2_999, 119_999, 120_000, 3_725_000].map(formatLockAge)).toEqual([
      "0 ms",
      "999 ms",
      "1 s",
      "2 s",
      "119 s",
      "2 min 0 s",
      "62 min 5 s",
    ]);
  });
});

describe("runHolder", () => {
  it("asks the store only for a running run: the holder, null when nobody holds the thread", async () => {
    const store = createMemoryStore();
    expect(await runHolder(store, RUN)).toBeNull();
    const lock = await store.lockThread(asThreadId("t"));
    expect(await runHolder(store, RUN)).toMatchObject({ pid: process.pid, sameProcess: true });
    expect(await runHolder(store, { ...RUN, status: "succeeded" })).toBeUndefined();
    await lock.release();
    // a custom store without the optional method: the CLI cannot tell, and says nothing
    const custom = { backend: "custom" } as unknown as StateStore;
    expect(await runHolder(custom, RUN)).toBeUndefined();
  });
});
