import { describe, expect, it } from "vitest";
import { createEngine, type ToolDefinition } from "./index.js";

// SPEC §7: an approval under †state.approvals. is given by a person (engine.set, `obelisk state set`); a plan
// that wrote one would open its own approval gate (decision 0011).
const tools: ToolDefinition[] = [
  { name: "latent", input: { type: "object" }, output: { type: "object" } },
  {
    name: "echo",
    input: { type: "object", properties: { v: {} } },
    run: (args) => (args as { v: number }).v,
  },
];
const selfApproving = [
  { _tool: "latent", _id: "approve", _output: { a: 1 }, _outputPath: "†state.approvals.pay" },
  { _tool: "echo", _id: "pay", v: "†state.approvals.pay && †input.amount", _outputPath: "†state.paid" },
];

describe("a plan cannot give its own approval", () => {
  it("validate refuses the write (OUTPUT_PATH_READONLY) and run does not start it: nothing is paid", async () => {
    const engine = createEngine({ tools });
    const validated = await engine.validate(selfApproving, { input: { amount: 5 } });
    expect(validated.ok).toBe(false);
    expect(validated.diagnostics.map((d) => [d.code, d.severity, d.pointer])).toEqual([
      ["OUTPUT_PATH_READONLY", "error", "/0/_outputPath"],
    ]);
    await expect(engine.run(selfApproving, { input: { amount: 5 } })).rejects.toMatchObject({
      code: "PLAN_INVALID",
    });
    expect(await engine.get("default", "†state")).toEqual({ found: true, value: {} });
    await engine.close();
  });

  it("a streamed call writing an approval is refused at add; the gate still waits for a person", async () => {
    const engine = createEngine({ tools });
    const run = await engine.open({ input: { amount: 5 } });
    const refused = run.add(selfApproving[0]);
    expect(refused.ok).toBe(false);
    expect(refused.diagnostics.map((d) => d.code)).toEqual(["OUTPUT_PATH_READONLY"]);
    expect((await run.close()).state).toEqual({});
    const gated = await engine.run([selfApproving[1]], { input: { amount: 5 } });
    expect(gated.calls.pay?.status).toBe("waiting");
    await engine.set("default", "†state.approvals.pay", true);
    const second = await engine.run([selfApproving[1]], { input: { amount: 5 } });
    expect(second.calls.pay?.status).toBe("succeeded");
    expect(second.state.paid).toBe(5);
    await engine.close();
  });
});
