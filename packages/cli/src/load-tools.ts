import { existsSync, statSync } from "node:fs";
import { extname, resolve } from "node:path";
import type { CliIo } from "./cli-io.js";
import { importModule, JAVASCRIPT, TYPESCRIPT } from "./import-tools-module.js";
import type { ToolsModule } from "./tools-module.js";
import { readExports } from "./tools-module-exports.js";
import { usageError } from "./usage-error.js";

export { importedToolsModule } from "./import-tools-module.js";
export type { ToolsModule } from "./tools-module.js";

/**
 * Loads a tools module (`.js`, `.mjs`, `.cjs`; TypeScript through tsx: `.ts`, `.tsx` and `.mts` as ES modules,
 * `.cts` as CommonJS; resolved against `io.cwd`) and checks its default export (without one, its named
 * exports that are tools) and its `implementations` export, if any. Throws USAGE; a `process.exit` while it loads is reported on `io` as USAGE (exit 2).
 */
export async function loadTools(file: string, io: CliIo): Promise<ToolsModule> {
  const path = resolve(io.cwd, file);
  if (!existsSync(path)) throw usageError(`tools module not found: ${file}`);
  if (!statSync(path).isFile()) throw usageError(`tools module is not a file: ${file}`);
  const extension = extname(path);
  if (!TYPESCRIPT.has(extension) && !JAVASCRIPT.has(extension)) {
    const known = [...JAVASCRIPT, ...TYPESCRIPT].join(", ");
    throw usageError(`tools module must be one of ${known}: ${file}`);
  }
  return readExports(await importModule(path, extension, file, io), file);
}
