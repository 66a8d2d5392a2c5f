import { describe, expect, it } from "vitest";
import { example, inProcess, inProcessJson, tempDir } from "./cli-harness.js";

const greetingPlan = example("greeting", "plan.json");
const greetingTools = example("greeting", "tools.ts");

describe("obelisk resume of a run resumed already (decision 0070)", () => {
  it("is refused with RUN_NOT_RESUMABLE, exit 1 as the other refused operations, naming the resume", async () => {
    const cwd = tempDir();
    const run = await inProcess(
      ["run", greetingPlan, "--tools", greetingTools, "--input", '{"userName":"Ada"}', "--thread", "t"],
      cwd,
    );
    expect(run.code).toBe(0);
    const runId = String(/run ([\w-]+)\)$/m.exec(run.stdout)?.[1]);
    const first = await inProcessJson(["resume", runId, "--tools", greetingTools], cwd);
    expect(first.code).toBe(0);
    const resumedBy = (first.json as { runId: string }).runId;

    const again = await inProcessJson(["resume", runId, "--tools", greetingTools], cwd);
    expect(again.code).toBe(1);
    expect(again.json).toMatchObject({
      error: { code: "RUN_NOT_RESUMABLE", data: { runId, status: "succeeded", resumedBy } },
    });
    const text = await inProcess(["resume", runId, "--tools", greetingTools], cwd);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain(
      `error [RUN_NOT_RESUMABLE] run "${runId}" cannot be resumed: run "${resumedBy}" resumed it already`,
    );
    // nothing was recorded by the refusals: the run and its one resume
    const listed = await inProcessJson(["runs", "list"], cwd);
    expect((listed.json.runs as unknown[]).length).toBe(2);
  });
});
