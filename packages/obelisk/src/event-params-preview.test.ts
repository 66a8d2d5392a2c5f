import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createEngine, defineTool, previewValue, type RunEvent } from "./index.js";

describe("bounding call-start parameters in an observer, as the README's Events section shows", () => {
  it("previewValue turns a megabyte of parameters into text within the budget, saying what was left out", async () => {
    const count = defineTool({
      name: "count",
      input: z.object({ items: z.array(z.object({ title: z.string() })) }),
      run: ({ items }) => items.length,
    });
    const engine = createEngine({ tools: [count] });
    const hits = Array.from({ length: 5000 }, (_, i) => ({ title: `result ${i} ${"x".repeat(200)}` }));
    await engine.set("t", "†state.hits", hits);
    const sent: unknown[] = [];
    const onEvent = (event: RunEvent) => {
      if (event.type !== "call-start") return;
      const { params, ...rest } = event;
      sent.push({ ...rest, params: previewValue(params, { maxChars: 500 }).text });
    };
    const result = await engine.run([{ _tool: "count", items: "†state.hits", _outputPath: "†state.n" }], {
      threadId: "t",
      onEvent,
    });
    expect(result.status).toBe("succeeded");
    expect(JSON.stringify(hits).length).toBeGreaterThan(1_000_000);
    const [start] = sent as { params: string; threadId: string }[];
    expect(start?.threadId).toBe("t");
    expect(start?.params.length).toBeLessThanOrEqual(500);
    expect(start?.params).toMatch(/^\{"items":\[\{"title":.*\+\d+\]\}$/s);
  });
});
