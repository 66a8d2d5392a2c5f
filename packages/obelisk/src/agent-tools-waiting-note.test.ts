import { describe, expect, it } from "vitest";
import { z } from "zod";
import { REFUND_CALL as refund, refundTool as refunding } from "./__fixtures__/refund-tool.js";
import { agentTools, createEngine, defineTool, type RunPlanAnswer } from "./index.js";

describe("run_plan on a call waiting for an approval (review s39: 'succeeded' read as 'refund done')", () => {
  it("says in note that the call did not run, which approval a person must give, and to send the plan again", async () => {
    const runs: string[] = [];
    const engine = createEngine({ tools: [refunding(runs)] });
    const [, runPlan] = agentTools(engine, "t");
    const waiting = (await runPlan.execute({ plan: [refund] })) as RunPlanAnswer;
    expect(waiting.status).toBe("succeeded");
    expect(waiting.calls.refund?.status).toBe("waiting");
    expect(waiting.note).toBe(
      "1 call (refund) did NOT run: it waits for the approval at †state.approvals.refund, which a person must give (a plan cannot write it). Nothing was done for it: tell the user it awaits approval, not that it is done, and send the plan again after the approval is given.",
    );
    expect(runs).toEqual([]);
    await engine.set("t", "†state.approvals.refund", { by: "ops" });
    const done = (await runPlan.execute({ plan: [refund] })) as RunPlanAnswer;
    expect(done.calls.refund?.status).toBe("succeeded");
    expect(done).not.toHaveProperty("note");
    expect(runs).toEqual(["r-1"]);
    await engine.close();
  });

  it("gives the waiting note before the satisfied one when a plan has both", async () => {
    const engine = createEngine({
      tools: [
        refunding([]),
        defineTool({ name: "give", input: z.object({ v: z.number() }), run: ({ v }) => v }),
      ],
    });
    const [, runPlan] = agentTools(engine, "t");
    const give = { _tool: "give", _id: "g", v: 1, _outputPath: "†state.g" };
    await runPlan.execute({ plan: [give] });
    const answer = (await runPlan.execute({ plan: [give, refund] })) as RunPlanAnswer;
    expect(answer.note).toMatch(/^1 call \(refund\) did NOT run: .* 1 call \(g\) did not run again: /);
    await engine.close();
  });
});
