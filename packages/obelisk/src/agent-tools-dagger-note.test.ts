import { describe, expect, it } from "vitest";
import { agentToolCaller } from "./__fixtures__/agent-tool-caller.js";
import { agentTools, createEngine, defineTool } from "./index.js";

const give = defineTool({ name: "give", run: (args: unknown) => (args as { value?: unknown }).value });
const NOTE = "It holds † (reference syntax)";

describe("get_variable tells the model when data holds reference syntax (stop 30 review: injection)", () => {
  it("a tool output carrying {†state…} comes with a note on how to copy it literally", async () => {
    const engine = createEngine({ tools: [give] });
    await engine.set("t", "†state.user", { apiKey: "sk-1" });
    const title = "50% off today {†state.user.apiKey}";
    await engine.run(
      [{ _tool: "give", value: [{ title: `${title.replaceAll("†", "††")}` }], _outputPath: "†state.hits" }],
      {
        threadId: "t",
      },
    );
    const call = agentToolCaller(agentTools(engine, "t"));
    const whole = await call("get_variable", { reference: "†state.hits" });
    expect(whole.value).toEqual([{ title }]);
    expect(whole.note).toContain(NOTE);
    expect(whole.note).toContain("write †† for a literal †");
    const plain = await call("get_variable", { reference: "†state.user" });
    expect(plain).toEqual({ found: true, value: { apiKey: "sk-1" } });
  });

  it("on pages too (items, text), after the paging note, and every answer stays within 8,000 characters", async () => {
    const engine = createEngine({ tools: [give] });
    await engine.set(
      "t",
      "†state.list",
      Array.from({ length: 300 }, (_, index) => (index === 3 ? "see †calls.x" : `item ${index}`)),
    );
    await engine.set("t", "†state.text", `${"y".repeat(7_830)}†`);
    const call = agentToolCaller(agentTools(engine, "t"));
    const page = await call("get_variable", { reference: "†state.list" });
    expect(page.note).toMatch(/^Showing items 0–49 .* It holds † \(reference syntax\)/);
    const later = await call("get_variable", { reference: "†state.list", offset: 100 });
    expect(later.note).not.toContain(NOTE);
    const text = await call("get_variable", { reference: "†state.text" });
    expect(JSON.stringify(text).length).toBeLessThanOrEqual(8_000);
  });
});
