import { describe, expect, it } from "vitest";
import {
  type AgentTool,
  agentTools,
  createEngine,
  defineTool,
  nearStoredReferences,
  type PlanApprovalRequest,
} from "./index.js";

const sent: string[] = [];
const sendEmail = defineTool({
  name: "sendEmail",
  input: { type: "object", properties: { to: { type: "string" } }, required: ["to"] },
  run: (args: unknown) => {
    sent.push((args as { to: string }).to);
    return "sent";
  },
});

const plan = (to: string) => ({
  type: "plan",
  plan: [{ _tool: "sendEmail", _id: "mail", to, _outputPath: "†state.mail" }],
});

function runPlan(tools: AgentTool[]) {
  const tool = tools.find((candidate) => candidate.name === "run_plan");
  return (args: Record<string, unknown>) => tool?.execute(args) as Promise<Record<string, unknown>>;
}

describe("agentTools' approve: run_plan runs only what the host approves, bound to its hash", () => {
  it("a plan whose hash a person approved runs; a tampered one is refused and runs nothing", async () => {
    sent.length = 0;
    const engine = createEngine({ tools: [sendEmail] });
    const approved = (await engine.validate(plan("ops@example.com"))).planHash;
    const seen: PlanApprovalRequest[] = [];
    const run = runPlan(
      agentTools(engine, "t", {
        approve: (request) => {
          seen.push(request);
          return request.planHash === approved || "only the plan the user approved may run";
        },
      }),
    );
    expect(await run({ plan: plan("ops@example.com") })).toMatchObject({ status: "succeeded" });
    const refused = await run({ plan: plan("attacker@example.com") });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: "PLAN_NOT_APPROVED",
        message: expect.stringContaining("only the plan the user approved may run"),
        data: { planHash: seen[1]?.planHash },
      },
    });
    expect(sent).toEqual(["ops@example.com"]);
    expect(seen.map((request) => [request.threadId, request.input])).toEqual([
      ["t", {}],
      ["t", {}],
    ]);
    expect(await engine.get("t", "†state.mail")).toEqual({ found: true, value: "sent" });
  });

  it("false, a throwing hook and a rejected promise refuse; an invalid plan never reaches the hook", async () => {
    sent.length = 0;
    const engine = createEngine({ tools: [sendEmail] });
    let asked = 0;
    for (const approve of [
      () => false,
      () => {
        throw new Error("approval service down");
      },
      () => Promise.reject(new Error("timeout")),
    ]) {
      const run = runPlan(agentTools(engine, "t", { approve }));
      expect(await run({ plan: plan("a@example.com") })).toMatchObject({
        ok: false,
        error: { code: "PLAN_NOT_APPROVED" },
      });
    }
    const run = runPlan(
      agentTools(engine, "t", {
        approve: () => {
          asked++;
          return true;
        },
      }),
    );
    expect(await run({ plan: { type: "plan", plan: [{ _tool: "sendEmial", to: "x" }] } })).toMatchObject({
      ok: false,
      error: { code: "PLAN_INVALID" },
    });
    expect(asked).toBe(0);
    expect(sent).toEqual([]);
    expect(await engine.runs.list()).toEqual([]);
  });

  it("the hash binds the plan, not the input: the README's hook checks both (the model chooses the input)", async () => {
    sent.length = 0;
    const engine = createEngine({ tools: [sendEmail] });
    const mailTo = { type: "plan", plan: [{ _tool: "sendEmail", _id: "mail", to: "†input.to" }] };
    const harmless = { to: "ops@example.com" };
    const check = await engine.validate(mailTo, { input: harmless });
    // the same plan with another input has the same hash
    expect((await engine.validate(mailTo, { input: { to: "attacker@example.com" } })).planHash).toBe(
      check.planHash,
    );
    const approved = new Map<string, string>([[check.planHash, JSON.stringify(harmless)]]);
    const run = runPlan(
      agentTools(engine, "t", {
        approve: ({ planHash, input }) =>
          approved.get(planHash) === JSON.stringify(input) ||
          "ask the user to approve this plan with this input first",
      }),
    );
    expect(await run({ plan: mailTo, input: { to: "attacker@example.com" } })).toMatchObject({
      ok: false,
      error: { code: "PLAN_NOT_APPROVED" },
    });
    expect(await run({ plan: mailTo, input: harmless })).toMatchObject({ status: "succeeded" });
    expect(sent).toEqual(["ops@example.com"]);
  });

  it("cancelled while the approve hook is pending: CANCELLED, nothing ran or was recorded, the thread is free", async () => {
    sent.length = 0;
    const engine = createEngine({ tools: [sendEmail] });
    let asked = (): void => {};
    const hookAsked = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const tools = agentTools(engine, "t", {
      approve: () => {
        asked();
        return new Promise<boolean>(() => {});
      },
    });
    const controller = new AbortController();
    const tool = tools.find((candidate) => candidate.name === "run_plan");
    const answer = tool?.execute({ plan: plan("ops@example.com") }, { signal: controller.signal });
    await hookAsked;
    controller.abort();
    expect(await answer).toMatchObject({ ok: false, error: { code: "CANCELLED" } });
    expect(sent).toEqual([]);
    expect(await engine.runs.list()).toEqual([]);
    expect((await engine.run(plan("ops@example.com"), { threadId: "t" })).status).toBe("succeeded");
  });

  it("options that are not an object, an approve that is not a function, a missing engine are USAGE", async () => {
    const engine = createEngine({ tools: [sendEmail] });
    expect(() => agentTools(engine, "t", null as never)).toThrow(expect.objectContaining({ code: "USAGE" }));
    expect(() => agentTools(engine, "t", { approve: "yes" as never })).toThrow(
      expect.objectContaining({ code: "USAGE" }),
    );
    // review s33r F13: a missing engine, a reference that is no string
    expect(() => agentTools(null as never, "t")).toThrow(expect.objectContaining({ code: "USAGE" }));
    await expect(nearStoredReferences(engine, "t", 5 as never)).rejects.toMatchObject({ code: "USAGE" });
  });
});
