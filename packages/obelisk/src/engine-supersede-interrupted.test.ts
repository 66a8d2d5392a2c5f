import type { StateStore } from "@obelisk/state";
import { afterEach, describe, expect, it } from "vitest";
import { crashable } from "./__fixtures__/crashable-store.js";
import { until } from "./__fixtures__/deferred.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type Engine, type ToolDefinition } from "./index.js";

// The s32 user review (L9): after a crash, re-sending the plan with `run` (instead of `resume`) finished the
// work, and the crashed run stayed `interrupted` for ever, listed as work to resume.

/** `step` returns its `n`; in the engine that dies, a call with `hang: true` never returns. */
function tools(hangs = false): { readonly tools: ToolDefinition[]; readonly started: unknown[] } {
  const started: unknown[] = [];
  const step: ToolDefinition = {
    name: "step",
    run: (args) => {
      const { n, hang } = args as { n: number; hang?: boolean };
      started.push(n);
      return hangs && hang === true ? new Promise(() => {}) : n;
    },
  };
  return { tools: [step], started };
}

const plan = [
  { _id: "a", _tool: "step", n: 1, _outputPath: "†state.a" },
  { _id: "b", _tool: "step", n: 2, hang: true, _outputPath: "†state.b" },
];

describe.each(storeKinds())(
  "a run of the same plan supersedes its interrupted runs, on the $name store",
  (kind) => {
    const engines: Engine[] = [];
    afterEach(async () => {
      for (const engine of engines.splice(0)) await engine.close().catch(() => undefined);
      kind.cleanup();
    });

    /** A live engine on a store where a run of `crashPlan` on `thread` died with `b` in flight. */
    async function afterCrash(
      crashPlan: readonly object[] = plan,
      thread = "t",
    ): Promise<{ engine: Engine; crashedId: string; store: StateStore }> {
      const store = kind.open();
      const engine = createEngine({ tools: tools().tools, store });
      engines.push(engine);
      const dying = crashable(store);
      const first = tools(true);
      void createEngine({ tools: first.tools, store: dying.store }).run(crashPlan, { threadId: thread });
      await until(() => first.started.length === 2);
      const [crashed] = await store.listRuns({ threadId: thread as never, limit: 1 });
      dying.crash();
      return { engine, crashedId: crashed?.runId as string, store };
    }

    it("the plan re-sent with run ends the crashed run cancelled, superseded by the new run", async () => {
      const { engine, crashedId } = await afterCrash();
      expect((await engine.runs.list({ status: "interrupted" })).map((run) => run.runId)).toEqual([
        crashedId,
      ]);
      const result = await engine.run(plan, { threadId: "t" });
      expect(result.status).toBe("succeeded");
      expect(await engine.runs.list({ status: "interrupted" })).toEqual([]);
      const { run } = await engine.runs.show(crashedId);
      expect(run.status).toBe("cancelled");
      expect(run.reason).toMatch(
        new RegExp(`^superseded by run ${result.runId}, which ran the same plan to its end \\(.+\\)$`),
      );
    });

    it("a run of another plan on the thread, or of the same plan on another thread, leaves it interrupted", async () => {
      const { engine, crashedId } = await afterCrash();
      await engine.run(plan.slice(0, 1), { threadId: "t" });
      await engine.run(plan, { threadId: "other" });
      expect((await engine.runs.list({ status: "interrupted" })).map((run) => run.runId)).toEqual([
        crashedId,
      ]);
    });

    it("a re-sent run that is cancelled supersedes nothing", async () => {
      const { engine, crashedId } = await afterCrash();
      const controller = new AbortController();
      controller.abort();
      const result = await engine.run(plan, { threadId: "t", signal: controller.signal });
      expect(result.status).toBe("cancelled");
      expect((await engine.runs.list({ status: "interrupted" })).map((run) => run.runId)).toEqual([
        crashedId,
      ]);
    });

    it("a resume of the crashed run still ends it with its own reason (decision 0043)", async () => {
      const { engine, crashedId } = await afterCrash();
      await engine.resume(crashedId);
      const { run } = await engine.runs.show(crashedId);
      expect(run.status).toBe("cancelled");
      expect(run.reason).not.toMatch(/^superseded/);
    });
  },
);
