import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

interface EsbuildPlugin {
  name: string;
  setup(build: {
    onResolve(options: { filter: RegExp }, callback: () => { path: string; external: boolean }): void;
  }): void;
}
interface Esbuild {
  build(options: Record<string, unknown> & { plugins?: EsbuildPlugin[] }): Promise<unknown>;
}

const root = fileURLToPath(new URL("../../", import.meta.url));
/** esbuild as installed for tsx (no extra dependency); better-sqlite3 as installed for @obelisk/state. */
const esbuild = createRequire(createRequire(`${root}package.json`).resolve("tsx/package.json"))(
  "esbuild",
) as Esbuild;
const betterSqlite = createRequire(`${root}packages/state/package.json`).resolve("better-sqlite3");

/**
 * Bundles a child-process script with the workspace sources (`@obelisk/source` condition) into one ESM
 * file, so each child starts in a fraction of the time `node --import tsx` needs to transpile every file.
 * The native better-sqlite3 stays external, imported by absolute path.
 */
export async function bundleChild(entry: string, outfile: string): Promise<void> {
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    conditions: ["@obelisk/source"],
    mainFields: ["module", "main"],
    logLevel: "error",
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
    plugins: [
      {
        name: "better-sqlite3-external",
        setup(build) {
          build.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: betterSqlite, external: true }));
        },
      },
    ],
  });
}
