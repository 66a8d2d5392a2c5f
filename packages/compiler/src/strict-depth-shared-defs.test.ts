import { afterEach, describe, expect, it, vi } from "vitest";
import { DEPTH_STEPS } from "./strict-object-depth.js";
import { strictPlanJsonSchema } from "./strict-plan-json-schema.js";
import { createToolRegistry } from "./tool-registry.js";

/**
 * A tool whose input nests `levels` object defs, each with two properties that `$ref` the next one (and,
 * `recursive`, a third that `$ref`s itself: a tree of nodes).
 */
function diamondTool(levels: number, recursive = false) {
  const $defs: Record<string, object> = {};
  for (let i = 0; i < levels; i++)
    $defs[`d${i}`] = {
      type: "object",
      properties: {
        left: { $ref: `#/$defs/d${i + 1}` },
        right: { $ref: `#/$defs/d${i + 1}` },
        ...(recursive ? { self: { $ref: `#/$defs/d${i}` } } : {}),
      },
    };
  $defs[`d${levels}`] = { type: "string" };
  return {
    name: "nested",
    input: { type: "object", $defs, properties: { root: { $ref: "#/$defs/d0" } } },
    run: () => 1,
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("strictPlanJsonSchema of a tool whose defs share their defs", () => {
  it("measures the object nesting once per def, not once per path (2^levels)", () => {
    const registry = createToolRegistry([diamondTool(16)]);
    const values = vi.spyOn(Object, "values");
    const { deviations } = strictPlanJsonSchema(registry);
    // a walk of every path: 2^17 objects, each reading its properties
    expect(values.mock.calls.length).toBeLessThan(2_000);
    const depth = deviations.find((deviation) => deviation.limit === "maxObjectDepth");
    expect(depth).toMatchObject({ tool: "nested", schema: "input", pointer: "/$defs/d15" });
    expect(depth?.message).toContain("the schema has 18 levels of nested objects");
  });

  it("does so too when each def also refers to itself (a recursive $ref, cut on every path)", () => {
    const registry = createToolRegistry([diamondTool(16, true)]);
    const values = vi.spyOn(Object, "values");
    const { deviations } = strictPlanJsonSchema(registry);
    expect(values.mock.calls.length).toBeLessThan(2_000);
    expect(deviations.find((deviation) => deviation.limit === "maxObjectDepth")?.message).toContain(
      "the schema has 18 levels of nested objects",
    );
  });
});

/** `diamondTool`'s defs with the last one referring back to the first: a ring of `levels` defs. */
function ringTool(levels: number) {
  const tool = diamondTool(levels);
  const defs = tool.input.$defs;
  defs[`d${levels - 1}`] = {
    type: "object",
    properties: { left: { $ref: "#/$defs/d0" }, right: { $ref: "#/$defs/d0" } },
  };
  delete defs[`d${levels}`];
  return tool;
}

describe("strictPlanJsonSchema of a tool whose defs refer to each other in a longer cycle", () => {
  it("bounds the walk of every path, and says the depth is a bound", () => {
    const registry = createToolRegistry([ringTool(18)]);
    const values = vi.spyOn(Object, "values");
    const { deviations } = strictPlanJsonSchema(registry);
    // the walk of every path into the ring: 2^18 paths
    expect(values.mock.calls.length).toBeLessThan(DEPTH_STEPS);
    const depth = deviations.find((deviation) => deviation.limit === "maxObjectDepth");
    expect(depth).toMatchObject({ tool: "nested", schema: "input", pointer: "/$defs/d17" });
    expect(depth?.message).toContain(
      "the schema has up to 20 levels of nested objects (definitions that refer to each other in a cycle counted once each, together)",
    );
  });

  it("still counts a short cycle exactly", () => {
    const { deviations } = strictPlanJsonSchema(createToolRegistry([ringTool(10)]));
    expect(deviations.find((deviation) => deviation.limit === "maxObjectDepth")?.message).toContain(
      "the schema has 12 levels of nested objects, counting",
    );
  });
});
