import { existsSync, statSync } from "node:fs";
import { createRequire, register as registerHooks } from "node:module";
import { dirname, extname, isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { ToolDefinition } from "@obelisk/compiler";
import { ObeliskError, thrownMessage } from "@obelisk/core";
import type { CliIo } from "./cli-io.js";
import { hasEscaped } from "./command-stop.js";
import { EXIT } from "./exit-codes.js";
import { onProcessExit } from "./on-process-exit.js";
import { unlessStalled } from "./on-stall.js";
import { reportError, sniffFormat } from "./output.js";
import { TYPESCRIPT_MODULE_HOOKS } from "./typescript-module-hooks.js";
import { errorMessage, usageError } from "./usage-error.js";

/** Tools as a tools module exports them: an array, or an object by name. */
export type LoadedTools = readonly ToolDefinition[] | Readonly<Record<string, ToolDefinition>>;

/** A tool's implementation, as `createEngine`'s `implementations` takes it. */
type ToolRun = NonNullable<ToolDefinition["run"]>;

/**
 * What a tools module gives: its tools (the default export) and, when it exports `implementations`, the
 * implementations of its tools by name (SPEC §9: for tools in the spec's form, given without `run`).
 */
export interface ToolsModule {
  /** The default export, or (an ES module without one) its named exports that are tools. */
  readonly tools: LoadedTools;
  /** The `implementations` export (checked to be an object; its values and keys are the registry's to check). */
  readonly implementations?: Readonly<Record<string, ToolRun>>;
}

const TYPESCRIPT = new Set([".ts", ".mts", ".cts", ".tsx"]);
const JAVASCRIPT = new Set([".js", ".mjs", ".cjs"]);

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

/**
 * The module's tools and implementations, read once (the tools array copied): a getter or Proxy trap of
 * its exports that throws while they are read is USAGE naming the module (exit 2, as for any tools module
 * without a valid default export), not an internal error; a refusal of what was read passes on.
 */
function readExports(module: unknown, file: string): ToolsModule {
  try {
    const tools = checkDefaultExport(module, file);
    const implementations = implementationsExport(module, file);
    return implementations === undefined ? { tools } : { tools, implementations };
  } catch (error) {
    if (ObeliskError.is(error)) throw error;
    throw usageError(
      `tools module ${file}: reading its exports threw: ${thrownMessage(error)}`,
      error,
      "export plain arrays and objects of tools: a getter or Proxy trap that throws cannot be read",
    );
  }
}

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

async function importModule(path: string, extension: string, file: string, io: CliIo): Promise<unknown> {
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
      (error as { name?: unknown } | null)?.name === "TransformError" ? realFileNames(message) : message;
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

function isToolLike(value: unknown): value is ToolDefinition {
  return (
    typeof value === "object" &&
    value !== null &&
    (typeof (value as { name?: unknown }).name === "string" || isSpecForm(value))
  );
}

/**
 * True for the spec's tool form (SPEC §9): a JSON Schema object whose `properties._tool.const` names the tool
 * (its name is there, so it gets no `name`: the registry would no longer read it as the spec form).
 */
function isSpecForm(value: object): boolean {
  if ((value as { name?: unknown }).name !== undefined) return false;
  const tool = (value as { properties?: { _tool?: unknown } }).properties?._tool;
  return typeof tool === "object" && tool !== null && typeof (tool as { const?: unknown }).const === "string";
}

/** What a value is, as a refusal says it: `null`, `undefined`, `an array`, `a string`, … */
function shown(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return `${type === "object" ? "an" : "a"} ${type}`;
}

/**
 * The module's `implementations` export (a named export beside the default one; in a CommonJS module, also
 * the property of the `exports` object whose `default` holds the tools), or undefined. One that is not an
 * object is USAGE; its keys and values are `createEngine`'s to check (a function each, by a tool's name).
 */
function implementationsExport(module: unknown, file: string): Readonly<Record<string, ToolRun>> | undefined {
  const namespace = module as { implementations?: unknown; default?: unknown } | null;
  let exported = namespace?.implementations;
  const commonJs = commonJsExports(namespace?.default);
  if (exported === undefined && commonJs !== undefined) exported = commonJs.implementations;
  if (exported === undefined) return undefined;
  if (typeof exported !== "object" || exported === null || Array.isArray(exported))
    throw usageError(
      `tools module ${file}: its implementations export must be an object of functions by tool name (got ${shown(exported)})`,
    );
  return exported as Readonly<Record<string, ToolRun>>;
}

/** Why a value cannot be a tool (an array, a primitive, a `run` that is no function), or undefined. */
function notATool(value: unknown): string | undefined {
  if (Array.isArray(value)) return "an array";
  if (typeof value !== "object" || value === null) return shown(value);
  const run = (value as { run?: unknown }).run;
  if (run !== undefined && typeof run !== "function") return "its run is not a function";
  return undefined;
}

/**
 * The module's default export. A CommonJS module (`.cjs`, `.cts`) written with `export default tools` is
 * compiled to `exports.default = tools` (with `__esModule`), and importing it gives `module.exports` as the
 * default: the tools are its `default`, as bundlers and tsx's interop read it. Also `exports.default = tools`
 * written by hand (the only key, or beside `exports.implementations`) — but only when that `default` holds
 * tools (an array, or an object whose values are all objects): `export default { default: { description,
 * input, run } }` is an object of tools whose one tool is named `default`.
 */
function defaultExport(module: unknown): unknown {
  const exported = (module as { default?: unknown } | null)?.default;
  const commonJs = commonJsExports(exported);
  return commonJs === undefined ? exported : commonJs.default;
}

/** The keys a hand-written CommonJS tools module's `exports` may have. */
const COMMONJS_KEYS: ReadonlySet<string> = new Set(["default", "implementations"]);

/** `exported` when it is a CommonJS module's `exports` whose `default` is the tools (see `defaultExport`). */
function commonJsExports(exported: unknown): { default: unknown; implementations?: unknown } | undefined {
  if (typeof exported !== "object" || exported === null || Array.isArray(exported)) return undefined;
  if (!Object.hasOwn(exported, "default")) return undefined;
  const inner = (exported as { default: unknown }).default;
  const esModule = (exported as { __esModule?: unknown }).__esModule === true;
  const byHand = Object.keys(exported).every((key) => COMMONJS_KEYS.has(key)) && holdsTools(inner);
  return esModule || byHand ? (exported as { default: unknown; implementations?: unknown }) : undefined;
}

/** True for an array, or an object of tools by name (every value an object): not a tool itself. */
function holdsTools(value: unknown): boolean {
  if (Array.isArray(value)) return true;
  if (typeof value !== "object" || value === null || isToolLike(value)) return false;
  return Object.values(value).every(
    (item) => typeof item === "object" && item !== null && !Array.isArray(item),
  );
}

/** The shapes of a tools module the CLI takes, as a refusal names them. */
const ACCEPTED_SHAPES =
  'a default export (an array of tools, or an object of tools by name), or named exports that are tools (export const search = defineTool({ name: "search", … }))';

/**
 * The tools of an ES module without a default export: each named export that is a tool (a `defineTool`
 * result or a plain object with a `name`, or a tool in the spec's form), in the module's export order;
 * other exports (helpers, constants, `implementations`) are left alone. A tool-like export whose `run` is
 * not a function is refused; a module without one tool is USAGE naming the shapes taken.
 */
function namedExportTools(module: unknown, file: string): readonly ToolDefinition[] {
  const exports = Object.entries((module ?? {}) as Record<string, unknown>).filter(
    ([key]) => key !== "default" && key !== "implementations",
  );
  const tools: ToolDefinition[] = [];
  for (const [key, value] of exports) {
    if (!isToolLike(value)) continue;
    const why = notATool(value);
    if (why !== undefined) throw usageError(`tools module ${file}: its export ${key} is not a tool: ${why}`);
    tools.push(value);
  }
  if (tools.length > 0) return tools;
  const seen = exports.map(([key, value]) => `${key} (${shown(value)})`).join(", ");
  const has = seen === "" ? "it exports nothing" : `its exports are no tools: ${seen}`;
  throw usageError(`tools module ${file} has no tools (${has}): give ${ACCEPTED_SHAPES}`);
}

function checkDefaultExport(module: unknown, file: string): LoadedTools {
  const exported = defaultExport(module);
  if (exported === undefined) return namedExportTools(module, file);
  const problem = `tools module ${file} must default-export an array of tools or an object of tools by name`;
  if (Array.isArray(exported)) {
    const bad = exported.findIndex((tool) => !isToolLike(tool));
    if (bad >= 0) throw usageError(`${problem} (item ${bad} has no name)`);
    const why = exported.map(notATool).findIndex((reason) => reason !== undefined);
    if (why >= 0) throw usageError(`${problem} (item ${why} is not a tool: ${notATool(exported[why])})`);
    return [...exported] as readonly ToolDefinition[];
  }
  if (typeof exported !== "object" || exported === null) throw usageError(problem);
  const tools: Record<string, ToolDefinition> = {};
  for (const [key, tool] of Object.entries(exported)) {
    const why = notATool(tool);
    if (why !== undefined) throw usageError(`${problem} (${key} is not a tool: ${why})`);
    tools[key] = isToolLike(tool) ? tool : ({ ...(tool as object), name: key } as ToolDefinition);
  }
  return tools;
}
