import { existsSync, statSync } from "node:fs";
import { register as registerHooks } from "node:module";
import { extname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { ToolDefinition } from "@obelisk/compiler";
import { unlessStalled } from "./on-stall.js";
import { TYPESCRIPT_MODULE_HOOKS } from "./typescript-module-hooks.js";
import { errorMessage, usageError } from "./usage-error.js";

/** Tools as a tools module exports them: an array, or an object by name. */
export type LoadedTools = readonly ToolDefinition[] | Readonly<Record<string, ToolDefinition>>;

const TYPESCRIPT = new Set([".ts", ".mts", ".cts", ".tsx"]);
const JAVASCRIPT = new Set([".js", ".mjs", ".cjs"]);

/**
 * Loads a tools module (`.js`, `.mjs`, `.cjs`; TypeScript through tsx: `.ts`, `.tsx` and `.mts` as ES modules,
 * `.cts` as CommonJS) and checks its default export. Throws USAGE.
 */
export async function loadTools(file: string, cwd: string): Promise<LoadedTools> {
  const path = resolve(cwd, file);
  if (!existsSync(path)) throw usageError(`tools module not found: ${file}`);
  if (!statSync(path).isFile()) throw usageError(`tools module is not a file: ${file}`);
  const extension = extname(path);
  if (!TYPESCRIPT.has(extension) && !JAVASCRIPT.has(extension)) {
    const known = [...JAVASCRIPT, ...TYPESCRIPT].join(", ");
    throw usageError(`tools module must be one of ${known}: ${file}`);
  }
  const module = await importModule(path, extension, file);
  return checkDefaultExport(module, file);
}

let typeScriptLoader: Promise<void> | undefined;

/**
 * Registers tsx's loader once per process, globally (it also serves the `require` calls of a `.cts`
 * module). A TypeScript tools module then imports the very instances of `obelisk`, zod and the rest that
 * the CLI already loaded. (`tsImport` loads each module in a namespace of its own: a second copy of every
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

async function importModule(path: string, extension: string, file: string): Promise<unknown> {
  const url = pathToFileURL(path).href;
  try {
    if (TYPESCRIPT.has(extension)) await registerTypeScript();
    return await unlessStalled(
      import(url),
      () =>
        new Error(
          "its top-level await (or that of a module it imports) can never settle: no timer, I/O or other work is left that could settle it",
        ),
    );
  } catch (error) {
    throw usageError(`tools module ${file} failed to load: ${errorMessage(error)}`, error);
  }
}

function isToolLike(value: unknown): value is ToolDefinition {
  return (
    typeof value === "object" && value !== null && typeof (value as { name?: unknown }).name === "string"
  );
}

/** Why a value cannot be a tool (an array, a primitive, a `run` that is no function), or undefined. */
function notATool(value: unknown): string | undefined {
  if (Array.isArray(value)) return "an array";
  if (typeof value !== "object" || value === null) return value === null ? "null" : `a ${typeof value}`;
  const run = (value as { run?: unknown }).run;
  if (run !== undefined && typeof run !== "function") return "its run is not a function";
  return undefined;
}

/**
 * The module's default export. A CommonJS module (`.cjs`, `.cts`) written with `export default tools` is
 * compiled to `exports.default = tools` (with `__esModule`), and importing it gives `module.exports` as the
 * default: the tools are its `default`, as bundlers and tsx's interop read it. Also `exports.default = tools`
 * written by hand (the only key) — but only when that `default` holds tools (an array, or an object whose
 * values are all objects): `export default { default: { description, input, run } }` is an object of
 * tools whose one tool is named `default`.
 */
function defaultExport(module: unknown): unknown {
  const exported = (module as { default?: unknown } | null)?.default;
  if (typeof exported !== "object" || exported === null || Array.isArray(exported)) return exported;
  if (!Object.hasOwn(exported, "default")) return exported;
  const inner = (exported as { default: unknown }).default;
  const esModule = (exported as { __esModule?: unknown }).__esModule === true;
  const onlyDefault = Object.keys(exported).length === 1 && holdsTools(inner);
  return esModule || onlyDefault ? inner : exported;
}

/** True for an array, or an object of tools by name (every value an object): not a tool itself. */
function holdsTools(value: unknown): boolean {
  if (Array.isArray(value)) return true;
  if (typeof value !== "object" || value === null || isToolLike(value)) return false;
  return Object.values(value).every(
    (item) => typeof item === "object" && item !== null && !Array.isArray(item),
  );
}

function checkDefaultExport(module: unknown, file: string): LoadedTools {
  const exported = defaultExport(module);
  const problem = `tools module ${file} must default-export an array of tools or an object of tools by name`;
  if (Array.isArray(exported)) {
    const bad = exported.findIndex((tool) => !isToolLike(tool));
    if (bad >= 0) throw usageError(`${problem} (item ${bad} has no name)`);
    const why = exported.map(notATool).findIndex((reason) => reason !== undefined);
    if (why >= 0) throw usageError(`${problem} (item ${why} is not a tool: ${notATool(exported[why])})`);
    return exported as readonly ToolDefinition[];
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
