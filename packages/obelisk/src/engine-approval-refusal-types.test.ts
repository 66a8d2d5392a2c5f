import { describe, expect, it } from "vitest";
import { REFUND_CALL, refundTool as refunding } from "./__fixtures__/refund-tool.js";
import { agentTools, createEngine } from "./index.js";

const call = REFUND_CALL;
const reason = (answer: null | false) =>
  `approval †state.approvals.refund is ${String(answer)}: refused, so the call did not run (write another value there to approve it)`;

describe("an approval answered false or null whose type the tool's schema refuses (decision 0048, stop 39)", () => {
  it.each([false, null] as const)(
    "%s: validate is ok and the run ends the call rejected, neither PLAN_INVALID nor PARAM_INVALID",
    async (answer) => {
      const runs: string[] = [];
      const engine = createEngine({ tools: [refunding(runs)] });
      await engine.set("t", "†state.approvals.refund", answer);
      const validation = await engine.validate([call], { threadId: "t" });
      expect(validation.diagnostics).toEqual([]);
      expect(validation.ok).toBe(true);
      const result = await engine.run([call], { threadId: "t" });
      expect(result.calls.refund).toMatchObject({ status: "rejected", reason: reason(answer) });
      expect(result.status).toBe("succeeded");
      const stream = await engine.open({ threadId: "t" });
      expect(stream.add(call)).toEqual({ ok: true, callId: "refund", diagnostics: [] });
      expect((await stream.close()).calls.refund).toMatchObject({
        status: "rejected",
        reason: reason(answer),
      });
      expect(runs).toEqual([]);
      expect(await engine.get("t", "†state.refund")).toEqual({ found: false });
      await engine.close();
    },
  );

  it("agentTools' run_plan answers with the rejected call, not PLAN_INVALID", async () => {
    const runs: string[] = [];
    const engine = createEngine({ tools: [refunding(runs)] });
    await engine.set("t", "†state.approvals.refund", false);
    const runPlan = agentTools(engine, "t").find((tool) => tool.name === "run_plan");
    const answer = (await runPlan?.execute({ plan: { type: "plan", plan: [call] } })) as Record<
      string,
      unknown
    >;
    expect(answer).not.toHaveProperty("error");
    expect(answer).toMatchObject({
      status: "succeeded",
      calls: { refund: { status: "rejected", reason: reason(false) } },
      errors: [],
    });
    expect(runs).toEqual([]);
    await engine.close();
  });
});
