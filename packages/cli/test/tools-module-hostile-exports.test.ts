import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectOneLineError, fixture, obelisk, obeliskJson, tempDir } from "./cli-harness.js";

const plan = fixture("rerun-plan.json");
const HINT = "export plain arrays and objects of tools: a getter or Proxy trap that throws cannot be read";

/** A directory holding `files` (name → source): the tools modules of a case. */
function withFiles(files: Record<string, string>): string {
  const cwd = tempDir();
  for (const [name, source] of Object.entries(files)) writeFileSync(join(cwd, name), source);
  return cwd;
}

describe.concurrent("a tools module whose exports throw while read is a usage error naming it (exit 2)", () => {
  it.each([
    [
      "an object with a throwing getter",
      'export default { get echo() { throw new Error("getter in tools"); } };',
      "getter in tools",
    ],
    [
      "a Proxy whose length trap throws",
      'export default new Proxy([], { get(t, k) { if (k === "length") throw new Error("no length"); return Reflect.get(t, k); } });',
      "no length",
    ],
    ["a getter that throws null", "export default { get echo() { throw null; } };", "null"],
  ])("%s", async (_name, source, thrown) => {
    const cwd = withFiles({ "tools.mjs": source });
    const text = await obelisk(["validate", plan, "--tools", "tools.mjs"], cwd);
    expectOneLineError(text, 2);
    expect(text.stderr).toBe(
      `error [USAGE] tools module tools.mjs: reading its exports threw: ${thrown} (${HINT})\n`,
    );
    const json = await obeliskJson(["validate", plan, "--tools", "tools.mjs"], cwd);
    expect(json.code).toBe(2);
    expect(json.json.error).toMatchObject({ code: "USAGE", hint: HINT });
  });
});

/** A tools module with a syntax error at line 1, column 42 (the `;`). */
const BROKEN = 'export default [{ name: "x", run: () => 1 ;\n';

describe.concurrent("a syntax error in a TypeScript tools module names the file that holds it", () => {
  it.each(["tools.mts", "tools.cts"])("%s: its own name, not tsx's .ts name for it", async (name) => {
    const cwd = withFiles({ [name]: BROKEN });
    const result = await obelisk(["validate", plan, "--tools", name], cwd);
    expectOneLineError(result, 2);
    expect(result.stderr).toContain(`${join(cwd, name)}:1:42: ERROR:`);
    expect(result.stderr).not.toContain("tools.ts:");
    // a .ts file it imports keeps its own name (the rewrite is only for a file that does not exist)
    const load = name.endsWith(".cts")
      ? 'const { a } = require("./broken.ts");\nmodule.exports = [{ name: "x", run: () => a }];\n'
      : 'import { a } from "./broken.ts";\nexport default [{ name: "x", run: () => a }];\n';
    const importing = withFiles({ [name]: load, "broken.ts": "export const a = (;\n" });
    const imported = await obelisk(["validate", plan, "--tools", name], importing);
    expectOneLineError(imported, 2);
    expect(imported.stderr).toContain(`${join(importing, "broken.ts")}:1:18: ERROR:`);
  });
});
