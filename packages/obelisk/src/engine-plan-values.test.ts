import { afterEach, describe, expect, it } from "vitest";
import { createEngine, defineTool, type Engine, ObeliskError } from "./index.js";

const seen: unknown[] = [];
const record = defineTool({
  name: "record",
  run: (args: unknown) => {
    seen.push(args);
    return 1;
  },
});

/** The diagnostics of a PLAN_INVALID rejection, as [code, pointer] pairs. */
async function refusal(engine: Engine, plan: unknown, approvedHash?: string) {
  try {
    await engine.run(plan, approvedHash === undefined ? {} : { approvedHash });
  } catch (error) {
    if (!ObeliskError.is(error) || error.code !== "PLAN_INVALID") throw error;
    const data = error.data as { diagnostics: { code: string; pointer: string }[] };
    return data.diagnostics.map((d) => [d.code, d.pointer]);
  }
  throw new Error("the run was not refused");
}

describe("plan values are JSON: what is approved is what runs", () => {
  let engine: Engine;
  afterEach(async () => {
    seen.length = 0;
    await engine.close();
  });

  it("refuses a Date (or any value JSON would turn into something else) before any tool runs", async () => {
    engine = createEngine({ tools: [record] });
    const asText = { type: "plan", plan: [{ _tool: "record", when: "1970-01-01T00:00:00.000Z" }] };
    const { planHash } = await engine.validate(asText);
    const date = Object.assign(new Date(0), { path: "/etc" });
    const sneaky = { type: "plan", plan: [{ _tool: "record", when: date }] };
    expect((await engine.validate(sneaky)).ok).toBe(false);
    expect(await refusal(engine, sneaky, planHash)).toEqual([["JSON_SYNTAX", "/plan/0/when"]]);
    expect(await refusal(engine, { plan: [{ _tool: "record", n: Number.NaN }] })).toEqual([
      ["JSON_SYNTAX", "/plan/0/n"],
    ]);
    expect(seen).toEqual([]);
  });

  it("refuses 1e999 in plan text (it would run as Infinity under the hash of null)", async () => {
    engine = createEngine({ tools: [record] });
    const text = '{"type":"plan","plan":[{"_tool":"record","v":1e999}]}';
    const validation = await engine.validate(text);
    expect(validation.ok).toBe(false);
    expect(validation.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["JSON_SYNTAX", "/plan/0/v"]]);
    expect(await refusal(engine, text)).toEqual([["JSON_SYNTAX", "/plan/0/v"]]);
    expect(seen).toEqual([]);
  });

  it("runs the plan as it was when submitted, even if the caller changes the object during the run", async () => {
    let release: () => void = () => {};
    let started: () => void = () => {};
    const gateStarted = new Promise<void>((resolve) => (started = resolve));
    const gate = defineTool({
      name: "gate",
      run: () =>
        new Promise<number>((resolve) => {
          release = () => resolve(1);
          started();
        }),
    });
    engine = createEngine({ tools: [gate, record] });
    const later = { _tool: "record", x: "†state.g", note: "approved" };
    const plan = { type: "plan", plan: [{ _tool: "gate", _outputPath: "†state.g" }, later] };
    const running = engine.run(plan);
    await gateStarted;
    later.note = "changed";
    release();
    expect((await running).status).toBe("succeeded");
    expect(seen).toEqual([{ x: 1, note: "approved" }]);
  });
});
