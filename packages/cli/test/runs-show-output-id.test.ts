import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inProcess, inProcessJson, tempDir } from "./cli-harness.js";

// Decision 0102 (Amended 2026-11-28): a re-sent call without `_id`, satisfied by an earlier call whose
// output the thread still holds, stores no copy; `runs show` of that run said "—" where it wrote nothing,
// not where its value is. Its record now carries `outputId`, which both formats show.

describe("obelisk runs show: a satisfied call that stored no copy says where its value is", () => {
  it("text names †calls.<outputId>; JSON has the record's outputId", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "tools.mjs"), 'export default [{ name: "echo", run: (args) => args.v }];\n');
    writeFileSync(join(cwd, "plan.json"), '[{ "_tool": "echo", "v": 42 }]');
    const run = ["run", "plan.json", "--tools", "tools.mjs", "--store", "sqlite:s.db"];
    expect((await inProcess(run, cwd)).code).toBe(0);
    const again = await inProcessJson(run, cwd);
    expect(again.code).toBe(0);
    const runId = again.json.runId as string;
    const text = await inProcess(["runs", "show", runId, "--store", "sqlite:s.db"], cwd);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/echo\$2\s+echo\s+\S+ satisfied\s+0\s+value at †calls\.echo\$1/);
    const json = await inProcessJson(["runs", "show", runId, "--store", "sqlite:s.db"], cwd);
    expect(json.json.calls).toMatchObject([
      { callId: "echo$2", status: "satisfied", wrote: [], outputId: "echo$1" },
    ]);
  });
});
