import { createToolRegistry, type ToolContext } from "@obelisk/compiler";
import { type CallCommit, type CommitResult, createMemoryStore, type StateStore } from "@obelisk/state";
import { describe, expect, it } from "vitest";
import { flush } from "./__fixtures__/deferred.js";
import { runPlan } from "./__fixtures__/run-plan.js";

/** A memory store whose commits become durable when the test says so, with no group commit. */
function slowCommitStore(): { store: StateStore; asked: string[]; durable: (callId: string) => void } {
  const inner = createMemoryStore();
  const asked: string[] = [];
  const waiting = new Map<string, () => void>();
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      if (property === "commitCall")
        return (commit: CallCommit): Promise<CommitResult> => {
          asked.push(commit.record.callId);
          const answer = target.commitCall(commit) as CommitResult;
          return new Promise((resolve) => waiting.set(commit.record.callId, () => resolve(answer)));
        };
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { store, asked, durable: (callId) => waiting.get(callId)?.() };
}

describe("a store without group commit whose commits answer later (regression review 2)", () => {
  it("a call's dependent starts once its own commit is durable, not after its siblings' too", async () => {
    const started: string[] = [];
    const registry = createToolRegistry([
      {
        name: "t",
        input: { type: "object", properties: { v: {} } },
        run: (args: unknown, context: ToolContext) => {
          started.push(context.callId);
          return (args as { v: unknown }).v;
        },
      },
    ]);
    const plan = [];
    for (const i of [1, 2, 3]) plan.push({ _tool: "t", _id: `a${i}`, v: i, _outputPath: `†state.a${i}` });
    for (const i of [1, 2, 3])
      plan.push({ _tool: "t", _id: `b${i}`, v: `†state.a${i}`, _outputPath: `†state.b${i}` });
    const { store, asked, durable } = slowCommitStore();
    const running = runPlan(registry, plan, { store });
    await flush();
    expect(started).toEqual(["a1", "a2", "a3"]);
    expect(asked).toEqual(["a1"]);
    durable("a1");
    await flush();
    // before, the group waited for all three commits before any dependent started
    expect(started).toContain("b1");
    expect(started).not.toContain("b2");
    expect(asked.slice(0, 2)).toEqual(["a1", "a2"]);
    for (const id of ["a2", "a3", "b1", "b2", "b3"]) {
      durable(id);
      await flush();
    }
    const { result } = await running;
    expect(result.status).toBe("succeeded");
    expect(asked.slice(0, 3)).toEqual(["a1", "a2", "a3"]);
  });
});
