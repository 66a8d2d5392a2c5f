import { asRunId, asThreadId } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import type { RunRecord, RunsOptions, StateStore } from "../store-types.js";
import { runRecord, THREAD } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";

const OTHER = asThreadId("thread-2");
const ENDED = "2025-01-01T00:00:01.000Z";
const call = (id: string) => ({ _tool: "t", _id: id });

/** `run` as a summary: without plan and input, with its plan's call count. */
function summaryOf(run: RunRecord): Record<string, unknown> {
  const { plan, input: _input, ...rest } = run;
  const list = (plan as { plan?: unknown[] }).plan ?? [];
  return { ...rest, calls: list.length };
}

/** r1..r4 (r3 on OTHER, r4 failed): plans of 1..4 calls with a large input; r5 running with appended calls. */
async function history(store: StateStore): Promise<void> {
  for (let n = 1; n <= 4; n++) {
    const runId = asRunId(`r${n}`);
    await store.createRun(
      runRecord({
        runId,
        threadId: n === 3 ? OTHER : THREAD,
        plan: { type: "plan", plan: Array.from({ length: n }, (_, i) => call(`c${i}`)) },
        input: { big: "x".repeat(10_000) },
      }),
    );
    await store.finishRun(runId, n === 4 ? "failed" : "succeeded", ENDED);
  }
}

/** `listRunSummaries` (decision 0104): `listRuns`' runs and order, without plan and input, with a call count. */
export function runSummariesCases(openStore: OpenStore): void {
  describe("listRunSummaries", () => {
    it("answers listRuns' runs for the same options, each without plan and input, with its calls", async () => {
      const store = await openStore();
      await history(store);
      const options: RunsOptions[] = [
        {},
        { limit: 2 },
        { threadId: THREAD },
        { threadId: THREAD, limit: 1 },
        { status: "failed" },
        { threadId: THREAD, status: "succeeded" },
        { before: asRunId("r4") },
        { threadId: THREAD, before: asRunId("r2"), limit: 5 },
      ];
      for (const given of options) {
        const summaries = await store.listRunSummaries?.(given);
        expect(summaries, JSON.stringify(given)).toEqual((await store.listRuns(given)).map(summaryOf));
        for (const summary of summaries ?? []) {
          expect(summary).not.toHaveProperty("plan");
          expect(summary).not.toHaveProperty("input");
        }
      }
      expect((await store.listRunSummaries?.())?.map((run) => [run.runId, run.calls])).toEqual([
        ["r4", 4],
        ["r3", 3],
        ["r2", 2],
        ["r1", 1],
      ]);
    });

    it("counts a streaming run's appended calls, and marks a running run whose lock is free interrupted", async () => {
      const store = await openStore();
      const lock = await store.lockThread(THREAD);
      await store.createRun(runRecord({ runId: asRunId("s"), plan: { type: "plan", plan: [call("a")] } }));
      await store.appendRunCalls?.(asRunId("s"), [call("b"), call("c")]);
      expect(await store.listRunSummaries?.({ threadId: THREAD })).toMatchObject([
        { runId: "s", status: "running", calls: 3 },
      ]);
      await lock.release();
      const [interrupted] = (await store.listRunSummaries?.({ status: "interrupted" })) ?? [];
      expect(interrupted).toMatchObject({ runId: "s", status: "interrupted", calls: 3 });
      expect(interrupted).toEqual(
        summaryOf((await store.listRuns({ status: "interrupted" }))[0] as RunRecord),
      );
    });

    it("checks its options as listRuns does (USAGE), and an unknown cursor is RUN_NOT_FOUND", async () => {
      const store = await openStore();
      await history(store);
      await expect(
        Promise.resolve().then(() => store.listRunSummaries?.({ limit: -1 })),
      ).rejects.toMatchObject({ code: "USAGE" });
      await expect(
        Promise.resolve().then(() => store.listRunSummaries?.({ before: asRunId("nope") })),
      ).rejects.toMatchObject({ code: "RUN_NOT_FOUND" });
    });
  });
}
