import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixture, obeliskJson, tempDir } from "./cli-harness.js";

const shoutPlan = fixture("shout-plan.json");

/** A `.ts` tools module as a user writes it first: ES syntax, a type annotation, a local `.ts` import. */
const TOOLS_TS = `import { suffix } from "./suffix.ts";
import { suffix as again } from "./suffix";

export default [
  {
    name: "shout",
    description: "Upper-cases its text",
    input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    run: ({ text }: { text: string }) => \`\${text.toUpperCase()}\${suffix}\${again}\`,
  },
];
`;
const SUFFIX_TS = `export const suffix: string = "!";\n`;
/** Top-level await: only an ES module may use it. */
const AWAIT_TS = `const suffix: string = await Promise.resolve("?");

export default [
  {
    name: "shout",
    description: "Upper-cases its text",
    input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    run: ({ text }: { text: string }) => \`\${text.toUpperCase()}\${suffix}\`,
  },
];
`;

/** The nearest package.json of each case: none (CommonJS by default), an `npm init` one, an explicit CommonJS one. */
const PACKAGES: Record<string, string | undefined> = {
  "no package.json": undefined,
  'a package.json without "type"': '{ "name": "tools", "version": "1.0.0" }',
  'a package.json with "type": "commonjs"': '{ "name": "tools", "type": "commonjs" }',
};

describe.concurrent("obelisk: a .ts or .tsx tools module is an ES module whatever its package.json says", () => {
  for (const [name, packageJson] of Object.entries(PACKAGES)) {
    it(`loads .ts and .tsx with ${name} (imports, top-level await)`, async () => {
      const cwd = tempDir();
      const dir = join(cwd, "tools");
      mkdirSync(dir);
      if (packageJson !== undefined) writeFileSync(join(dir, "package.json"), packageJson);
      writeFileSync(join(dir, "suffix.ts"), SUFFIX_TS);
      writeFileSync(join(dir, "tools.ts"), TOOLS_TS);
      writeFileSync(join(dir, "tools.tsx"), TOOLS_TS);
      writeFileSync(join(dir, "await.ts"), AWAIT_TS);
      const run = (tools: string) =>
        obeliskJson(
          ["run", shoutPlan, "--tools", `tools/${tools}`, "--store", "memory", "--input", '{"word":"ts"}'],
          cwd,
        );
      const [ts, tsx, awaited] = await Promise.all([run("tools.ts"), run("tools.tsx"), run("await.ts")]);
      for (const [result, loud] of [
        [ts, "TS!!"],
        [tsx, "TS!!"],
        [awaited, "TS?"],
      ] as const) {
        expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
        expect(result.json).toMatchObject({ status: "succeeded", state: { loud } });
      }
    });
  }
});
