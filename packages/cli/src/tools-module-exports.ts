import type { ToolDefinition } from "@obelisk/compiler";
import { ObeliskError, thrownMessage } from "@obelisk/core";
import type { LoadedTools, ToolRun, ToolsModule } from "./tools-module.js";
import { usageError } from "./usage-error.js";

/**
 * The module's tools and implementations, read once (the tools array copied): a getter or Proxy trap of
 * its exports that throws while they are read is USAGE naming the module (exit 2, as for any tools module
 * without a valid default export), not an internal error; a refusal of what was read passes on.
 */
export function readExports(module: unknown, file: string): ToolsModule {
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

/** The tools of the module: its default export checked (each item or value a tool), else its named exports that are tools. */
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
