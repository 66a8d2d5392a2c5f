import { describe, expect, it } from "vitest";
import { agentTools, createEngine, defineTool } from "./index.js";

const give = defineTool({
  name: "give",
  input: { type: "object", properties: { value: {} }, required: ["value"] },
  run: (args: unknown) => (args as { value: unknown }).value,
});

describe("the agent tools' hints point at what the model has", () => {
  it("a run_plan refused with PLAN_INVALID points at validate_plan, not engine.validate", async () => {
    const engine = createEngine({ tools: [give] });
    const [, runPlan] = agentTools(engine, "t");
    const answer = await runPlan.execute({ plan: [{ _tool: "giv", value: 1 }] });
    expect(answer).toMatchObject({
      ok: false,
      error: { code: "PLAN_INVALID", data: { diagnostics: [{ code: "TOOL_UNKNOWN" }] } },
    });
    const hint = "error" in answer ? answer.error.hint : undefined;
    expect(hint).toContain("validate_plan");
    expect(hint).not.toContain("engine.validate");
    // the engine's own error still names the library's method
    const thrown = await engine.run([{ _tool: "giv", value: 1 }]).catch((error: unknown) => error);
    expect(thrown).toMatchObject({ code: "PLAN_INVALID", hint: expect.stringContaining("engine.validate") });
  });

  it("get_variable of a misspelt name names the nearest stored ones", async () => {
    const engine = createEngine({ tools: [give] });
    const [, runPlan, , getVariable] = agentTools(engine, "t");
    await engine.set("t", "†state.user", { name: "Ada", nick: "ada", list: [{ id: 1 }] });
    await runPlan.execute({ plan: [{ _tool: "give", _id: "fetchUser", value: { id: "u1" } }] });
    const hintOf = async (reference: string) => {
      const answer = await getVariable.execute({ reference });
      expect(answer).toMatchObject({ found: false });
      return "hint" in answer ? answer.hint : undefined;
    };
    expect(await hintOf("†state.usr.name")).toBe(
      'did you mean "†state.user.name"? (list_variables lists what the thread holds)',
    );
    expect(await hintOf("†state.user.nme")).toBe(
      'did you mean "†state.user.name"? (list_variables lists what the thread holds)',
    );
    expect(await hintOf("†state.user.list[0].di")).toBe(
      'did you mean "†state.user.list[0].id"? (list_variables lists what the thread holds)',
    );
    expect(await hintOf("†calls.fetchUsr.id")).toBe(
      'did you mean "†calls.fetchUser.id"? (list_variables lists what the thread holds)',
    );
    expect(await hintOf("†calls.fetchUser.di")).toBe(
      'did you mean "†calls.fetchUser.id"? (list_variables lists what the thread holds)',
    );
    // nothing near, an index past the end: where to see every name
    for (const reference of ["†state.zzzzzz", "†state.user.list[5]", "†calls.nothing"])
      expect(await hintOf(reference)).toBe(
        "nothing is stored there; list_variables lists what the thread holds",
      );
  });

  it("the nearest names are bounded: three at most, each name cut", async () => {
    const engine = createEngine({ tools: [give] });
    const [, , , getVariable] = agentTools(engine, "t");
    const long = "k".repeat(500);
    await engine.set("t", "†state.items", { a1: 1, a2: 2, a3: 3, a4: 4, a5: 5, [`${long}1`]: 6 });
    const near = await getVariable.execute({ reference: "†state.items.a" });
    const hint = "hint" in near ? near.hint : "";
    expect(hint.match(/"†state\.items\.a\d"/g)).toHaveLength(3);
    const far = await getVariable.execute({ reference: `†state.items.${long}2` });
    const longHint = "hint" in far ? far.hint : "";
    expect(longHint).toMatch(/^did you mean "†state\.items\.k+…/);
    expect(longHint.length).toBeLessThan(400);
  });

  it("reading a thread the store does not hold creates no thread", async () => {
    const engine = createEngine({ tools: [give] });
    const [, , , getVariable] = agentTools(engine, "fresh");
    for (const reference of ["†state.user", "†calls.c1"])
      expect(await getVariable.execute({ reference })).toMatchObject({ found: false });
    expect(await engine.store.getThread("fresh" as never)).toBeUndefined();
  });
});
