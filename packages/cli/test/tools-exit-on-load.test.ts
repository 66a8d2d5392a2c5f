import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { example, obelisk, tempDir } from "./cli-harness.js";

const dir = tempDir();
// exits at once, and after a top-level await (a module waiting for its config, then giving up)
writeFileSync(join(dir, "exits.mjs"), "process.exit(0);\n");
writeFileSync(join(dir, "exits-later.mjs"), "await Promise.resolve();\nprocess.exit(3);\n");

describe("a tools module that calls process.exit while it loads", () => {
  it("is a tools module that does not load: exit 2, USAGE on stderr, one JSON document with --format json", async () => {
    const plan = example("greeting", "plan.json");
    const text = await obelisk(["validate", plan, "--tools", "exits.mjs"], dir);
    expect(text.code).toBe(2);
    expect(text.stdout).toBe("");
    expect(text.stderr).toContain(
      "error [USAGE] tools module exits.mjs failed to load: it called process.exit(0) while loading",
    );
    const json = await obelisk(
      ["run", plan, "--tools", "exits-later.mjs", "--store", "memory", "--format", "json"],
      dir,
    );
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: { code: "USAGE", message: expect.stringContaining("it called process.exit(3) while loading") },
    });
  });
});
