import type { Diagnostic } from "@obelisk/core";
import { ObeliskError } from "@obelisk/core";
import { normalizeTool } from "./normalize-tool.js";
import type { RegisteredTool } from "./registered-tool.js";
import { createSchemaCompiler } from "./schema-validator.js";
import { isPlainObject } from "./to-json-schema.js";

/** Options of `createToolRegistry`. */
export interface ToolRegistryOptions {
  /** Implementations by tool name, for tools given in the spec's JSON Schema form (or without `run`). */
  readonly implementations?: Readonly<Record<string, (args: never, ctx: never) => unknown>>;
}

/** The tools a plan is compiled against. */
export interface ToolRegistry {
  /** Tools by name. */
  readonly tools: ReadonlyMap<string, RegisteredTool>;
  /** Tool names, in registration order. */
  readonly names: readonly string[];
  /** Registration warnings (`REGISTRY_DUPLICATE_TOOL`). */
  readonly warnings: readonly Diagnostic[];
  /** The tool of that name, if any. */
  get(name: string): RegisteredTool | undefined;
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

function entriesOf(tools: unknown): [string | undefined, unknown, string][] {
  if (Array.isArray(tools)) return tools.map((tool, index) => [undefined, tool, `/${index}`]);
  if (isPlainObject(tools)) return Object.entries(tools).map(([key, tool]) => [key, tool, `/${key}`]);
  throw new ObeliskError("USAGE", "tools must be an array of tools or an object of tools by name");
}

/**
 * Builds a tool registry from an array or an object-by-name of tools in any accepted form (SPEC §9):
 * `defineTool` results (zod or JSON Schema), plain objects of that shape, or the spec's JSON Schema tool form
 * (implementations in `options.implementations`). Later duplicates win, with a warning.
 * Throws `ObeliskError("USAGE")` for an invalid definition.
 */
export function createToolRegistry(tools: unknown, options: ToolRegistryOptions = {}): ToolRegistry {
  const compiler = createSchemaCompiler();
  const implementations = options.implementations ?? {};
  const byName = new Map<string, RegisteredTool>();
  const warnings: Diagnostic[] = [];
  for (const [key, given, pointer] of entriesOf(tools)) {
    const tool = normalizeTool(given, key, compiler, implementations);
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
  }
  return {
    tools: byName,
    names: [...byName.keys()],
    warnings,
    get: (name) => byName.get(name),
  };
}
