import { describe, expect, it } from "vitest";
import { createEngine, defineTool } from "./index.js";

/** A tool with no output schema: the compiler cannot tell which paths below its output exist. */
const search = defineTool({
  name: "search",
  input: { type: "object" },
  run: () => [{ title: "a" }, { title: "b" }],
});
const echo = defineTool({
  name: "echo",
  input: { type: "object" },
  run: (args: { v?: unknown }) => args.v ?? null,
});

describe("a reader of a path a succeeded call's output lacks names that path (review s41 r1 #1)", () => {
  it.each([
    ["a whole value", "†calls.s.output", "s did not write †calls.s.output"],
    ["a template slot", "got {†calls.s[5].title}", "s did not write †calls.s[5].title"],
  ])("%s below †calls.<id> of a call without _outputPath", async (_, v, reason) => {
    const engine = createEngine({ tools: [search, echo] });
    const result = await engine.run(
      [
        { _tool: "search", _id: "s" },
        { _tool: "echo", _id: "r", v },
      ],
      { threadId: "t" },
    );
    expect(result.calls.s?.status).toBe("succeeded");
    expect(result.calls.r).toMatchObject({ status: "blocked", reason });
  });
});
