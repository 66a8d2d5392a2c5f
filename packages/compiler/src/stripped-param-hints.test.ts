import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { MAX_STRIPPED_HINTS } from "./check-meta-like-param.js";
import { compile } from "./compile.js";
import { defineTool } from "./tool-definition.js";
import { createToolRegistry } from "./tool-registry.js";

const wide = defineTool({
  name: "wide",
  input: z.object(
    Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`property_${i}`, z.string().optional()])),
  ),
  run: () => 1,
});
const registry = createToolRegistry([wide]);

afterEach(() => {
  vi.restoreAllMocks();
});

describe("PARAM_UNKNOWN of many keys a stripping zod object does not declare", () => {
  it("gives did-you-means to the plan's first MAX_STRIPPED_HINTS, the known parameters to the rest", () => {
    const call: Record<string, string> = { _tool: "wide" };
    for (let i = 0; i < 1_000; i++) call[`propety_${i}`] = "x";
    compile([{ _tool: "wide", property_0: "x" }], registry); // the zod object's conversion, once
    const lower = vi.spyOn(String.prototype, "toLowerCase");
    const unknown = compile([call], registry).diagnostics.filter((d) => d.code === "PARAM_UNKNOWN");
    // each comparison lower-cases the declared name: 1,000 keys × 300 names compared 300,000 times
    expect(lower.mock.calls.length).toBeLessThan(MAX_STRIPPED_HINTS * 300 + 20_000);
    expect(unknown).toHaveLength(1_000);
    expect(unknown[0]?.hint).toBe('did you mean "property_0"?');
    expect(unknown[MAX_STRIPPED_HINTS]?.hint).toMatch(/^its parameters: property_0, property_1, .*, …$/);
  });
});
