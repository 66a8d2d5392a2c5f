import { describe, expect, it } from "vitest";
import { createEngine } from "./create-engine.js";

describe("cancelling a run of synchronous tools", () => {
  it("lets the abort signal fire mid-run: the runner yields to the event loop between slices", async () => {
    const engine = createEngine({ tools: [{ name: "step", input: { type: "object" }, run: () => 1 }] });
    const plan = Array.from({ length: 3000 }, (_, i) => ({
      _tool: "step",
      _id: `n${i}`,
      previous: i === 0 ? 0 : `†state.n${i - 1}`,
      _outputPath: `†state.n${i}`,
    }));
    const controller = new AbortController();
    // Queued before the run starts, so it runs at the runner's first yield.
    setImmediate(() => controller.abort());
    const result = await engine.run(plan, { signal: controller.signal });
    const statuses = Object.values(result.calls).map((call) => call.status);
    expect(result.status).toBe("cancelled");
    expect(statuses.filter((status) => status === "succeeded").length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status === "cancelled").length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === "succeeded" || status === "cancelled")).toBe(true);
  });
});

describe("a tool that cancels its own run", () => {
  it("ends cancelled when the abort comes during the tool's synchronous part and its promise never settles", async () => {
    const controller = new AbortController();
    const engine = createEngine({
      tools: [
        {
          name: "stop",
          input: { type: "object" },
          run: () => {
            controller.abort();
            return new Promise(() => {});
          },
        },
      ],
    });
    const result = await engine.run([{ _tool: "stop", _id: "s", _outputPath: "†state.s" }], {
      signal: controller.signal,
    });
    expect(result.status).toBe("cancelled");
    expect(result.calls.s?.status).toBe("cancelled");
    expect(result.state).toEqual({});
  });
});
