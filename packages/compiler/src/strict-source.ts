import type { JsonValue } from "@obelisk/core";
import { appendPointer, resolvePointer } from "@obelisk/core";
import type { StrictBuild } from "./strict-build.js";
import type { StrictSchemaDeviation } from "./strict-deviation.js";
import { isPlainObject } from "./to-json-schema.js";

/** Which schema of a tool is converted; `meta` for Obelisk's own meta-property schemas (never reported). */
export type StrictSourceKind = "input" | "output" | "outputPath" | "meta";

/** One schema being converted into the strict plan schema. */
export interface StrictSource {
  readonly tool: string;
  readonly kind: StrictSourceKind;
  /** The schema's root, which its local `$ref`s resolve against. */
  readonly root: JsonValue;
  /** Whether each place that takes a value also takes a reference string (parameters; not `_output`). */
  readonly references: boolean;
  /** `$anchor` / `$dynamicAnchor` name → the pointer of the schema carrying it. */
  readonly anchors: ReadonlyMap<string, string>;
}

/** What converting one schema needs: the build it goes into, and the schema. */
export interface StrictContext {
  readonly build: StrictBuild;
  readonly source: StrictSource;
  /** How many conversions are open (a `$ref` merged into its own target would never end). */
  depth: number;
}

/** Keywords whose values are data, not schemas. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples", "example"]);

function collectAnchors(schema: JsonValue, pointer: string, out: Map<string, string>, depth: number): void {
  if (depth > 200 || typeof schema !== "object" || schema === null) return;
  if (Array.isArray(schema)) {
    for (const [i, item] of schema.entries()) collectAnchors(item, appendPointer(pointer, i), out, depth + 1);
    return;
  }
  for (const [key, value] of Object.entries(schema)) {
    if ((key === "$anchor" || key === "$dynamicAnchor") && typeof value === "string" && !out.has(value))
      out.set(value, pointer);
    else if (!DATA_KEYWORDS.has(key)) collectAnchors(value, appendPointer(pointer, key), out, depth + 1);
  }
}

/** A source for `root`, its anchors indexed. */
export function strictSource(
  tool: string,
  kind: StrictSourceKind,
  root: JsonValue,
  references: boolean,
): StrictSource {
  const anchors = new Map<string, string>();
  collectAnchors(root, "", anchors, 0);
  return { tool, kind, root, references, anchors };
}

/** The schema a local `$ref` (`#`, `#/a/b`, `#anchor`) names in the source, with its pointer; else undefined. */
export function refTarget(
  source: StrictSource,
  ref: string,
): { readonly pointer: string; readonly node: JsonValue } | undefined {
  if (!ref.startsWith("#")) return undefined;
  const fragment = ref.slice(1);
  let pointer: string | undefined;
  if (fragment === "" || fragment.startsWith("/")) {
    try {
      pointer = decodeURIComponent(fragment);
    } catch {
      return undefined;
    }
  } else pointer = source.anchors.get(fragment);
  if (pointer === undefined) return undefined;
  const found = resolvePointer(source.root, pointer);
  return found.found && (typeof found.value === "boolean" || isPlainObject(found.value))
    ? { pointer, node: found.value as JsonValue }
    : undefined;
}

/** Notes a deviation of the source's tool (not of Obelisk's meta-properties, whose are fixed: decision 0028). */
export function noteDeviation(
  context: StrictContext,
  deviation: Omit<StrictSchemaDeviation, "tool" | "schema">,
): void {
  const { kind, tool } = context.source;
  if (kind === "meta") return;
  context.build.deviations.push({ tool, schema: kind, ...deviation });
}

/**
 * Notes that `schema` and the schemas in it (through `anyOf`, `items` and `properties`, not `$ref`s) come
 * from the source at `pointer`, where no place is noted yet (a part converted on its own knows its own).
 */
export function noteOrigin(context: StrictContext, schema: JsonValue, pointer: string): void {
  const { kind, tool } = context.source;
  if (kind === "meta" || !isPlainObject(schema) || context.build.origins.has(schema)) return;
  context.build.origins.set(schema, { tool, schema: kind, pointer });
  const children = [
    ...(Array.isArray(schema.anyOf) ? schema.anyOf : []),
    ...(isPlainObject(schema.properties) ? Object.values(schema.properties) : []),
    ...(schema.items === undefined ? [] : [schema.items]),
  ];
  for (const child of children) noteOrigin(context, child as JsonValue, pointer);
}
