import type { JsonValue } from "@obelisk/core";
import type { CallRecord, RunRecord } from "obelisk";
import { describe, expect, it } from "vitest";
import { unfinishedCalls } from "./unfinished-calls.js";

const run = (plan: JsonValue, firstAutoIdNumber?: number): RunRecord =>
  ({
    runId: "r",
    threadId: "t",
    planHash: "sha256:x",
    plan,
    input: {},
    status: "running",
    startedAt: "2026-11-26T00:00:00.000Z",
    ...(firstAutoIdNumber === undefined ? {} : { firstAutoIdNumber }),
  }) as unknown as RunRecord;
const record = (callId: string, tool: string): CallRecord => ({ callId, tool }) as unknown as CallRecord;

describe("unfinishedCalls", () => {
  it("lists the plan's calls without a record, in plan order, in every plan form", () => {
    const calls = [
      { _tool: "fetch", _id: "a" },
      { _tool: "fetch", _id: "b" },
      { _tool: "send", _id: "c" },
    ];
    const expected = [
      { callId: "b", tool: "fetch" },
      { callId: "c", tool: "send" },
    ];
    for (const plan of [{ type: "plan", plan: calls }, { calls }, calls])
      expect(unfinishedCalls(run(plan), [record("a", "fetch")])).toEqual(expected);
    expect(unfinishedCalls(run({ _tool: "fetch", _id: "a" }), [])).toEqual([{ callId: "a", tool: "fetch" }]);
    expect(
      unfinishedCalls(
        run(calls),
        calls.map((call) => record(call._id, call._tool)),
      ),
    ).toEqual([]);
  });

  it("numbers calls without _id from the run's firstAutoIdNumber", () => {
    const plan = [{ _tool: "fetch" }, { _tool: "send", _id: "s" }, { _tool: "fetch" }];
    expect(unfinishedCalls(run(plan, 7), [record("fetch$7", "fetch")])).toEqual([
      { callId: "s", tool: "send" },
      { callId: "fetch$8", tool: "fetch" },
    ]);
    expect(unfinishedCalls(run(plan), [])).toEqual([
      { callId: "fetch$1", tool: "fetch" },
      { callId: "s", tool: "send" },
      { callId: "fetch$2", tool: "fetch" },
    ]);
  });

  it("counts a record of a skipped automatic number for a call of its tool", () => {
    // fetch$1 was taken on the thread: the engine numbered the calls fetch$2 and fetch$3
    const plan = [{ _tool: "fetch" }, { _tool: "fetch" }];
    expect(unfinishedCalls(run(plan), [record("fetch$2", "fetch"), record("fetch$3", "fetch")])).toEqual([]);
    // one of them finished: one is left (the count is right; its id is the one numbered from 1)
    expect(unfinishedCalls(run(plan), [record("fetch$3", "fetch")])).toHaveLength(1);
    // a record of another tool counts for none of them
    expect(unfinishedCalls(run(plan), [record("send$3", "send")])).toHaveLength(2);
  });

  it("skips what is no call and reads a plan that is no plan as having none", () => {
    expect(unfinishedCalls(run([1, null, { _id: "x" }, { _tool: "t", _id: "y" }]), [])).toEqual([
      { callId: "x", tool: "?" },
      { callId: "y", tool: "t" },
    ]);
    expect(unfinishedCalls(run("not a plan"), [])).toEqual([]);
    expect(unfinishedCalls(run({ type: "plan", plan: [] }), [])).toEqual([]);
  });
});
