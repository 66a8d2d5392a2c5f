import { ObeliskError } from "@obelisk/core";
import type { Engine, RunRecord } from "obelisk";
import { describe, expect, it } from "vitest";
import { explainThreadBusy } from "./thread-busy.js";

/** An engine whose `runs.list` answers `running` (or throws). */
const engineWith = (running: readonly Pick<RunRecord, "startedAt">[] | Error): Engine =>
  ({
    runs: {
      list: async () => {
        if (running instanceof Error) throw running;
        return running;
      },
    },
  }) as unknown as Engine;

const busy = (data: Record<string, unknown>): ObeliskError =>
  new ObeliskError("THREAD_BUSY", 'thread "t" is locked by process 4711 on host h', {
    data: { threadId: "t", ...data },
    hint: "runs on one thread never overlap: wait for the other run, or let this one wait for the lock (the engine's lockWaitMs, the CLI's --lock-wait <ms>)",
  });

const run = { runId: "r-1", startedAt: "2026-11-26T00:00:00.000Z" };

describe("explainThreadBusy", () => {
  it("names the one running run of the thread and points at --lock-wait", async () => {
    const explained = (await explainThreadBusy(
      busy({ waitMs: 0 }),
      engineWith([run]),
      "sqlite:s.db",
      "pnpm obelisk",
    )) as ObeliskError;
    expect(explained.code).toBe("THREAD_BUSY");
    expect(explained.message).toBe(
      'thread "t" is locked by process 4711 on host h: run r-1 holds it (started 2026-11-26T00:00:00.000Z)',
    );
    expect(explained.hint).toBe(
      "runs on one thread never overlap: wait for run r-1 to end (pnpm obelisk runs show r-1 --store sqlite:s.db), or let the command wait for the lock with --lock-wait <ms>",
    );
    expect(explained.data).toEqual({ threadId: "t", waitMs: 0 });
  });

  it("says how long it waited; without one running run (none, several, unreadable) names none", async () => {
    for (const running of [[], [run, { ...run, runId: "r-2" }], new Error("closed")]) {
      const explained = (await explainThreadBusy(
        busy({ waitMs: 500 }),
        engineWith(running),
        "sqlite:.obelisk/state.db",
        "obelisk",
      )) as ObeliskError;
      expect(explained.message).toBe('thread "t" is locked by process 4711 on host h');
      expect(explained.hint).toBe(
        "runs on one thread never overlap: wait for the run or edit that holds it to end, or let the command wait for the lock with --lock-wait <ms> (this one waited 500 ms)",
      );
    }
  });

  it("keeps the hint of a THREAD_BUSY that waited for no lock (runs prune --thread), naming the run", async () => {
    const error = new ObeliskError("THREAD_BUSY", "thread t is held by a run: none of its runs was pruned", {
      data: { threadId: "t" },
      hint: "prune again once the run has finished",
    });
    const explained = (await explainThreadBusy(
      error,
      engineWith([run]),
      "memory",
      "obelisk",
    )) as ObeliskError;
    expect(explained.message).toContain(": run r-1 holds it");
    expect(explained.hint).toBe("prune again once the run has finished");
  });

  it("leaves a lost lock, a cancelled wait and any other error as they are", async () => {
    const errors = [
      busy({ started: true, runId: "r-9" }),
      busy({ cancelled: true }),
      new ObeliskError("USAGE", "no"),
      new Error("boom"),
    ];
    for (const error of errors)
      expect(await explainThreadBusy(error, engineWith([run]), "memory", "obelisk")).toBe(error);
  });
});
