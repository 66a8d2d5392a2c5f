import type { JsonObject, JsonValue, LimitOverrides, Limits } from "@obelisk/core";
import { FORBIDDEN_SEGMENTS, MAX_TIMER_MS, OUTPUT_METHODS, resolveLimits } from "@obelisk/core";
import { RETRY_FIELDS, type RetryLimits } from "./call-meta.js";
import { moveToolSchema } from "./move-tool-schema.js";
import { ANY_OUTPUT_PATH, outputPathRule, outputPathSchema } from "./output-path-schema.js";
import { INLINE_SHARING, orReference, type SchemaSharing, sharedDefs } from "./plan-schema-sharing.js";
import type { RegisteredTool } from "./registered-tool.js";
import { schemaSummary } from "./schema-summary.js";
import { isPlainObject } from "./to-json-schema.js";
import type { ToolRegistry } from "./tool-registry.js";

type Mutable = Record<string, JsonValue>;

/** A pattern property of the tool's root, for parameter keys only (meta keys start with `_`). */
function parameterPattern(pattern: string): string {
  return `^(?=[^_])[\\s\\S]*?(?:${pattern})`;
}

/**
 * Which keys besides the named ones a call takes: the root's pattern properties (each its schema or a
 * reference), and any other key not starting with `_` unless the tool is closed (`closedInput`). With
 * both pattern and additional properties, other keys take anything (the schema cannot say "none of the
 * patterns" simply).
 */
function extraParameters(root: Mutable, closed: boolean): Mutable | undefined {
  const patterns = isPlainObject(root.patternProperties) ? (root.patternProperties as JsonObject) : {};
  const extra: Mutable = {};
  for (const [pattern, schema] of Object.entries(patterns)) extra[parameterPattern(pattern)] = schema;
  const additional = root.additionalProperties;
  // A stripping zod object's JSON Schema is open, but the compiler refuses the keys it would drop.
  if (additional !== false && !closed) {
    const hasPatterns = Object.keys(extra).length > 0;
    extra["^[^_]"] = isPlainObject(additional) && !hasPatterns ? additional : {};
  }
  return Object.keys(extra).length === 0 ? undefined : extra;
}

/**
 * `maximum: limit`, or nothing for a limit of `Infinity` (allowed: no limit). JSON has no Infinity: sent as
 * JSON it became `maximum: null`, which no JSON Schema validator takes.
 */
function atMost(limit: number): JsonObject {
  return Number.isFinite(limit) ? { maximum: limit } : {};
}

/**
 * The schema of a call's `_retry`, as the compiler's call-meta check types it and within the limits a
 * compile applies (`maxRetryAttempts`, `maxRetryDelayMs`: PLAN_LIMIT above them), as `_timeoutMs` states
 * its maximum.
 */
function retrySchema(limits: RetryLimits): JsonObject {
  const kinds: Readonly<Record<(typeof RETRY_FIELDS)[string], JsonObject>> = {
    count: { type: "integer", minimum: 1, ...atMost(limits.maxRetryAttempts) },
    ms: { type: "number", minimum: 0, ...atMost(limits.maxRetryDelayMs) },
    factor: { type: "number", minimum: 1 },
    boolean: { type: "boolean" },
  };
  return {
    type: "object",
    properties: Object.fromEntries(Object.entries(RETRY_FIELDS).map(([field, kind]) => [field, kinds[kind]])),
    additionalProperties: false,
  };
}

/** What each meta-property means, in the words an LLM needs to use it (SPEC §3–4). */
const META_DESCRIPTIONS = {
  _id: "Names the call, so that another call can read its output as †calls.<id> (without it the engine numbers the call anew on every run).",
  _outputPath:
    "Where the result is written, e.g. †state.user. †a || †b: alternative outcomes (the tool picks one, the first by default; with two or more, a thrown error goes to the last). †a && †b: the same value to both. Without it the result is †calls.<id>.",
  _outputMethod:
    "How the value is written at _outputPath: set (default) replaces; merge deep-merges objects; assign merges the top level; push appends one item to a list; concat appends a list's items.",
  _description: "A short note on what the call is for (shown in summaries).",
  _rerun: "Run the call again even if the same call with the same inputs already ran on this thread.",
  _timeoutMs: "Per-attempt timeout in milliseconds.",
  _retry: "Retries when the tool throws: attempts, backoffMs, factor, maxDelayMs, jitter.",
} as const;

/**
 * An approval parameter's schema (`approvalParams`): a reference under `†state.approvals`, nothing else —
 * `†state.approvals.refund`, `†state.approvals["refund o1"]`, `†state["approvals"].refund`, `[0]` (the
 * compiler takes any spelling whose first segment is `approvals`; escapes inside the name are not listed).
 */
