import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixture, obelisk, tempDir } from "./cli-harness.js";

// Decision 0103 (review s41 r2 #10): a .ts tools module in a dot folder under node_modules (a cache or
// scratch folder: node_modules/.cache/tools.ts) is no package's file, but the hooks that make a .ts file an
// ES module left every path under node_modules alone: a valid module failed "Cannot require() ES Module …
// in a cycle".

const plan = fixture("shout-plan.json");

describe("a TypeScript tools module in a dot folder under node_modules", { timeout: 120_000 }, () => {
  it("loads as an ES module (its .ts import and top-level await too)", async () => {
    const cwd = tempDir();
    const folder = join(cwd, "node_modules", ".cache");
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "word.ts"), 'export const suffix: string = "!";\n');
    writeFileSync(
      join(folder, "tools.ts"),
      'import { suffix } from "./word.ts";\nawait Promise.resolve();\nexport default [{ name: "shout", description: "s", input: { type: "object", properties: { text: { type: "string" } } }, run: async ({ text }: { text: string }) => text.toUpperCase() + suffix }];\n',
    );
    const result = await obelisk(
      ["validate", plan, "--tools", join("node_modules", ".cache", "tools.ts")],
      cwd,
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("✓ plan is valid");
  });
});
