import type { JsonObject, JsonValue } from "@obelisk/core";
import { appendPointer } from "@obelisk/core";
import { buildPlanJsonSchema, type PlanJsonSchemaOptions } from "./plan-json-schema.js";
import type { RegisteredTool } from "./registered-tool.js";
import { approvalSchemas, approvalsAsStrings } from "./strict-approval-params.js";
import {
  allocateDefKey,
  createStrictBuild,
  defRef,
  getOwn,
  type Mutable,
  type PendingPlace,
  type StrictBuild,
  setOwn,
} from "./strict-build.js";
import { strictCallRoot } from "./strict-call-root.js";
import { type StrictSchemaDeviation, uniqueDeviations } from "./strict-deviation.js";
import { finishOptionals } from "./strict-optionals.js";
import { DEFAULT_STRICT_SCHEMA_LIMITS, type StrictSchemaLimits } from "./strict-schema-rules.js";
import { sizeLimitDeviations } from "./strict-size-limits.js";
import { type StrictContext, type StrictSourceKind, strictSource } from "./strict-source.js";
import { strictValueSchema } from "./strict-value-schema.js";
import { isPlainObject } from "./to-json-schema.js";
import type { ToolRegistry } from "./tool-registry.js";

/** Options of `strictPlanJsonSchema`. */
export interface StrictPlanJsonSchemaOptions extends PlanJsonSchemaOptions {
  /** The size limits to report against (default `DEFAULT_STRICT_SCHEMA_LIMITS`, OpenAI's documented ones). */
  readonly sizeLimits?:
    | { readonly [Name in keyof StrictSchemaLimits]?: StrictSchemaLimits[Name] | undefined }
    | undefined;
}

/** The plan JSON Schema within strict mode's subset, and where it says less or more than the full one. */
export interface StrictPlanJsonSchema {
  readonly schema: JsonObject;
  readonly deviations: readonly StrictSchemaDeviation[];
}

/** A strict plan schema with what `fromStrictPlan` reads beside it: each object schema's "null means absent" keys. */
export interface StrictPlanBuild extends StrictPlanJsonSchema {
  readonly absent: WeakMap<object, ReadonlySet<string>>;
}

/** Obelisk's optional meta-properties: one definition each, shared by every call. */
const META_KEYS = ["_id", "_outputMethod", "_description", "_rerun", "_timeoutMs", "_retry"] as const;

/** The full plan schema's call schemas by tool name (their descriptions and meta-properties are reused). */
function fullCalls(full: JsonObject): Map<string, JsonObject> {
  const plan = isPlainObject(full.properties) ? (full.properties as JsonObject).plan : undefined;
  const items = isPlainObject(plan) ? plan.items : undefined;
  const calls = isPlainObject(items) && Array.isArray(items.anyOf) ? items.anyOf : [];
  const byTool = new Map<string, JsonObject>();
  for (const call of calls) {
    const tool = isPlainObject(call) && isPlainObject(call.properties) ? call.properties._tool : undefined;
    if (isPlainObject(tool) && typeof tool.const === "string") byTool.set(tool.const, call as JsonObject);
  }
  return byTool;
}

/** A context converting `root`, one of `tool`'s schemas (`refs`: its values also take reference strings). */
function makeContext(
  build: StrictBuild,
  tool: string,
  kind: StrictSourceKind,
  root: JsonValue,
  refs: boolean,
): StrictContext {
  return { build, source: strictSource(tool, kind, root, refs), depth: 0 };
}

/**
 * A call's meta-properties' strict schemas, converted from its full plan schema's into `$defs` shared by
 * every call whose full schema has the same (`known`: full schema text → `$defs` key). They differ by tool
 * where the tool restricts them: a tool that is not idempotent takes no `_rerun` and fewer `_retry.attempts`.
 */
function metaDefs(build: StrictBuild, call: JsonObject, known: Map<string, string>): Map<string, string> {
  const properties = isPlainObject(call.properties) ? (call.properties as JsonObject) : {};
  const meta = makeContext(build, "", "meta", call, false);
  const keys = new Map<string, string>();
  for (const name of META_KEYS) {
    const schema = getOwn(properties, name) ?? true;
    const id = JSON.stringify([name, schema]);
    let key = known.get(id);
    if (key === undefined) {
      key = allocateDefKey(build, `meta${name}`);
      build.defs[key] = strictValueSchema(meta, schema, `/properties/${name}`) ?? null;
      known.set(id, key);
    }
    keys.set(name, key);
  }
  return keys;
}

/** `_outputPath` of a tool without a rule: a string starting with a dagger. */
const ANY_OUTPUT_PATH: JsonObject = { type: "string", pattern: "^†" };

/** `_outputPath`: the tool's rule as a string schema (what strict mode lacks of it noted), or `ANY_OUTPUT_PATH`. */
function outputPathSchema(build: StrictBuild, tool: RegisteredTool, full: JsonObject): Mutable {
  const rule = tool.outputPathSchema;
  const node: JsonObject = rule === undefined ? ANY_OUTPUT_PATH : { ...rule, type: "string" };
  const converted = strictValueSchema(makeContext(build, tool.name, "outputPath", node, false), node, "");
  const schema = converted ?? { ...ANY_OUTPUT_PATH };
  const properties = isPlainObject(full.properties) ? (full.properties as JsonObject) : {};
  const fullSchema = getOwn(properties, "_outputPath");
  const description = isPlainObject(fullSchema) ? fullSchema.description : undefined;
  if (typeof description === "string" && schema.$ref === undefined) schema.description = description;
  return schema;
}