const APPROVAL_REFERENCE_SCHEMA: JsonObject = {
  type: "string",
  pattern: '^†state(?:\\.approvals|\\["approvals"\\])[.[]',
  description:
    "A person's approval: a reference such as †state.approvals.refund (the call waits until it is written); never a literal.",
};

/**
 * What every call's schema shares: the limits, the `_retry` schema within them (built once), and how the
 * pieces calls repeat are written (`$defs` entries, or inline).
 */
interface SchemaShared {
  readonly limits: Limits;
  readonly retry: JsonObject;
  readonly sharing: SchemaSharing;
}

/**
 * The `_retry` schema of a tool's calls: the shared one, and for a tool that is not idempotent one within
 * its own attempts too (the compiler's CALL_SHAPE beyond them).
 */
function toolRetrySchema(tool: RegisteredTool, { limits, retry }: SchemaShared): JsonObject {
  if (tool.idempotent) return retry;
  return retrySchema({
    ...limits,
    maxRetryAttempts: Math.min(limits.maxRetryAttempts, tool.retry.attempts ?? 1),
  });
}

/**
 * A call's `_outputPath`: inline, the tool's whole schema for it; shared, the one `_outputPath` entry (any
 * writable target) and, for a tool with an outputPath rule, the rule beside its `$ref` (2020-12 applies
 * both). Not `allOf`: llama.cpp's grammar converter reads an `allOf` as an object's parts, so a string
 * became `{}`; a converter that reads only the `$ref` takes any writable target, the compiler the rule.
 */
function outputPathProperty(tool: RegisteredTool, { sharing }: SchemaShared): JsonObject {
  const description = META_DESCRIPTIONS._outputPath;
  if (sharing.inline) return { ...outputPathSchema(tool), description };
  const any = sharing.share("_outputPath", { ...ANY_OUTPUT_PATH, description });
  const rule = outputPathRule(tool);
  // the type beside the rule too: ajv's strict mode wants one where a pattern is (strictTypes)
  return rule === undefined ? any : { ...any, type: "string", ...rule };
}

function metaProperties(tool: RegisteredTool, defs: Mutable, shared: SchemaShared): Mutable {
  const retry = toolRetrySchema(tool, shared);
  const { share } = shared.sharing;
  const meta: Mutable = {
    _tool: { const: tool.name },
    _id: share("_id", {
      type: "string",
      pattern: "^[A-Za-z_][A-Za-z0-9_-]*$",
      not: { enum: [...FORBIDDEN_SEGMENTS] },
      description: META_DESCRIPTIONS._id,
    }),
    _outputPath: outputPathProperty(tool, shared),
    _outputMethod: share("_outputMethod", {
      enum: Object.keys(OUTPUT_METHODS),
      description: META_DESCRIPTIONS._outputMethod,
    }),
    _description: share("_description", { type: "string", description: META_DESCRIPTIONS._description }),
    _rerun: share(
      "_rerun",
      tool.idempotent
        ? { type: "boolean", description: META_DESCRIPTIONS._rerun }
        : { const: false, description: `${META_DESCRIPTIONS._rerun} Not for this tool (not idempotent).` },
    ),
    _timeoutMs: share("_timeoutMs", {
      type: "number",
      exclusiveMinimum: 0,
      maximum: MAX_TIMER_MS,
      description: META_DESCRIPTIONS._timeoutMs,
    }),
    _retry: share("_retry", { ...retry, description: META_DESCRIPTIONS._retry }),
  };
  if (tool.latent)
    meta._output =
      tool.outputSchema === undefined
        ? {}
        : moveToolSchema(tool.outputSchema, `${tool.name}__output`, defs, { references: undefined });
  return meta;
}

/**
 * The schema of one call of `tool`: `_tool` const, parameters (each its schema or a reference, at any depth),
 * meta-properties (`retry`: the `_retry` schema). The tool's schema and its definitions move into `defs`
 * (see `moveToolSchema`).
 */
