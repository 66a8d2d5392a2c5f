import { describe, expect, it } from "vitest";
import { agentTools, createEngine, defineTool } from "./index.js";

const greet = defineTool({
  name: "greet",
  input: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  run: (args) => `hello ${String(args.name)}`,
});

const planFor = (name: string): string =>
  JSON.stringify([{ _tool: "greet", name, _outputPath: `†state.${name}` }], null, 2);

describe("plan text with a second plan after the first, sent to the agent tools (decision 0065)", () => {
  it("is refused as a whole, nothing runs, and the hint says to send one plan or merge the calls", async () => {
    const engine = createEngine({ tools: [greet] });
    const [validate, run] = agentTools(engine, "t");
    if (validate === undefined || run === undefined) throw new Error("no plan tools");
    const hint =
      "the text holds a second plan after the first: send one plan, or merge the calls into one list";
    const text = `${planFor("a")}\n\nAnd then:\n${planFor("b")}`;
    expect(await run.execute({ plan: text })).toMatchObject({
      ok: false,
      error: { code: "PLAN_INVALID", data: { diagnostics: [{ code: "JSON_SYNTAX", pointer: "", hint }] } },
    });
    expect(await validate.execute({ plan: `${planFor("a")}\n${planFor("b")}` })).toMatchObject({
      ok: false,
      diagnostics: [{ code: "JSON_SYNTAX", hint }],
    });
    expect(await engine.get("t", "†state")).toEqual({ found: true, value: {} });
    await engine.close();
  });
});
