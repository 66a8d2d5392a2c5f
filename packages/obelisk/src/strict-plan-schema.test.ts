import * as compiler from "@obelisk/compiler";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createEngine,
  DEFAULT_STRICT_SCHEMA_LIMITS,
  defineTool,
  type Engine,
  fromStrictPlan,
  STRICT_DEVIATION_REASONS,
  type StrictDeviationReason,
  type StrictPlanJsonSchema,
  type StrictPlanJsonSchemaOptions,
  type StrictSchemaDeviation,
  type StrictSchemaLimits,
  strictPlanJsonSchema,
} from "./index.js";

const lookup = defineTool({
  name: "lookup",
  input: z.object({ id: z.string(), verbose: z.boolean().optional() }),
  run: ({ id, verbose }) => ({ id, verbose: verbose ?? false }),
});
const tag = defineTool({
  name: "tag",
  input: z.object({ labels: z.record(z.string(), z.string()) }),
  run: ({ labels }) => Object.keys(labels).length,
});

describe("the strict plan schema through the facade (decision 0028)", () => {
  let engine: Engine;
  afterEach(async () => engine.close());

  it("re-exports the compiler's strict-schema API as it is", () => {
    engine = createEngine({ tools: [lookup] });
    expect(strictPlanJsonSchema).toBe(compiler.strictPlanJsonSchema);
    expect(fromStrictPlan).toBe(compiler.fromStrictPlan);
    expect(STRICT_DEVIATION_REASONS).toBe(compiler.STRICT_DEVIATION_REASONS);
    expect(DEFAULT_STRICT_SCHEMA_LIMITS).toBe(compiler.DEFAULT_STRICT_SCHEMA_LIMITS);
    // the types are exported too (a type that is not would not compile here)
    const options: StrictPlanJsonSchemaOptions = { limits: engine.limits };
    const limits: StrictSchemaLimits = DEFAULT_STRICT_SCHEMA_LIMITS;
    const reason: StrictDeviationReason = "open-object";
    const built: StrictPlanJsonSchema = strictPlanJsonSchema(engine.registry, options);
    const deviations: readonly StrictSchemaDeviation[] = built.deviations;
    expect(limits).toBe(DEFAULT_STRICT_SCHEMA_LIMITS);
    expect(STRICT_DEVIATION_REASONS[reason].effect).toBe("narrower");
    expect(deviations).toEqual([]);
  });

  it("a model's strict-shape plan (nulls meaning absent) runs once fromStrictPlan has dropped them", async () => {
    engine = createEngine({ tools: [lookup, tag] });
    const { schema, deviations } = strictPlanJsonSchema(engine.registry, { limits: engine.limits });
    expect(schema.additionalProperties).toBe(false);
    // z.record is an open object: strict mode cannot say "any key", and the report says where
    expect(deviations).toContainEqual(
      expect.objectContaining({
        tool: "tag",
        schema: "input",
        pointer: "/properties/labels",
        reason: "open-object",
      }),
    );
    // what a model answers under the strict schema: every key present, null where it means "absent"
    const answer = {
      type: "plan",
      id: null,
      description: null,
      plan: [
        {
          _tool: "lookup",
          id: "u1",
          verbose: null,
          _id: "find",
          _outputPath: "†state.user",
          _outputMethod: null,
          _description: null,
          _rerun: null,
          _timeoutMs: null,
          _retry: null,
        },
      ],
    };
    await expect(engine.run(answer, { threadId: "t" })).rejects.toMatchObject({ code: "PLAN_INVALID" });
    const result = await engine.run(fromStrictPlan(answer, engine.registry), { threadId: "t" });
    expect(result.status).toBe("succeeded");
    expect(result.state).toEqual({ user: { id: "u1", verbose: false } });
  });
});