function callSchema(tool: RegisteredTool, defs: Mutable, shared: SchemaShared): JsonObject {
  const references = orReference(shared.sharing);
  const root = moveToolSchema(tool.paramsSchema ?? tool.inputSchema, tool.name, defs, { references });
  const input: Mutable = isPlainObject(root) ? (root as Mutable) : {};
  const properties: Mutable = {
    ...(isPlainObject(input.properties) ? (input.properties as JsonObject) : {}),
    ...metaProperties(tool, defs, shared),
  };
  for (const name of tool.approvalParams)
    properties[name] = shared.sharing.share("approval", APPROVAL_REFERENCE_SCHEMA);
  // A tool with an outputPath rule cannot be called without one (the compiler's OUTPUT_PATH_NOT_ALLOWED).
  const ruled = tool.outputPathSchema === undefined ? [] : ["_outputPath"];
  const toolRequired = Array.isArray(input.required) ? input.required : [];
  const approvals = tool.approvalParams.filter((name) => !toolRequired.includes(name));
  const required = ["_tool", ...ruled, ...toolRequired, ...approvals];
  const schema: Mutable = { type: "object", properties, required, additionalProperties: false };
  const extra = extraParameters(input, tool.closedInput);
  if (extra !== undefined) schema.patternProperties = extra;
  schema.description = toolDescription(tool);
  return schema;
}

/**
 * A call's description as the LLM reads it: the tool's own, what its output looks like (so that it can
 * read sub-paths of it), and its outcomes (the `||` alternatives of `_outputPath`, in order).
 */
function toolDescription(tool: RegisteredTool): string {
  const own = tool.description?.trim();
  const parts = own === undefined || own === "" ? [] : [/[.!?]$/.test(own) ? own : `${own}.`];
  if (tool.outputSchema !== undefined) parts.push(`Output: ${schemaSummary(tool.outputSchema)}.`);
  const outcomes = tool.outcomes;
  if (outcomes !== undefined && outcomes.length > 0)
    parts.push(
      `Outcomes, one per _outputPath alternative in order (†a || †b): ${outcomes.join(", ")}; a thrown error is written to the last alternative.`,
    );
  return parts.join(" ");
}

/**
 * The `plan` property's description: the schema gives the canonical document only (decision 0040).
 * Structured-output APIs want an object at the root, and one form is what a model should write; the
 * compiler takes the others (SPEC §5). Not the root's description, which hosts replace with their own
 * (the agent tools' plan parameter).
 */
const CANONICAL_FORM =
  'The calls, in the canonical document { "plan": [ ...calls ] }; each call is { "_tool": name, ...parameters, ...meta-properties }. (The compiler also accepts { "calls": [...] }, a bare array of calls and a single call object; this schema describes only the canonical form.)';

/** Options of `planJsonSchema`. */
export interface PlanJsonSchemaOptions {
  /** The limits the plans will be compiled with (default `DEFAULT_LIMITS`): the `_retry` maxima. */
  readonly limits?: LimitOverrides | undefined;
}

/**
 * The plan JSON Schema with the pieces calls repeat written inline in each call (`inline`), or once in
 * `$defs`. `strictPlanJsonSchema` reads the inline one: it converts each call's meta-properties itself.
 */
export function buildPlanJsonSchema(
  registry: ToolRegistry,
  options: PlanJsonSchemaOptions,
  inline: boolean,
): JsonObject {
  const defs: Mutable = {};
  const limits = resolveLimits(options.limits);
  const sharing = inline ? INLINE_SHARING : sharedDefs(defs);
  const shared: SchemaShared = { limits, retry: retrySchema(limits), sharing };
  const calls = registry.names.flatMap((name) => {
    const tool = registry.get(name);
    return tool === undefined ? [] : [callSchema(tool, defs, shared)];
  });
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "Obelisk plan",
    type: "object",
    properties: {
      // The editor hint a plan file may carry (decision 0001: not part of the hash; the compiler takes a string).
      $schema: { type: "string" },
      type: { const: "plan" },
      id: { type: "string" },
      description: { type: "string" },
      inputSchema: { type: "object" },
      plan: {
        type: "array",
        items: calls.length === 0 ? false : { anyOf: calls },
        description: CANONICAL_FORM,
      },
    },
    required: ["plan"],
    additionalProperties: false,
    ...(Object.keys(defs).length === 0 ? {} : { $defs: defs }),
  };
}

/**
 * The plan JSON Schema (2020-12) for a registry (SPEC §6): an LLM's structured output can be constrained
 * by it. Each call is one of the tools (`_tool` const); each parameter accepts its own schema or a
 * reference string; `_outputPath` follows the tool's rule; `_retry` stays within the limits. What every
 * call or parameter repeats (the reference alternative, the meta-properties and their descriptions) is in
 * `$defs` once, so a call costs about its own parameters (decision 0096).
 */
export function planJsonSchema(registry: ToolRegistry, options: PlanJsonSchemaOptions = {}): JsonObject {
  return buildPlanJsonSchema(registry, options, false);
}
