import type { Diagnostic } from "@obelisk/core";
import { didYouMean, ObeliskError, readHostValue } from "@obelisk/core";
import { normalizeTool } from "./normalize-tool.js";
import type { RegisteredTool } from "./registered-tool.js";
import { backtrackingPattern } from "./schema-patterns.js";
import { createSchemaCompiler } from "./schema-validator.js";
import { isPlainObject } from "./to-json-schema.js";

/** Options of `createToolRegistry`. */
export interface ToolRegistryOptions {
  /**
   * Implementations by tool name, for tools given in the spec's JSON Schema form (or without `run`). Each
   * value must be a function, each key must name a tool of the registry, and a tool with its own `run` may
   * not have one here too (USAGE otherwise).
   */
  readonly implementations?: Readonly<Record<string, (args: never, ctx: never) => unknown>> | undefined;
}

/** The tools a plan is compiled against. */
export interface ToolRegistry {
  /** Tools by name. */
  readonly tools: ReadonlyMap<string, RegisteredTool>;
  /** Tool names, in registration order. */
  readonly names: readonly string[];
  /** Registration warnings (`REGISTRY_DUPLICATE_TOOL`, `REGISTRY_BACKTRACKING_PATTERN`). */
  readonly warnings: readonly Diagnostic[];
  /** The tool of that name, if any. */
  get(name: string): RegisteredTool | undefined;
}

/**
 * A warning for a tool whose schema has a pattern the linear-time engine cannot run (backreferences,
 * lookaround): it runs on JavaScript's backtracking engine, against values a plan supplies.
 */
function backtrackingWarning(tool: RegisteredTool, pointer: string): Diagnostic | undefined {
  const pattern = backtrackingPattern(tool.inputSchema) ?? backtrackingPattern(tool.outputSchema ?? {});
  if (pattern === undefined) return undefined;
  return {
    code: "REGISTRY_BACKTRACKING_PATTERN",
    severity: "warning",
    message:
      `tool "${tool.name}": the pattern ${JSON.stringify(pattern)} uses backreferences or lookaround, ` +
      "so it runs on JavaScript's backtracking engine, where a value from a plan can take exponential time",
    pointer,
    hint: "rewrite it without backreferences and lookaround (RE2 syntax): it then runs in linear time",
  };
}

/** True when `value` is already a registry built by `createToolRegistry`. */
export function isToolRegistry(value: unknown): value is ToolRegistry {
  return (
    isPlainObject(value) &&
    value.tools instanceof Map &&
    typeof value.get === "function" &&
    Array.isArray(value.names)
  );
}

/** One tool as given: its key (tools by name), the tool, its pointer, and its place as messages name it. */
type ToolEntry = [key: string | undefined, tool: unknown, pointer: string, place: string];

function entriesOf(tools: unknown): ToolEntry[] {
  if (Array.isArray(tools))
    return tools.map((tool, index) => [undefined, tool, `/${index}`, `tools[${index}]`]);
  if (isPlainObject(tools))
    return Object.entries(tools).map(([key, tool]) => [key, tool, `/${key}`, `tools.${key}`]);
  throw new ObeliskError("USAGE", "tools must be an array of tools or an object of tools by name", {
    hint: "e.g. tools: [greet, lookup] (defineTool results), or tools: { greet, lookup }",
  });
}

/** What a value is, as refusals say it: `null`, `undefined`, `an array`, `an object`, `a string`, … */
function shown(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  if (typeof value !== "object") return `a ${typeof value}`;
  const kind = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor
    ?.name;
  return typeof kind === "string" && kind !== "Object" ? `an instance of ${kind}` : "an object";
}

/**
 * An object literal (or a module namespace, `null` prototype): its own keys are all it holds. A Map or a
 * class instance keeps its entries elsewhere, where the registry would never look (the tools stay latent).
 */
function isObjectLiteral(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** `options.implementations`: undefined, or a plain object of functions. Throws USAGE. */
function checkImplementations(implementations: unknown): Readonly<Record<string, unknown>> {
  if (implementations === undefined) return {};
  if (!isObjectLiteral(implementations))
    throw new ObeliskError(
      "USAGE",
      `implementations must be an object of functions by tool name (got ${shown(implementations)})`,
      { hint: "implementations: { toolName: async (args, ctx) => value }" },
    );
  for (const [key, value] of Object.entries(implementations))
    if (typeof value !== "function")
      throw new ObeliskError(
        "USAGE",
        `implementations.${key} must be a function (args, ctx) => value (got ${shown(value)})`,
      );
  return implementations;
}

/** Every key of `implementations` names a tool of the registry (a misspelt one would leave the tool latent). */
function checkImplementationNames(
  implementations: Readonly<Record<string, unknown>>,
  names: readonly string[],
): void {
  for (const key of Object.keys(implementations)) {
    if (names.includes(key)) continue;
    const known = names.length === 0 ? "there are no tools" : `tools: ${names.join(", ")}`;
    throw new ObeliskError("USAGE", `implementations.${key} names no tool (${known})`, {
      hint: didYouMean(key, names) ?? "implementations are keyed by tool name (the spec form's _tool const)",
    });
  }
}

/**
 * Builds a tool registry from an array or an object-by-name of tools in any accepted form (SPEC §9):
 * `defineTool` results (zod or JSON Schema), plain objects of that shape, or the spec's JSON Schema tool form
 * (implementations in `options.implementations`). Later duplicates win, with a warning.
 * Throws `ObeliskError("USAGE")` for an invalid definition, and for implementations that are not an object
 * of functions, one keyed by a name no tool has, or one for a tool that has its own `run`.
 */
export function createToolRegistry(tools: unknown, options: ToolRegistryOptions = {}): ToolRegistry {
  const compiler = createSchemaCompiler();
  // a getter or Proxy trap of the host's objects that throws is USAGE naming where (never a raw error)
  const implementations = readHostValue("implementations", () =>
    checkImplementations(options.implementations),
  );
  const byName = new Map<string, RegisteredTool>();
  const warnings: Diagnostic[] = [];
  for (const [key, given, pointer, place] of readHostValue("tools", () => entriesOf(tools))) {
    const tool = readHostValue(place, () => normalizeTool(given, key, compiler, implementations));
    if (byName.has(tool.name)) {
      byName.delete(tool.name);
      warnings.push({
        code: "REGISTRY_DUPLICATE_TOOL",
        severity: "warning",
        message: `tool "${tool.name}" is defined more than once; the later definition wins`,
        pointer,
      });
    }
    byName.set(tool.name, tool);
    const slow = backtrackingWarning(tool, pointer);
    if (slow !== undefined) warnings.push(slow);
  }
  checkImplementationNames(implementations, [...byName.keys()]);
  return {
    tools: byName,
    names: [...byName.keys()],
    warnings,
    get: (name) => byName.get(name),
  };
}
