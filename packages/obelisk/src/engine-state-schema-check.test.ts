import { afterEach, describe, expect, it } from "vitest";
import { createEngine, type Engine } from "./index.js";

const empty = { type: "object", properties: {} };
const strOut = { name: "strOut", input: empty, output: { type: "string" }, run: () => "s" };
const intOut = { name: "intOut", input: empty, output: { type: "integer" }, run: () => 1 };
const stateSchema = { type: "object", properties: { count: { type: "integer" } } };

/** SPEC §5: a write the engine's `stateSchema` certainly refuses is found by `validate`, before any run. */
describe("the engine's stateSchema checks writes statically", () => {
  let engine: Engine | undefined;
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
  });

  it("a string output into an integer state path is REF_TYPE_MISMATCH at /_outputPath; run refuses it", async () => {
    engine = createEngine({ tools: [strOut, intOut], stateSchema });
    const plan = [{ _tool: "strOut", _outputPath: "†state.count" }];
    const validation = await engine.validate(plan);
    expect(validation.ok).toBe(false);
    expect(validation.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ["REF_TYPE_MISMATCH", "/0/_outputPath"],
    ]);
    await expect(engine.run(plan)).rejects.toMatchObject({ code: "PLAN_INVALID" });
    expect((await engine.validate([{ _tool: "intOut", _outputPath: "†state.count" }])).diagnostics).toEqual(
      [],
    );
  });

  it("without a stateSchema nothing is reported", async () => {
    engine = createEngine({ tools: [strOut] });
    const validation = await engine.validate([{ _tool: "strOut", _outputPath: "†state.count" }]);
    expect(validation.diagnostics).toEqual([]);
  });
});
