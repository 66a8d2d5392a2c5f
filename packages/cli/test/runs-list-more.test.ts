import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inProcess, tempDir } from "./cli-harness.js";

const dir = tempDir();
writeFileSync(join(dir, "tools.mjs"), 'export default [{ name: "give", run: () => 1 }];\n');
writeFileSync(join(dir, "plan.json"), '[{ "_tool": "give", "_rerun": true, "_outputPath": "†state.x" }]');

const cli = (args: readonly string[]) => inProcess(args, dir);

describe("runs list says when more runs match than it lists", () => {
  it("json has more: true past the limit (absent otherwise); the text says how to see them", async () => {
    for (let run = 0; run < 3; run++)
      expect((await cli(["run", "plan.json", "--tools", "tools.mjs"])).code).toBe(0);
    const two = await cli(["runs", "list", "--limit", "2", "--format", "json"]);
    expect(JSON.parse(two.stdout)).toEqual({ runs: [expect.anything(), expect.anything()], more: true });
    const three = await cli(["runs", "list", "--limit", "3", "--format", "json"]);
    expect(JSON.parse(three.stdout).runs).toHaveLength(3);
    expect(JSON.parse(three.stdout)).not.toHaveProperty("more");
    const text = await cli(["runs", "list", "--limit", "2"]);
    const last = (JSON.parse(two.stdout).runs as { runId: string }[])[1]?.runId;
    // the command for the next page (decision 0074): --limit as given, --before the last run listed
    expect(text.stdout).toContain(
      `more runs match: these are the newest 2; the next 2: obelisk runs list --limit 2 --before ${last}\n`,
    );
    expect((await cli(["runs", "list"])).stdout).not.toContain("more runs match");
  });
});