/**
 * One call of `tool`: `_tool` first (strict mode writes keys in order), `_id`, parameters, meta-properties.
 * `full`: its call schema in the full plan schema, whose meta-properties and approval parameters it follows.
 */
function callSchema(build: StrictBuild, tool: RegisteredTool, full: JsonObject, known: Map<string, string>) {
  const meta = metaDefs(build, full, known);
  const input = makeContext(build, tool.name, "input", tool.inputSchema, true);
  const call = strictCallRoot(input, approvalsAsStrings(tool.inputSchema, tool.approvalParams));
  const approvals = approvalSchemas(full, tool.approvalParams);
  const asMeta = makeContext(build, tool.name, "meta", full, false);
  for (const [name, schema] of approvals) {
    const converted = strictValueSchema(asMeta, schema, appendPointer("/properties", name));
    if (converted !== undefined) setOwn(call.properties as Mutable, name, converted);
  }
  const properties: Mutable = { _tool: { type: "string", enum: [tool.name] } };
  const optional = (key: string, schema: JsonValue, place?: PendingPlace) => {
    setOwn(properties, key, schema);
    build.pending.push({ object: call, key, ...(place === undefined ? {} : { place }) });
  };
  optional("_id", defRef(meta.get("_id") ?? ""));
  for (const [key, schema] of Object.entries(call.properties as JsonObject)) setOwn(properties, key, schema);
  const outputPath = outputPathSchema(build, tool, full);
  if (tool.outputPathSchema === undefined) optional("_outputPath", outputPath);
  else properties._outputPath = outputPath;
  for (const name of META_KEYS) if (name !== "_id") optional(name, defRef(meta.get(name) ?? ""));
  if (tool.latent) {
    const output = strictValueSchema(
      makeContext(build, tool.name, "output", tool.outputSchema ?? true, false),
      tool.outputSchema ?? true,
      "",
    );
    const place = { tool: tool.name, schema: "output", pointer: "", references: false } as const;
    if (output !== undefined) optional("_output", output, place);
  }
  call.properties = properties;
  call.required = Object.keys(properties);
  if (typeof full.description === "string" && full.description !== "") call.description = full.description;
  return call;
}

function planRoot(build: StrictBuild, calls: Mutable[]): Mutable {
  const empty = { type: "object", properties: {}, required: [], additionalProperties: false };
  const items = calls.length === 0 ? empty : calls.length === 1 ? (calls[0] as Mutable) : { anyOf: calls };
  const root: Mutable = {
    title: "Obelisk plan",
    type: "object",
    properties: {
      type: { type: "string", enum: ["plan"] },
      id: { type: "string" },
      description: { type: "string" },
      plan: { type: "array", items, ...(calls.length === 0 ? { maxItems: 0 } : {}) },
    },
    required: ["type", "id", "description", "plan"],
    additionalProperties: false,
  };
  build.pending.push({ object: root, key: "id" }, { object: root, key: "description" });
  return root;
}

/**
 * `strictPlanJsonSchema`, with the `absent` keys `fromStrictPlan` needs (not part of the public result: a host
 * could change the schema it is given, and these are known by the identity of its objects).
 */
export function buildStrictPlan(
  registry: ToolRegistry,
  options: StrictPlanJsonSchemaOptions = {},
): StrictPlanBuild {
  // the meta-properties written in each call, where this converts them (planJsonSchema shares them)
  const full = buildPlanJsonSchema(registry, options, true);
  const byTool = fullCalls(full);
  const build = createStrictBuild();
  const known = new Map<string, string>();
  const calls = registry.names.flatMap((name) => {
    const tool = registry.get(name);
    const call = byTool.get(name);
    return tool === undefined || call === undefined ? [] : [callSchema(build, tool, call, known)];
  });
  const root = planRoot(build, calls);
  finishOptionals(build);
  if (Object.keys(build.defs).length > 0) root.$defs = build.defs;
  // a size limit given as undefined keeps its default, as one left out does
  const limits = { ...DEFAULT_STRICT_SCHEMA_LIMITS };
  for (const [name, value] of Object.entries(options.sizeLimits ?? {}))
    if (value !== undefined) Object.assign(limits, { [name]: value });
  const deviations = [
    ...uniqueDeviations(build.deviations),
    ...sizeLimitDeviations(root, limits, build.origins),
  ];
  return { schema: root, deviations, absent: build.absent };
}

/**
 * The plan JSON Schema of a registry within the subset OpenAI's strict structured outputs take (decision
 * 0028): every object lists all its properties in `required` with `additionalProperties: false`, an optional
 * parameter or meta-property is nullable instead (`null` meaning absent: `fromStrictPlan` removes it), each
 * parameter still takes its own schema or a reference string, and no keyword or regular expression strict
 * mode refuses is left. Where it cannot say what the full schema (`planJsonSchema`) says, `deviations` tells
 * where and how; a schema over strict mode's documented size limits is reported there too.
 */
export function strictPlanJsonSchema(
  registry: ToolRegistry,
  options: StrictPlanJsonSchemaOptions = {},
): StrictPlanJsonSchema {
  const { schema, deviations } = buildStrictPlan(registry, options);
  return { schema, deviations };
}
