import type { RunResult, StateStore, ValidationResult } from "obelisk";
import { createEngine, createMemoryStore, defineTool } from "obelisk";
import { z } from "zod";

const fetchUser = defineTool({
  name: "fetchUser",
  description: "Looks a user up by id",
  input: z.object({ id: z.string() }),
  output: z.object({ id: z.string(), name: z.string() }),
  async run({ id }) {
    return { id, name: "Ada" };
  },
});

const greet = defineTool({
  name: "greet",
  description: "Shouts a greeting",
  input: z.object({ text: z.string() }),
  run: ({ text }) => text.toUpperCase(),
});

const plan = {
  type: "plan",
  plan: [
    { _tool: "fetchUser", id: "†input.userId", _outputPath: "†state.user" },
    { _tool: "greet", text: "Hello {†state.user.name}!", _outputPath: "†state.greeting" },
  ],
};

/** The README's library example: validate, approve by hash, run, summarize. */
export async function quickstart(
  store: StateStore = createMemoryStore(),
): Promise<{ check: ValidationResult; result: RunResult; summary: string }> {
  const engine = createEngine({ tools: [fetchUser, greet], store });
  const check = await engine.validate(plan); // { ok, planHash, diagnostics, compiled }
  const result = await engine.run(plan, {
    threadId: "t1",
    input: { userId: "u1" },
    approvedHash: check.planHash,
  });
  const summary = (await engine.summarize("t1", { format: "markdown" })).text;
  await engine.close();
  return { check, result, summary };
}
