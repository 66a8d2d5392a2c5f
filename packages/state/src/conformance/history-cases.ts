import { asCallId, asRunId, asThreadId } from "@obelisk/core";
import { describe, expect, it } from "vitest";
import type { RunRecord } from "../store-types.js";
import { commitOf, commitOk, RUN, THREAD, write } from "./commit-fixtures.js";
import type { OpenStore } from "./describe-store-conformance.js";

const run = (id: string, threadId = THREAD): RunRecord => ({
  runId: asRunId(id),
  threadId,
  planHash: "sha256:abc",
  plan: { type: "plan", plan: [] },
  input: { x: 1 },
  status: "running",
  startedAt: "2025-01-01T00:00:00.000Z",
});

/** Runs, call records, the satisfied check, stored call outputs, counters and statistics. */
export function historyCases(openStore: OpenStore): void {
  describe("history", () => {
    it("records runs, finishes them and lists them newest first", async () => {
      const store = await openStore();
      await store.createRun(run("r1"));
      await store.createRun(run("r2"));
      await store.createRun(run("r3", asThreadId("other")));
      await store.finishRun(asRunId("r1"), "succeeded", "2025-01-01T00:00:01.000Z");
      expect(await store.getRun(asRunId("r1"))).toMatchObject({
        status: "succeeded",
        endedAt: "2025-01-01T00:00:01.000Z",
        input: { x: 1 },
      });
      expect((await store.listRuns()).map((r) => r.runId)).toEqual(["r3", "r2", "r1"]);
      expect((await store.listRuns({ threadId: THREAD, limit: 1 })).map((r) => r.runId)).toEqual(["r2"]);
      expect(await store.getRun(asRunId("missing"))).toBeUndefined();
      // a run recorded before its calls were known (streaming) ends with its plan
      const plan = { type: "plan", plan: [{ _tool: "t", _id: "a" }] };
      await store.finishRun(asRunId("r2"), "cancelled", "2025-01-01T00:00:02.000Z", {
        plan,
        planHash: "sha256:abc" as never,
      });
      expect(await store.getRun(asRunId("r2"))).toMatchObject({
        status: "cancelled",
        plan,
        planHash: "sha256:abc",
      });
      await expect(
        Promise.resolve().then(() => store.finishRun(asRunId("missing"), "failed", "x")),
      ).rejects.toMatchObject({
        code: "RUN_NOT_FOUND",
      });
    });

    it("refuses a run id it already holds with USAGE, leaving the recorded run and the store as they were", async () => {
      const store = await openStore();
      const other = asThreadId("other");
      await store.createRun(run("r1"));
      await store.finishRun(asRunId("r1"), "succeeded", "2025-01-01T00:00:01.000Z");
      const lock = await store.lockThread(THREAD);
      await store.createRun(run("r2"));
      const before = {
        r1: await store.getRun(asRunId("r1")),
        r2: await store.getRun(asRunId("r2")),
        runs: await store.listRuns(),
        stats: await store.stats(),
      };
      const again = [
        // a finished run, a running one (its lock held), and one named for another thread (not created)
        { ...run("r1"), input: { x: 2 } },
        { ...run("r2"), status: "succeeded" as const, endedAt: "2025-01-01T00:00:02.000Z" },
        run("r1", other),
      ];
      for (const record of again)
        await expect(Promise.resolve().then(() => store.createRun(record))).rejects.toMatchObject({
          code: "USAGE",
          data: { runId: record.runId },
        });
      expect(await store.getRun(asRunId("r1"))).toEqual(before.r1);
      expect(await store.getRun(asRunId("r2"))).toEqual(before.r2);
      expect(await store.listRuns()).toEqual(before.runs);
      expect(await store.stats()).toEqual(before.stats);
      expect(await store.getThread(other)).toBeUndefined();
      await lock.release();
    });

    it("records the reason finishRun is given, keeps the earlier one without, refuses bad options", async () => {
      const store = await openStore();
      const lock = await store.lockThread(THREAD);
      await store.createRun(run("r1"));
      await store.createRun(run("r2"));
      const closed = "its engine was closed (engine.close()) while it ran";
      await store.finishRun(asRunId("r1"), "interrupted", "2025-01-01T00:00:01.000Z", undefined, {
        reason: closed,
      });
      expect(await store.getRun(asRunId("r1"))).toMatchObject({ status: "interrupted", reason: closed });
      expect((await store.listRuns({ status: "interrupted" })).map((r) => [r.runId, r.reason])).toEqual([
        ["r1", closed],
      ]);
      // with a final plan too (a streaming run stopped by close)
      const plan = { type: "plan", plan: [{ _tool: "t", _id: "a" }] };
      const final = { plan, planHash: "sha256:abc" as never };
      await store.finishRun(asRunId("r2"), "interrupted", "2025-01-01T00:00:02.000Z", final, { reason: "x" });
      expect(await store.getRun(asRunId("r2"))).toMatchObject({ status: "interrupted", reason: "x", plan });
      await lock.release();
      // resume cancels it without a reason: the recorded one stays; a new reason replaces it
      await store.finishRun(asRunId("r1"), "cancelled", "2025-01-01T00:00:03.000Z");
      expect(await store.getRun(asRunId("r1"))).toMatchObject({ status: "cancelled", reason: closed });
      await store.finishRun(asRunId("r1"), "cancelled", "2025-01-01T00:00:04.000Z", undefined, {
        reason: "resumed as r9",
      });
      expect(await store.getRun(asRunId("r1"))).toMatchObject({ reason: "resumed as r9" });
      const before = await store.listRuns();
      for (const options of [{ reason: 1 }, { reason: null }, { why: "x" }, "x", null, []]) {
        await expect(
          Promise.resolve().then(() =>
            store.finishRun(asRunId("r2"), "failed", "later", undefined, options as never),
          ),
        ).rejects.toMatchObject({ code: "USAGE" });
      }
      expect(await store.listRuns()).toEqual(before);
    });

    it("appends a streaming run's calls to its plan while it runs, and refuses once it has ended", async () => {
      const store = await openStore();
      // a run holds its thread's lock while it runs (without it, reading it marks it interrupted)
      const lock = await store.lockThread(THREAD);
      await store.createRun(run("r1"));
      const first = { _tool: "t", _id: "a" };
      const second = { _tool: "t", _id: "b", x: "†state.a" };
      await store.appendRunCalls?.(asRunId("r1"), [first]);
      await store.appendRunCalls?.(asRunId("r1"), [second]);
      expect(await store.getRun(asRunId("r1"))).toMatchObject({
        status: "running",
        plan: { type: "plan", plan: [first, second] },
        input: { x: 1 },
      });
      await expect(
        Promise.resolve().then(() => store.appendRunCalls?.(asRunId("missing"), [first])),
      ).rejects.toMatchObject({ code: "RUN_NOT_FOUND" });
      await store.createRun({ ...run("r2"), plan: [] });
      await expect(
        Promise.resolve().then(() => store.appendRunCalls?.(asRunId("r2"), [first])),
      ).rejects.toMatchObject({ code: "USAGE", message: expect.stringContaining("no call list") });
      expect((await store.listRuns({ threadId: THREAD, limit: 2 })).map((r) => r.plan)).toContainEqual({
        type: "plan",
        plan: [first, second],
      });
      // finishing without a final plan keeps the appended calls in the record
      await store.finishRun(asRunId("r1"), "succeeded", "2025-01-01T00:00:01.000Z");
      await lock.release();
      await expect(
        Promise.resolve().then(() => store.appendRunCalls?.(asRunId("r1"), [first])),
      ).rejects.toMatchObject({ code: "USAGE", message: expect.stringContaining("has ended") });
      expect((await store.getRun(asRunId("r1")))?.plan).toEqual({ type: "plan", plan: [first, second] });
    });

    it("refuses bad listRuns / getRun / listCallRecords arguments with USAGE, the same on every backend", async () => {
      const store = await openStore();
      for (const id of ["r1", "r2", "r3"]) await store.createRun(run(id));
      const listed = async (options: unknown) =>
        (await store.listRuns(options as Parameters<typeof store.listRuns>[0])).map((r) => r.runId);
      expect(await listed(undefined)).toEqual(["r3", "r2", "r1"]);
      expect(await listed({})).toEqual(["r3", "r2", "r1"]);
      expect(await listed({ limit: 0 })).toEqual([]);
      expect(await listed({ limit: 2 })).toEqual(["r3", "r2"]);
      expect(await listed({ limit: 10 })).toEqual(["r3", "r2", "r1"]);
      expect(await listed({ threadId: "nobody" })).toEqual([]);
      const refused = [
        { limit: -1 },
        { limit: Number.NaN },
        { limit: 1.5 },
        { limit: "2" },
        { limit: Number.POSITIVE_INFINITY },
        { limit: Number.NEGATIVE_INFINITY },
        { limit: null },
        { threadId: {} },
        { threadId: 5 },
        { threadId: null },
        null,
        5,
        [],
      ];
      for (const options of refused)
        await expect(Promise.resolve().then(() => listed(options))).rejects.toMatchObject({ code: "USAGE" });
      for (const runId of [{}, 5, null, undefined]) {
        await expect(Promise.resolve().then(() => store.getRun(runId as never))).rejects.toMatchObject({
          code: "USAGE",
        });
        await expect(
          Promise.resolve().then(() => store.listCallRecords(runId as never)),
        ).rejects.toMatchObject({ code: "USAGE" });
      }
    });

    it("lists call records in commit order and finds the latest succeeded record by hash", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "a", callHash: "h1", output: 1 });
      await commitOk(store, { callId: "b", callHash: "h2", status: "failed" });
      await commitOk(store, { callId: "c", callHash: "h1", output: 2, runId: asRunId("run-2") });
      expect((await store.listCallRecords(RUN)).map((r) => r.callId)).toEqual(["a", "b"]);
      expect(await store.findCompletedCall(THREAD, "h1")).toMatchObject({ callId: "c", result: 2 });
      expect(await store.findCompletedCall(THREAD, "h2")).toBeUndefined();
      expect(await store.findCompletedCall(asThreadId("other"), "h1")).toBeUndefined();
      // every succeeded record of a key, newest first, at most `limit`
      await commitOk(store, { callId: "d", callHash: "h1", output: 3, runId: asRunId("run-3") });
      const calls = async (limit: number) =>
        ((await store.findCompletedCalls?.(THREAD, "h1", limit)) ?? []).map((r) => r.callId);
      expect(await calls(10)).toEqual(["d", "c", "a"]);
      expect(await calls(2)).toEqual(["d", "c"]);
      expect(await store.findCompletedCalls?.(THREAD, "h2", 10)).toEqual([]);
      expect(await store.findCompletedCalls?.(asThreadId("other"), "h1", 10)).toEqual([]);
    });

    it("keeps a satisfied record's satisfiedBy, the run whose record satisfied it; one without it reads without it", async () => {
      const store = await openStore();
      const commit = commitOf({
        callId: "a",
        status: "satisfied",
        callHash: "h1",
        writes: [write(["x"], 1)],
      });
      // the scheduler's common completed record (decision 0079: resume follows satisfiedBy)
      const satisfied = {
        ...commit.record,
        startedAt: "s",
        endedAt: "e",
        params: {},
        outputPath: "†state.x",
      };
      const by = asRunId("run-0");
      await store.commitCall({ ...commit, record: { ...satisfied, result: 1, satisfiedBy: by } });
      await commitOk(store, { callId: "b", status: "satisfied", callHash: "h2", output: 2 });
      const [a, b] = await store.listCallRecords(RUN);
      expect([a?.satisfiedBy, a?.result, b?.callId]).toEqual([by, 1, "b"]);
      expect(b).not.toHaveProperty("satisfiedBy");
    });

    it("keeps a satisfied record's outputId, the call whose stored output holds its value (decision 0102)", async () => {
      const store = await openStore();
      // a re-sent call without _id satisfied by search$1's record, its value held at †calls.search$1: it
      // wrote nothing, stored nothing, and its record says where the value is (runs.show reads it)
      const commit = commitOf({ callId: "search$2", tool: "search", status: "satisfied", callHash: "h1" });
      const record = {
        ...commit.record,
        startedAt: "s",
        endedAt: "e",
        params: {},
        result: [1, 2],
        satisfiedBy: asRunId("run-0"),
        outputId: asCallId("search$1"),
      };
      const committed = await store.commitCall({ ...commit, record });
      expect(committed.ok).toBe(true);
      await commitOk(store, { callId: "b", status: "satisfied", callHash: "h2", output: 2 });
      const [a, b] = await store.listCallRecords(RUN);
      expect([a?.outputId, a?.satisfiedBy, a?.wrote, b?.callId]).toEqual(["search$1", "run-0", [], "b"]);
      expect(b).not.toHaveProperty("outputId");
      expect(await store.getCallOutput(THREAD, asCallId("search$2"))).toBeUndefined();
    });

    it("stores outputs of calls without an output path under †calls.<id>", async () => {
      const store = await openStore();
      await commitOk(store, {
        callId: "fetch$1",
        tool: "fetch",
        output: { rows: [1, 2, 3] },
        description: "rows",
      });
      expect(await store.getCallOutput(THREAD, "fetch$1")).toEqual({ value: { rows: [1, 2, 3] } });
      expect(await store.getCallOutput(THREAD, "nope")).toBeUndefined();
      expect(await store.listCallOutputIds(THREAD)).toEqual(["fetch$1"]);
      const [meta] = await store.listVariables(THREAD);
      expect(meta).toMatchObject({
        reference: "†calls.fetch$1",
        scope: "calls",
        type: "object",
        count: 1,
        countUnit: "keys",
      });
      expect(meta).toMatchObject({
        description: "rows",
        writer: { callId: "fetch$1", tool: "fetch" },
        runId: "run-1",
      });
    });

    it("reserves call numbers from a counter that only goes up", async () => {
      const store = await openStore();
      expect(await store.reserveCallNumbers(THREAD, 3)).toBe(1);
      expect(await store.reserveCallNumbers(THREAD, 1)).toBe(4);
      expect(await store.reserveCallNumbers(asThreadId("other"), 1)).toBe(1);
      await commitOk(store, { callId: "x", writes: [write(["a"], 1)] });
      await store.reset(THREAD);
      expect(await store.reserveCallNumbers(THREAD, 1)).toBe(5);
      await store.keepLastN(THREAD, 0);
      expect(await store.reserveCallNumbers(THREAD, 2)).toBe(6);
    });

    it("tells the next call number without reserving it", async () => {
      const store = await openStore();
      expect(store.nextCallNumber).toBeTypeOf("function");
      expect(await store.nextCallNumber?.(THREAD)).toBe(1);
      expect(await store.nextCallNumber?.(THREAD)).toBe(1);
      expect(await store.reserveCallNumbers(THREAD, 3)).toBe(1);
      expect(await store.nextCallNumber?.(THREAD)).toBe(4);
      expect(await store.reserveCallNumbers(THREAD, 1)).toBe(4);
      expect(await store.nextCallNumber?.(asThreadId("other"))).toBe(1);
    });

    it("counts variables, outputs, bytes and runs per thread and per store", async () => {
      const store = await openStore();
      await commitOk(store, { callId: "a", writes: [write(["a"], "abc")] });
      await commitOk(store, { callId: "b", output: [1, 2] });
      await commitOk(store, { callId: "c", threadId: asThreadId("t2"), writes: [write(["z"], 1)] });
      await store.createRun(run("r1"));
      expect(await store.stats(THREAD)).toEqual({
        threads: 1,
        variables: 1,
        variableBytes: 5,
        callOutputs: 1,
        callOutputBytes: 5,
        runs: 1,
      });
      expect(await store.stats()).toMatchObject({
        threads: 2,
        variables: 2,
        variableBytes: 6,
        callOutputs: 1,
        runs: 1,
      });
    });
  });
}
