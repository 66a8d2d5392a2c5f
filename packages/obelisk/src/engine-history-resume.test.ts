import { describe, expect, it } from "vitest";
import { rejectionOf } from "./__fixtures__/error-codes.js";
import { createEngine, defineTool } from "./index.js";

// s36 review of decision 0075: with the history option a failed run the host wants to resume is removed once
// newer runs of its thread push it out of keepRuns; resume and runs.show then answered RUN_NOT_FOUND with a
// hint that only said how to list the runs, as if the id were wrong.

describe("a run the history option removed", () => {
  it("is RUN_NOT_FOUND for resume and runs.show, the hint saying that pruning removes runs", async () => {
    let fail = true;
    const flaky = defineTool({
      name: "flaky",
      input: { type: "object", properties: { n: {} } },
      run: () => {
        if (fail) throw new Error("down");
        return 1;
      },
    });
    const engine = createEngine({ tools: [flaky], history: { keepRuns: 1 } });
    const failed = await engine.run([{ _tool: "flaky", n: 1 }], { threadId: "t" });
    expect(failed.status).toBe("failed");
    fail = false;
    await engine.run([{ _tool: "flaky", n: 2 }], { threadId: "t" });
    for (const error of [
      await rejectionOf(engine.resume(failed.runId)),
      await rejectionOf(engine.runs.show(failed.runId)),
    ])
      expect(error).toMatchObject({
        code: "RUN_NOT_FOUND",
        hint: expect.stringContaining(
          "a run runs.prune or the engine's history option removed is no longer recorded",
        ),
      });
    await engine.close();
  });
});
