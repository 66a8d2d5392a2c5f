import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectOneLineError, fixture, obelisk, obeliskJson, tempDir } from "./cli-harness.js";

// Decision 0103 (review s41 r2 #3): a syntax error in a JavaScript tools module was reported as
// "tools module t.mjs failed to load: Unexpected token ';'": neither file nor line (Node 20 gives an ES
// module's error no place; a CommonJS module's has it only in its stack), and a helper the module imports
// was never named.

const plan = fixture("rerun-plan.json");
/** A module body with a syntax error on line 2, column 11 (the `;`). */
const BROKEN = "export default [];\nconst x = ;\n";

/** A directory holding `files` (name → source). */
function withFiles(files: Record<string, string>): string {
  const cwd = tempDir();
  for (const [name, source] of Object.entries(files)) writeFileSync(join(cwd, name), source);
  return cwd;
}

describe.concurrent("a syntax error in a JavaScript tools module names its file, line and column", () => {
  it.each([
    ["tools.mjs", { "tools.mjs": BROKEN }],
    ["tools.cjs", { "tools.cjs": "module.exports = [];\nconst x = ;\n" }],
    ["tools.js", { "tools.js": BROKEN, "package.json": '{ "type": "module" }' }],
  ])("%s", async (name, files) => {
    const cwd = withFiles(files);
    const text = await obelisk(["validate", plan, "--tools", name], cwd);
    expectOneLineError(text, 2);
    expect(text.stderr).toBe(
      `error [USAGE] tools module ${name} failed to load: ${join(cwd, name)}:2:11: Unexpected token ';' (in: const x = ;)\n`,
    );
    const json = await obeliskJson(["validate", plan, "--tools", name], cwd);
    expect(json.code).toBe(2);
    expect((json.json.error as { message: string }).message).toContain(`${join(cwd, name)}:2:11: `);
  });

  it("a helper the module imports is named when the error is in it", async () => {
    const cwd = withFiles({
      "tools.mjs": 'import { helper } from "./lib/helper.mjs";\nexport default [helper];\n',
      "lib-ok.mjs": "export const ok = 1;\n",
    });
    const lib = join(cwd, "lib");
    mkdirSync(lib);
    writeFileSync(join(lib, "helper.mjs"), 'import "../lib-ok.mjs";\nexport const helper = (;\n');
    const text = await obelisk(["validate", plan, "--tools", "tools.mjs"], cwd);
    expectOneLineError(text, 2);
    expect(text.stderr).toContain(`failed to load: ${join(lib, "helper.mjs")}:2:24: Unexpected token ';'`);
  });
});
