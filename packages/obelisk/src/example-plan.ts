import { type CompileOptions, compile, type RegisteredTool, type ToolRegistry } from "@obelisk/compiler";
import type { JsonObject, JsonValue } from "@obelisk/core";
import { exampleValue } from "./example-value.js";

/** The longest example plan, in characters of its JSON (a longer candidate is passed over). */
const EXAMPLE_PLAN_CHARS = 1_200;
/** Tools tried as the example's first call (the first ones of the registry that can be). */
const FIRST_TOOLS = 6;
/** Tools tried as the second call of each first one, and ways of reading tried with each. */
const READERS = 4;
const READS = 3;
/** Compiles tried at most: the search stays small whatever the registry holds. */
const MAX_TRIES = 40;

/** A worked example: the plan and one sentence on what it shows. */
interface ExamplePlan {
  readonly plan: { readonly type: "plan"; readonly plan: readonly JsonObject[] };
  readonly explanation: string;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Parameter names that hold a key or an address, not free text: no template is written into them. */
const NAMES_A_KEY =
  /^(?:id|ids|key|url|uri|email|address)$|(?:Id|Ids|Key|Url|Uri|Email|Address)$|_(?:id|ids|key|url|uri|email|address)$/;

/** Where a tool's example call writes: the path the tool prescribes, else `†state.<tool>Result`. */
function targetOf(tool: RegisteredTool, index: number): string {
  const prescribed = tool.outputPathSchema?.const;
  if (typeof prescribed === "string") return prescribed;
  return `†state.${IDENTIFIER.test(tool.name) ? `${tool.name}Result` : `result${index}`}`;
}

/** Where a tool's example call's failure goes: `†state.<tool>Error`. */
const errorTargetOf = (tool: RegisteredTool, index: number): string =>
  `†state.${IDENTIFIER.test(tool.name) ? `${tool.name}Error` : `error${index}`}`;

/** The property names of a tool's object output schema. */
function fieldsOf(tool: RegisteredTool): ReadonlySet<string> {
  const properties = tool.outputSchema?.properties;
  const isObject = typeof properties === "object" && properties !== null && !Array.isArray(properties);
  return new Set(isObject ? Object.keys(properties) : []);
}

/** What a text parameter reads of `target`: a required text field of the writer's output, else all of it. */
function textSourceOf(writer: RegisteredTool, target: string): string {
  const output = writer.outputSchema;
  const properties = output?.properties;
  if (output?.type !== "object" || typeof properties !== "object" || properties === null) return target;
  const required = Array.isArray(output.required) ? output.required : [];
  const field = required.find(
    (name): name is string =>
      typeof name === "string" &&
      IDENTIFIER.test(name) &&
      (properties as Record<string, { type?: unknown }>)[name]?.type === "string",
  );
  return field === undefined ? target : `${target}.${field}`;
}

/** True for a tool an example can call: it runs, and any `_outputPath` rule is a path to copy. */
function usable(tool: RegisteredTool): boolean {
  if (tool.latent || tool.run === undefined) return false;
  const rule = tool.outputPathSchema;
  return rule === undefined || typeof rule.const === "string";
}

/** True for a tool that takes a person's approval (its call waits for it). */
const gated = (tool: RegisteredTool): boolean => tool.approvalParams.length > 0;

/** The tool's parameters filled from its input schema (approval parameters read their approval). */
function parametersOf(tool: RegisteredTool): JsonObject | undefined {
  const schema = tool.paramsSchema ?? tool.inputSchema;
  const value = exampleValue(schema);
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const params: Record<string, JsonValue> = { ...(value as JsonObject) };
  for (const name of tool.approvalParams) params[name] = `†state.approvals.${name}`;
  return params;
}

/** The tool's parameter names, required ones first, with their schemas. */
function parameterSchemas(tool: RegisteredTool): [string, JsonObject][] {
  const schema = tool.paramsSchema ?? tool.inputSchema;
  const properties = schema.properties;
  if (typeof properties !== "object" || properties === null || Array.isArray(properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const entries = Object.entries(properties).filter(
    (entry): entry is [string, JsonObject] =>
      typeof entry[1] === "object" && entry[1] !== null && !Array.isArray(entry[1]),
  );
  return [
    ...entries.filter(([name]) => required.has(name)),
    ...entries.filter(([name]) => !required.has(name)),
  ];
}

/** A call of `tool` with its own keys in the order a person writes them. */
function callOf(tool: RegisteredTool, params: JsonObject, id: string, outputPath: string): JsonObject {
  return { _tool: tool.name, ...params, _id: id, _outputPath: outputPath };
}

/** What the second call reads: the first one's target, a text field of it, and whether its type is known. */
interface Reads {
  readonly source: string;
  readonly text: string;
  readonly typed: boolean;
  /** The names of the writer's output fields (an object output schema's properties). */
  readonly fields: ReadonlySet<string>;
}

/** Reader calls of `reader` that take the writer's value in: a template in a text parameter, or a whole reference. */
function readingCalls(
  reader: RegisteredTool,
  id: string,
  { source, text: textSource, typed, fields }: Reads,
  outputPath: string,
): JsonObject[] {
  const base = parametersOf(reader);
  if (base === undefined) return [];
  const approvals = new Set(reader.approvalParams);
  const calls: JsonObject[] = [];
  const open = parameterSchemas(reader).filter(([name]) => !approvals.has(name));
  // a parameter named as a field of the writer's output reads that field (getWeather's city ← user.city)
  for (const [name] of open)
    if (fields.has(name) && IDENTIFIER.test(name))
      calls.push(callOf(reader, { ...base, [name]: `${source}.${name}` }, id, outputPath));
  for (const [name, schema] of open) {
    const text = schema.type === "string" && schema.enum === undefined && schema.const === undefined;
    // not an id, url or address: a sentence around a value is no user id (review s40 r2 #11)
    if (text && schema.pattern === undefined && schema.format === undefined && !NAMES_A_KEY.test(name))
      calls.push(callOf(reader, { ...base, [name]: `Result: {${textSource}}` }, id, outputPath));
  }
  // a whole value only where its type is known (the writer's output schema): compile checks it then
  if (typed)
    for (const [name] of open) calls.push(callOf(reader, { ...base, [name]: source }, id, outputPath));
  return calls;
}

/**
 * A small plan of the registry's own tools that compiles without a diagnostic: a first call writing to
 * `†state`, and, where one fits, a second reading it (a template in a text parameter, else the whole
 * value), whose `_outputPath` routes a failure with `||` where the tool allows it. Deterministic: tools
 * in registration order, parameter values from their schemas. Undefined when no tool can be called.
 */
export function examplePlan(registry: ToolRegistry, options: CompileOptions = {}): ExamplePlan | undefined {
  const tools = registry.names.map((name) => registry.get(name)).filter((tool) => tool !== undefined);
  // a call that waits for a person's approval makes a poor first example: gated tools come last
  const callable = [
    ...tools.filter((tool) => usable(tool) && !gated(tool)),
    ...tools.filter((tool) => usable(tool) && gated(tool)),
  ];
  let tries = 0;
  const fits = (calls: readonly JsonObject[]): ExamplePlan["plan"] | undefined => {
    const plan = { type: "plan" as const, plan: calls };
    if (tries >= MAX_TRIES || JSON.stringify(plan).length > EXAMPLE_PLAN_CHARS) return undefined;
    tries += 1;
    const compiled = compile(plan, registry, options);
    return compiled.ok && compiled.diagnostics.length === 0 ? plan : undefined;
  };
  for (const [index, writer] of callable.slice(0, FIRST_TOOLS).entries()) {
    const params = parametersOf(writer);
    if (params === undefined) continue;
    const source = targetOf(writer, 1);
    const reads = {
      source,
      text: textSourceOf(writer, source),
      typed: writer.outputSchema !== undefined,
      fields: fieldsOf(writer),
    };
    const first = callOf(writer, params, writer.name, source);
    const alone = fits([first]);
    if (alone === undefined) continue;
    const others = [...callable.slice(index + 1), ...callable.slice(0, index + 1)];
    const readers = [...others.filter((tool) => !gated(tool)), ...others.filter(gated)].slice(0, READERS);
    for (const reader of readers) {
      const id = reader === writer ? `${reader.name}_2` : reader.name;
      const target = reader === writer ? `${source}2` : targetOf(reader, 2);
      const routes = [`${target} || ${errorTargetOf(reader, 2)}`, target];
      for (const outputPath of reader.outputPathSchema === undefined ? routes : [target]) {
        for (const second of readingCalls(reader, id, reads, outputPath).slice(0, READS)) {
          const plan = fits([first, second]);
          if (plan !== undefined) return { plan, explanation: explain(first, second, source) };
        }
      }
    }
    return { plan: alone, explanation: `${writer.name} writes its result to ${source}.` };
  }
  return undefined;
}

/** One sentence on what the two-call example does. */
function explain(first: JsonObject, second: JsonObject, source: string): string {
  const route = String(second._outputPath).split(" || ");
  const failure =
    route.length > 1 ? `; had ${second._tool} failed, its error would be written to ${route[1]}` : "";
  return `${first._id} runs first; ${second._id} waits for ${source}, reads it, and writes to ${route[0]}${failure}.`;
}
