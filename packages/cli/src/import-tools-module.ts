import { existsSync } from "node:fs";
import { createRequire, register as registerHooks } from "node:module";
import { dirname, isAbsolute } from "node:path";
import { pathToFileURL } from "node:url";
import type { CliIo } from "./cli-io.js";
import { hasEscaped } from "./command-stop.js";
import { EXIT } from "./exit-codes.js";
import { onProcessExit } from "./on-process-exit.js";
import { unlessStalled } from "./on-stall.js";
import { reportError, sniffFormat } from "./output.js";
import { syntaxErrorLocation } from "./syntax-error-location.js";
import { TYPESCRIPT_MODULE_HOOKS } from "./typescript-module-hooks.js";
import { errorMessage, usageError } from "./usage-error.js";

/** The extensions of a TypeScript tools module (loaded through tsx). */
export const TYPESCRIPT = new Set([".ts", ".mts", ".cts", ".tsx"]);
/** The extensions of a JavaScript tools module. */
export const JAVASCRIPT = new Set([".js", ".mjs", ".cjs"]);

let typeScriptLoader: Promise<void> | undefined;

/**
 * Registers tsx's ES module loader once per process, globally (it also serves the `require` calls of the
 * TypeScript modules a `.ts` or `.mts` module loads). A TypeScript tools module then imports the very
 * instances of `obelisk`, zod and the rest that the CLI already loaded. (`tsImport` loads each module in a namespace of its own: a second copy of every
 * package it imports, which cost ~0.6 s per tools module and split module state between two copies.)
 * Then the hooks that make a `.ts` or `.tsx` file an ES module whatever its package.json says (SPEC §10:
 * the tools module is an ES module; tsx alone follows the package's `"type"`).
 */
function registerTypeScript(): Promise<void> {
  typeScriptLoader ??= import("tsx/esm/api").then(({ register }) => {
    register();
    registerHooks(TYPESCRIPT_MODULE_HOOKS);
  });
  return typeScriptLoader;
}

let commonJsTypeScriptLoader: Promise<void> | undefined;

/**
 * A `.cts` module, required through tsx's CommonJS loader (registered once), as `import()` would give it:
 * its `module.exports` as the default, and its own keys as named exports. Not through `import()` with
 * tsx's ES module loader: on Node 20, a CommonJS module loaded there cannot `require` an ES module package
 * (`obelisk`: "request for '@obelisk/compiler' is not in cache"), which Node's own `require` can.
 */
async function requireCommonJsTypeScript(path: string): Promise<unknown> {
  commonJsTypeScriptLoader ??= import("tsx/cjs/api").then(({ register }) => {
    register();
  });
  await commonJsTypeScriptLoader;
  const exports: unknown = createRequire(path)(path);
  return typeof exports === "object" && exports !== null
    ? { ...exports, default: exports }
    : { default: exports };
}

/**
 * Reports a `process.exit` the tools module called while it loaded, as a tools module that does not load is
 * reported (USAGE, exit 2; one JSON document with `--format json`): the process ends there, and its exit
 * code (0 for `process.exit()`) would tell a script the command succeeded.
 */
function exitedWhileLoading(file: string, io: CliIo): (code: number) => void {
  return (code) => {
    // the bin's own exit after it reported an exception the module's timer threw while loading
    if (hasEscaped()) return;
    process.exitCode = EXIT.usage;
    const error = usageError(
      `tools module ${file} failed to load: it called process.exit(${code}) while loading, so the command did not run`,
      undefined,
      "a tools module exports its tools; it must not end the process",
    );
    reportError(io, sniffFormat(process.argv.slice(2)), error);
  };
}

let imported: string | undefined;

/**
 * The tools module this process imported (as `--tools` named it), from the moment its import began: its
 * code may run from then on, also once it has loaded (a timer it left running). Undefined before.
 */
export function importedToolsModule(): string | undefined {
  return imported;
}

/**
 * Imports the tools module at `path` (`file` as `--tools` named it): USAGE when it fails to load (the message
 * naming the real file, a hint for a package Node did not find), or when it calls `process.exit` while it loads.
 */
export async function importModule(
  path: string,
  extension: string,
  file: string,
  io: CliIo,
): Promise<unknown> {
  const url = pathToFileURL(path).href;
  const removeExitHandler = onProcessExit(exitedWhileLoading(file, io));
  imported = file;
  try {
    if (extension === ".cts") return await requireCommonJsTypeScript(path);
    if (TYPESCRIPT.has(extension)) await registerTypeScript();
    return await unlessStalled(
      import(url),
      () =>
        new Error(
          "its top-level await (or that of a module it imports) can never settle: no timer, I/O or other work is left that could settle it",
        ),
    );
  } catch (error) {
    const message = errorMessage(error);
    const named =
      (error as { name?: unknown } | null)?.name === "TransformError"
        ? realFileNames(message)
        : (syntaxErrorLocation(error, path) ?? message);
    throw usageError(
      `tools module ${file} failed to load: ${named}`,
      error,
      missingPackageHint(message, path),
    );
  } finally {
    removeExitHandler();
  }
}

/** A bare package Node did not find for a module (`Cannot find package 'obelisk' imported from …`). */
const MISSING_PACKAGE = /Cannot find (?:package|module) '((?:@[^/'\s]+\/)?[^./'\s][^/'\s]*)/;

/**
 * The hint for a tools module that imports a package Node cannot find from its folder: a module outside a
 * project that has `obelisk` (the CLI's own copy is not seen from there) failed with Node's bare message.
 */
function missingPackageHint(message: string, path: string): string | undefined {
  const name = MISSING_PACKAGE.exec(message)?.[1];
  if (name === undefined) return undefined;
  return `Node looks for ${name} in node_modules next to the module and in the folders above it, not where the CLI is installed: install it next to the module, npm install ${name} in ${dirname(path)} or its project`;
}

/** The extensions tsx gives esbuild in place of a module's own (`x.mts` is transformed as `x.ts`). */
const TRANSFORMED_AS: Readonly<Record<string, readonly string[]>> = {
  ts: [".mts", ".cts"],
  js: [".mjs"],
};

/**
 * A syntax error tsx reports (`Transform failed with 1 error: /dir/x.ts:1:67: ERROR: …`) names a `.mts` or
 * `.cts` module as `.ts` (and `.mjs` as `.js`): tsx hands esbuild that name and maps it back only in the
 * source map. Each `<path>.ts:<line>` whose file does not exist, where exactly one file of that path with
 * an extension tsx renames does, names that file; a `.ts` file that exists (one the module imports) is
 * left as it is, and so is a name that fits two files (`x.mts` and `x.cts`).
 */
function realFileNames(message: string): string {
  return message.replace(/((?:[A-Za-z]:)?[^\s:]+)\.(ts|js):(?=\d)/g, (whole, stem: string, ext: string) => {
    if (!isAbsolute(stem) || existsSync(`${stem}.${ext}`)) return whole;
    const real = (TRANSFORMED_AS[ext] ?? []).filter((extension) => existsSync(`${stem}${extension}`));
    return real.length === 1 ? `${stem}${real[0]}:` : whole;
  });
}
