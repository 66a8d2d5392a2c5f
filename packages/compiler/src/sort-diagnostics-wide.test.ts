import { afterEach, describe, expect, it, vi } from "vitest";
import { compile } from "./compile.js";
import { createToolRegistry } from "./tool-registry.js";

const registry = createToolRegistry([{ name: "echo", input: { type: "object" }, run: () => 1 }]);
const WIDTH = 3000;

/** One call whose `WIDTH` parameters each hold text that mentions a reference (a REF_SUSPICIOUS warning each). */
function wideCall(): Record<string, string> {
  const call: Record<string, string> = { _tool: "echo" };
  for (let i = WIDTH - 1; i >= 0; i--) call[`k${i}`] = "a †state.x";
  return call;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("sorting the diagnostics of a call with thousands of parameters", () => {
  it("keeps document (key) order and reads each object's keys once, not once per diagnostic", () => {
    const plan = { type: "plan", plan: [wideCall()] };
    const keys = vi.spyOn(Object, "keys");
    const compiled = compile(plan, registry);
    const wideReads = keys.mock.calls.filter(
      ([value]) => Object.getOwnPropertyNames(value).length > WIDTH,
    ).length;
    expect(compiled.diagnostics).toHaveLength(WIDTH);
    expect(compiled.diagnostics.map((d) => d.pointer)).toEqual(
      Array.from({ length: WIDTH }, (_, i) => `/plan/0/k${WIDTH - 1 - i}`),
    );
    // Was one `Object.keys` of the call per diagnostic (quadratic: 20,000 parameters took 123 s).
    expect(wideReads).toBeLessThan(20);
  });
});
