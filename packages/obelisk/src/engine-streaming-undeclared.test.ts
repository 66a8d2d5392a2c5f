import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createEngine, defineTool } from "./index.js";

/** Its output schema is open (a zod z.object would drop other names: REF_UNRESOLVED, decision 0052). */
const fetchUser = defineTool({
  name: "fetchUser",
  input: z.object({ id: z.string() }),
  output: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  run: ({ id }) => ({ name: id.toUpperCase() }),
});
const greet = defineTool({
  name: "greet",
  input: z.object({ text: z.string() }),
  run: ({ text }) => `Hello ${text}`,
});

describe("a streamed call reading a name its writer's output does not declare (decision 0037)", () => {
  it("is accepted, and its add answer warns with the corrected reference", async () => {
    const engine = createEngine({ tools: [fetchUser, greet] });
    const stream = await engine.open({ threadId: "t" });
    try {
      expect(
        stream.add({ _tool: "fetchUser", _id: "u", id: "ada", _outputPath: "†state.user" }),
      ).toMatchObject({
        ok: true,
        diagnostics: [],
      });
      const reader = stream.add({
        _tool: "greet",
        _id: "g",
        text: "†state.user.nme",
        _outputPath: "†state.hi",
      });
      expect(reader).toMatchObject({
        ok: true,
        callId: "g",
        diagnostics: [{ code: "REF_SUSPICIOUS", severity: "warning", pointer: "/plan/1/text" }],
      });
      expect(reader.diagnostics[0]?.hint).toMatch(/^did you mean "†state\.user\.name"\?/);
    } finally {
      const result = await stream.close();
      // what the warning says: the reader ends blocked
      expect(result.calls.g?.status).toBe("blocked");
      await engine.close();
    }
  });
});
