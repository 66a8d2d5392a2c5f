import { describe, expect, it } from "vitest";
import { createEngine, defineTool } from "./index.js";

const echo = defineTool({ name: "echo", run: (args: unknown) => args });
const make = defineTool({ name: "make", run: () => ({ n: 50, list: [1, 2], name: "Ada" }) });

describe("reference resolution", () => {
  it("keeps whole values' JSON type, renders templates, reads †calls and the $tool_output alias", async () => {
    const engine = createEngine({ tools: [echo, make] });
    const result = await engine.run(
      [
        { _tool: "make", _id: "m" },
        {
          _tool: "echo",
          _id: "e",
          whole: "†calls.m",
          n: "†calls.m.n",
          alias: "$tool_output.m",
          text: "Hi {†calls.m.name}, n={†calls.m.n}, list={†calls.m.list}, in={†input.x}",
          nested: { deep: ["†input.x", "literal", "††state.not"] },
          _outputPath: "†state.echo",
        },
      ],
      { input: { x: "X" } },
    );
    expect(result.calls.m).toMatchObject({ status: "succeeded", wrote: ["†calls.m"] });
    expect(result.state.echo).toEqual({
      whole: { n: 50, list: [1, 2], name: "Ada" },
      n: 50,
      alias: { n: 50, list: [1, 2], name: "Ada" },
      text: "Hi Ada, n=50, list=[1,2], in=X",
      nested: { deep: ["X", "literal", "†state.not"] },
    });
    expect(await engine.get("default", "†calls.m.n")).toEqual({ found: true, value: 50 });
  });

  it("reads stored call outputs of earlier runs and hands tools frozen values", async () => {
    let frozen: boolean | undefined;
    const inspect = defineTool({
      name: "inspect",
      run: (args: unknown) => {
        const value = (args as { value: { list: number[] } }).value;
        frozen = Object.isFrozen(value) && Object.isFrozen(value.list) && Object.isFrozen(args);
        return value.list.length;
      },
    });
    const engine = createEngine({ tools: [make, inspect] });
    await engine.run([{ _tool: "make", _id: "m" }], { threadId: "t" });
    const result = await engine.run(
      [{ _tool: "inspect", _id: "i", value: "†calls.m", _outputPath: "†state.count" }],
      {
        threadId: "t",
      },
    );
    expect(result.state.count).toBe(2);
    expect(frozen).toBe(true);
  });

  it("a self-reference reads the value from before the run", async () => {
    const inc = defineTool({ name: "inc", run: (args: unknown) => (args as { n: number }).n + 1 });
    const engine = createEngine({ tools: [inc] });
    await engine.set("default", "†state.n", 1);
    const result = await engine.run([{ _tool: "inc", _id: "i", n: "†state.n", _outputPath: "†state.n" }]);
    expect(result.state.n).toBe(2);
  });
});
