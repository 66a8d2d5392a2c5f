import { afterEach, describe, expect, it } from "vitest";
import { type Counts, scenarioTools } from "./__fixtures__/scenario-tools.js";
import { storeKinds } from "./__fixtures__/stores.js";
import { createEngine, type Engine } from "./index.js";

const verifyPlan = (userId: string) => ({
  type: "plan",
  plan: [
    {
      _tool: "verifyUser",
      _id: "verify",
      userId,
      _outputPath: "†state.user.verified || †state.user.rejected || †state.user.failed",
    },
    { _tool: "use", _id: "welcome", value: "†state.user.verified", _outputPath: "†state.welcome" },
    { _tool: "use", _id: "apologize", value: "†state.user.rejected", _outputPath: "†state.apology" },
    { _tool: "use", _id: "escalate", value: "†state.user.failed", _outputPath: "†state.escalation" },
    {
      _tool: "use",
      _id: "join",
      value: "†state.user.verified || †state.user.rejected || †state.user.failed",
      _outputPath: "†state.joined",
    },
  ],
});

describe.each(storeKinds())("SPEC scenarios on the $name store", (kind) => {
  let counts: Counts;
  let engine: Engine;
  const setup = (): Engine => {
    counts = {};
    engine = createEngine({ tools: scenarioTools(counts), store: kind.open(), generateId: idGenerator() });
    return engine;
  };
  afterEach(async () => {
    await engine.close();
    kind.cleanup();
  });

  it("greetUser writes the greeting with the input's name", async () => {
    const result = await setup().run(
      {
        type: "plan",
        plan: [{ _tool: "greetUser", name: "†input.userName", _outputPath: "†state.greeting" }],
      },
      { input: { userName: "Ada" } },
    );
    expect(result).toMatchObject({ status: "succeeded", state: { greeting: "Hello Ada" }, errors: [] });
    expect(result.calls.greetUser$1).toMatchObject({
      status: "succeeded",
      attempts: 1,
      wrote: ["†state.greeting"],
    });
  });

  it("verifyUser default arm: the first alternative is written, the others' readers are blocked", async () => {
    const result = await setup().run(verifyPlan("u1"));
    expect(result.status).toBe("succeeded");
    expect(result.calls.verify).toMatchObject({
      status: "succeeded",
      branch: 0,
      wrote: ["†state.user.verified"],
    });
    expect(result.calls.welcome?.status).toBe("succeeded");
    expect(result.calls.apologize?.status).toBe("blocked");
    expect(result.calls.apologize?.reason).toContain("verify");
    expect(result.calls.escalate?.status).toBe("blocked");
    expect(result.state.joined).toEqual({ used: { userId: "u1", ok: true } });
  });

  it("verifyUser chosen arm: branch() picks an outcome by name", async () => {
    const result = await setup().run(verifyPlan("bad"));
    expect(result.calls.verify).toMatchObject({ status: "succeeded", branch: 1 });
    expect(result.calls.apologize?.status).toBe("succeeded");
    expect(result.calls.welcome?.status).toBe("blocked");
    expect(result.state.apology).toEqual({ used: { userId: "bad", reason: "unknown user" } });
  });

  it("verifyUser thrown error goes to the failure arm: handled, its dependents run, the others are blocked", async () => {
    const result = await setup().run(verifyPlan("boom"));
    expect(result.status).toBe("succeeded");
    expect(result.errors).toEqual([]);
    expect(result.calls.verify).toMatchObject({ status: "succeeded", branch: 2, error: { code: "E_DOWN" } });
    expect(result.state.user).toEqual({
      failed: { name: "Error", message: "verifier down", code: "E_DOWN" },
    });
    expect(result.calls.escalate?.status).toBe("succeeded");
    expect(result.calls.welcome?.status).toBe("blocked");
    expect(result.calls.apologize?.status).toBe("blocked");
    expect(result.calls.join?.status).toBe("succeeded");
  });

  it("generateSummary fan-out: invoked once, both paths equal", async () => {
    const result = await setup().run([
      { _tool: "generateSummary", text: "doc", _outputPath: "†state.summary && †state.report.summary" },
    ]);
    expect(counts.generateSummary).toBe(1);
    expect(result.state).toEqual({ summary: "summary of doc", report: { summary: "summary of doc" } });
  });

  it("detectLanguage → isEnglish → translateText run in dependency order", async () => {
    const order: string[] = [];
    const result = await setup().run(
      [
        {
          _tool: "translateText",
          text: "†input.text",
          english: "†state.english",
          _outputPath: "†state.translated",
        },
        { _tool: "isEnglish", language: "†state.language", _outputPath: "†state.english" },
        { _tool: "detectLanguage", text: "†input.text", _outputPath: "†state.language" },
      ],
      {
        input: { text: "Bonjour" },
        onEvent: (event) => event.type === "call-start" && order.push(event.tool),
      },
    );
    expect(order).toEqual(["detectLanguage", "isEnglish", "translateText"]);
    expect(result.state).toEqual({ language: "fr", english: false, translated: "EN(Bonjour)" });
  });

  it("processPayment failure: confirmOrder blocked, the error value lands in †state.error", async () => {
    const result = await setup().run([
      { _tool: "processPayment", _id: "pay", amount: 10, _outputPath: "†state.payment || †state.error" },
      { _tool: "confirmOrder", _id: "confirm", payment: "†state.payment", _outputPath: "†state.order" },
    ]);
    expect(result.calls.pay).toMatchObject({ status: "succeeded", branch: 1, error: { code: "DECLINED" } });
    expect(result.calls.confirm).toMatchObject({ status: "blocked" });
    expect(result.calls.confirm?.reason).toContain("pay");
    expect(result.state.error).toMatchObject({ message: "card declined", code: "DECLINED" });
    expect(counts.confirmOrder).toBeUndefined();
  });

  it("a failed call without a failure branch is an error record; independent calls go on", async () => {
    const result = await setup().run([
      { _tool: "processPayment", _id: "pay", amount: 10, _outputPath: "†state.payment" },
      { _tool: "confirmOrder", _id: "confirm", payment: "†state.payment", _outputPath: "†state.order" },
      { _tool: "greetUser", _id: "greet", name: "x", _outputPath: "†state.greeting" },
    ]);
    expect(result.status).toBe("failed");
    expect(result.errors).toEqual([
      {
        callId: "pay",
        call: expect.objectContaining({ _tool: "processPayment" }),
        error: { code: "DECLINED", message: "card declined" },
      },
    ]);
    expect(result.calls.confirm?.status).toBe("blocked");
    expect(result.calls.greet?.status).toBe("succeeded");
  });

  it("a gate waits for every operand and passes the last", async () => {
    const result = await setup().run([
      { _tool: "use", _id: "gate", value: "†state.a && †state.b", _outputPath: "†state.gated" },
      { _tool: "greetUser", _id: "a", name: "A", _outputPath: "†state.a" },
      { _tool: "greetUser", _id: "b", name: "B", _outputPath: "†state.b" },
    ]);
    expect(result.state.gated).toEqual({ used: "Hello B" });
  });

  it("re-sending the same plan on the same thread runs nothing: every call is satisfied", async () => {
    const plan = verifyPlan("u1");
    const first = await setup().run(plan);
    const before = { ...counts };
    const again = await engine.run(plan);
    expect(counts).toEqual(before);
    const statuses = Object.values(again.calls).map((call) => call.status);
    expect(statuses.filter((s) => s === "satisfied")).toHaveLength(3);
    expect(statuses.filter((s) => s === "blocked")).toHaveLength(2);
    expect(again.state).toEqual(first.state);
  });

  it("a changed input re-runs exactly the calls that depend on it", async () => {
    const plan = [
      { _tool: "greetUser", _id: "greet", name: "†input.name", _outputPath: "†state.greeting" },
      { _tool: "use", _id: "echo", value: "†state.greeting", _outputPath: "†state.echo" },
      { _tool: "generateSummary", _id: "sum", text: "fixed", _outputPath: "†state.summary" },
    ];
    await setup().run(plan, { input: { name: "Ada" } });
    const second = await engine.run(plan, { input: { name: "Bob" } });
    expect(second.calls.greet?.status).toBe("succeeded");
    expect(second.calls.echo?.status).toBe("succeeded");
    expect(second.calls.sum?.status).toBe("satisfied");
    expect(counts).toEqual({ greetUser: 2, use: 2, generateSummary: 1 });
    expect(second.state.echo).toEqual({ used: "Hello Bob" });
  });

  it("an approval gate waits, then proceeds once †state.approvals.x is written", async () => {
    const plan = [
      { _tool: "use", _id: "ship", value: "†state.approvals.ship", _outputPath: "†state.shipped" },
      { _tool: "use", _id: "after", value: "†state.shipped", _outputPath: "†state.done" },
    ];
    const first = await setup().run(plan);
    expect(first.status).toBe("succeeded");
    expect(first.calls.ship).toMatchObject({ status: "waiting" });
    expect(first.calls.after?.status).toBe("waiting");
    await engine.set("default", "†state.approvals.ship", true);
    const second = await engine.run(plan);
    expect(second.calls.ship?.status).toBe("succeeded");
    expect(second.state.done).toEqual({ used: { used: true } });
  });
});

function idGenerator(): () => string {
  let n = 0;
  return () => `run-${++n}`;
}
