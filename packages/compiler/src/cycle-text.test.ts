import { describe, expect, it } from "vitest";
import { compile } from "./compile.js";
import { cycleText } from "./cycle-text.js";
import { createToolRegistry } from "./tool-registry.js";

describe("CYCLE text", () => {
  it("shows a short cycle whole", () => {
    expect(cycleText(["a", "b", "a"])).toBe("a → b → a");
  });

  it("keeps a long cycle's message bounded: ten calls at each end around the count left out", async () => {
    const n = 2_000;
    const registry = createToolRegistry([{ name: "t", input: { type: "object" } }]);
    const plan = Array.from({ length: n }, (_, i) => ({
      _tool: "t",
      _id: `c${i}`,
      v: `†state.s${(i + n - 1) % n}`,
      _outputPath: `†state.s${i}`,
    }));
    const compiled = compile(plan, registry);
    const cycle = compiled.diagnostics.find((d) => d.code === "CYCLE");
    expect(cycle?.message.length).toBeLessThan(400);
    expect(cycle?.message).toContain("1,981 more");
    const text = cycle?.message.slice(cycle.message.indexOf(": ") + 2) ?? "";
    // The hint starts with the same bounded text, then names the first six reads only.
    expect(cycle?.hint?.startsWith(`${text}: c1 reads †state.s0 (written by c0); `)).toBe(true);
    expect(cycle?.hint).toContain("c6 reads †state.s5 (written by c5); and so on. Remove one of these reads");
    expect(cycle?.hint?.length).toBeLessThan(700);
    expect(cycle?.related).toHaveLength(n);
  });
});
