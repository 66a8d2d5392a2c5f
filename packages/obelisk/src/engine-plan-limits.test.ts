import { afterEach, describe, expect, it } from "vitest";
import { codeOf } from "./__fixtures__/error-codes.js";
import { createEngine, defineTool, type Engine, ObeliskError } from "./index.js";

const ran: string[] = [];
const pay = defineTool({
  name: "pay",
  input: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
  run: () => {
    ran.push("pay");
    return "paid";
  },
});
const log = defineTool({
  name: "log",
  input: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
  run: (args: unknown) => {
    ran.push("log");
    return (args as { message: string }).message;
  },
});

const LONG = "9".repeat(1_000_001);
/** TOOL_UNKNOWN at /plan/0, META_UNKNOWN at /plan/1, and a string over maxStringLength at /plan/2/amount. */
const plan = {
  type: "plan",
  plan: [
    { _tool: "pya", amount: 1 },
    { _tool: "log", message: "hi", _bogus: true, _outputPath: "†state.logged" },
    { _tool: "pay", amount: LONG, _outputPath: "†state.paid" },
  ],
};
const EXPECTED = [
  ["TOOL_UNKNOWN", "/plan/0/_tool"],
  ["META_UNKNOWN", "/plan/1/_bogus"],
  ["PLAN_LIMIT", "/plan/2/amount"],
];

describe("the engine and a plan over per-value limits", () => {
  let engine: Engine;
  afterEach(async () => {
    await engine.close();
    ran.length = 0;
  });

  it("validate reports every diagnostic at once, in document order, and nothing to approve or run", async () => {
    engine = createEngine({ tools: [pay, log] });
    const validation = await engine.validate(plan, { threadId: "t" });
    expect(validation.ok).toBe(false);
    expect(validation.diagnostics.map((d) => [d.code, d.pointer])).toEqual(EXPECTED);
    expect(validation.compiled.document).toBeUndefined();
    expect(validation.compiled.calls).toEqual([]);
    // as text, the same
    const text = await engine.validate(JSON.stringify(plan), { threadId: "t" });
    expect(text.diagnostics.map((d) => [d.code, d.pointer])).toEqual(EXPECTED);
  });

  it("run refuses with the diagnostics: nothing runs, nothing is written or recorded", async () => {
    engine = createEngine({ tools: [pay, log] });
    const refused = await engine.run(plan, { threadId: "t" }).catch((error: unknown) => error);
    expect(ObeliskError.is(refused, "PLAN_INVALID")).toBe(true);
    const data = (refused as ObeliskError).data as { diagnostics: { code: string; pointer: string }[] };
    expect(data.diagnostics.map((d) => [d.code, d.pointer])).toEqual(EXPECTED);
    // the plan's own hash (what an approval would name) does not make it run either
    const { planHash } = await engine.validate(plan, { threadId: "t" });
    expect(await codeOf(engine.run(plan, { threadId: "t", approvedHash: planHash }))).toBe("PLAN_INVALID");
    expect(ran).toEqual([]);
    expect(await engine.runs.list()).toEqual([]);
    expect(await engine.get("t", "†state.logged")).toEqual({ found: false });
    expect(await engine.get("t", "†state.paid")).toEqual({ found: false });
  });
});
