import type { JsonObject } from "@obelisk/core";
import { didYouMean, ObeliskError, readHostValue, thrownMessage } from "@obelisk/core";
import type { z } from "zod";
import { checkToolRetry } from "./check-tool-retry.js";
import { isClosedInput } from "./is-closed-input.js";
import { nestedStrippingObjects, strippingOutputObjects } from "./nested-stripping-objects.js";
import type { RegisteredTool } from "./registered-tool.js";
import { type RefLoop, schemaRefs } from "./schema-ref-loops.js";
import { schemaTypes } from "./schema-types.js";
import type { SchemaCheck, SchemaCompiler } from "./schema-validator.js";
import {
  isPlainObject,
  isZodSchema,
  toClosedJsonSchema,
  toJsonSchema,
  toStoredOutputSchema,
} from "./to-json-schema.js";
import type { ToolContext } from "./tool-definition.js";
import { outputCheckOf, runWithZodInput, zodOutputParse } from "./zod-checks.js";

const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const VALID: SchemaCheck = () => [];

type Run = (args: JsonObject, ctx: ToolContext) => unknown;

/** True for the spec's tool form: a JSON Schema object whose `properties._tool.const` names the tool. */
export function isSpecToolForm(value: Record<string, unknown>): boolean {
  const properties = value.properties;
  return (
    typeof value.name !== "string" &&
    isPlainObject(properties) &&
    isPlainObject(properties._tool) &&
    typeof properties._tool.const === "string"
  );
}

/** Converts the spec's tool form into the `defineTool` shape (meta-properties moved out of the input schema). */
function fromSpecForm(value: Record<string, unknown>, run: unknown): Record<string, unknown> {
  const properties = value.properties as Record<string, unknown>;
  const params: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(properties)) if (!key.startsWith("_")) params[key] = schema;
  const required = Array.isArray(value.required)
    ? value.required.filter((k) => typeof k === "string" && !k.startsWith("_"))
    : [];
  const input: Record<string, unknown> = { ...value, properties: params };
  delete input.description;
  delete input.title;
  if (required.length > 0) input.required = required;
  else delete input.required;
  const description = typeof value.description === "string" ? value.description : value.title;
  return {
    name: (properties._tool as Record<string, unknown>).const,
    description,
    input,
    output: properties._output,
    outputPath: properties._outputPath,
    outcomes: value.outcomes ?? value["x-outcomes"],
    run,
  };
}

/** The keys of a tool definition (`ToolDefinition`). */
const DEFINITION_KEYS = [
  "name",
  "description",
  "input",
  "output",
  "outputPath",
  "outcomes",
  "concurrency",
  "timeoutMs",
  "retry",
  "fresh",
  "reuseForMs",
  "cost",
  "latent",
  "approvalParams",
  "idempotent",
  "run",
];

/** What other frameworks call a tool's implementation. */
const RUN_SYNONYMS = ["execute", "handler", "fn", "func", "invoke", "call", "impl"];

/**
 * Refuses a key a tool definition does not have: a tool without `run` is latent (its value comes from the
 * plan's `_output`), so an `execute` (other frameworks' name) or a misspelt `run` would make every call
 * `deferred` and the run `succeeded` without the tool ever running.
 */
function checkDefinitionKeys(source: Record<string, unknown>, what: string): void {
  for (const key of Object.keys(source)) {
    if (DEFINITION_KEYS.includes(key)) continue;
    const hint =
      (RUN_SYNONYMS.includes(key) ? 'did you mean "run"?' : didYouMean(key, DEFINITION_KEYS)) ??
      `a tool definition has ${DEFINITION_KEYS.join(", ")}`;
    throw new ObeliskError("USAGE", `${what}: unknown key "${key}"`, { hint });
  }
}

/** `latent`, when given, must agree with the definition: `true` without `run`, `false` with one. */
function checkLatent(latent: unknown, hasRun: boolean, what: string): void {
  if (latent === undefined) return;
  if (typeof latent !== "boolean")
    throw new ObeliskError("USAGE", `${what}: latent must be true or false`, {
      hint: "leave it out: a tool without run is latent",
    });
  if (latent && hasRun)
    throw new ObeliskError("USAGE", `${what}: latent: true, but it has a run function`, {
      hint: "a latent tool's value comes from the plan's _output: remove run, or latent",
    });
  if (!latent && !hasRun)
    throw new ObeliskError("USAGE", `${what}: latent: false, but it has no run function`, {
      hint: "give the tool a run(args, ctx) function",
    });
}

/**
 * `approvalParams`: distinct parameter names (not meta-properties) the input schema declares when it
 * declares any (a name it does not have could never be given).
 */
function checkApprovalParamNames(value: unknown, inputSchema: JsonObject, what: string): readonly string[] {
  if (value === undefined) return NO_NAMES;
  if (
    !Array.isArray(value) ||
    !value.every((name) => typeof name === "string" && name !== "" && !name.startsWith("_"))
  )
    throw new ObeliskError(
      "USAGE",
      `${what}: approvalParams must be an array of parameter names (not starting with _)`,
      { hint: 'e.g. approvalParams: ["amount"] for an input with an "amount" parameter' },
    );
  const names = value as string[];
  if (new Set(names).size !== names.length)
    throw new ObeliskError("USAGE", `${what}: approvalParams names a parameter twice`, {
      hint: "name each parameter once",
    });
  const declared = isPlainObject(inputSchema.properties) ? Object.keys(inputSchema.properties) : undefined;
  const undeclared = declared === undefined ? undefined : names.find((name) => !declared.includes(name));
  if (undeclared !== undefined)
    throw new ObeliskError(
      "USAGE",
      `${what}: approvalParams names "${undeclared}", which its input schema does not declare`,
      {
        hint: didYouMean(undeclared, declared ?? []) ?? "declare the parameter in the input schema",
      },
    );
  return Object.freeze([...names]);
}

const NO_NAMES: readonly string[] = Object.freeze([]);

/**
 * Refuses an input schema that admits no object: a call's parameters are an object of named values (SPEC
 * §4), so every call of such a tool failed PARAM_INVALID and the plan JSON Schema could not be satisfied.
 */
function checkInputTakesObject(inputSchema: JsonObject, what: string): void {
  const types = schemaTypes(inputSchema, inputSchema);
  if (types === undefined || types.has("object")) return;
  throw new ObeliskError(
    "USAGE",
    `${what}: its input takes ${[...types].join(" or ")}, but a call's parameters are an object of named values`,
    { hint: 'name the value: z.object({ text: z.string() }), or { "type": "object", "properties": { … } }' },
  );
}

/**
 * Refuses an input schema that declares a parameter starting with `_`: a call's `_` keys are its
 * meta-properties (SPEC §4), so a plan could never give it — the call got `META_UNKNOWN` for the key and,
 * when required, `PARAM_MISSING` for it too, and the plan JSON Schema required a key it refuses.
 */
function checkParameterNames(inputSchema: JsonObject, what: string): void {
  const properties = isPlainObject(inputSchema.properties) ? Object.keys(inputSchema.properties) : [];
  const required = Array.isArray(inputSchema.required) ? inputSchema.required : [];
  const name = [...properties, ...required].find(
    (key): key is string => typeof key === "string" && key.startsWith("_"),
  );
  if (name === undefined) return;
  const plain = name.replace(/^_+/, "");
  throw new ObeliskError(
    "USAGE",
    `${what}: its input declares the parameter "${name}", which no plan can give (keys starting with _ are a call's meta-properties)`,
    {
      hint: `rename the parameter${plain === "" || plain === name ? "" : ` (e.g. "${plain}")`}: parameters cannot start with _`,
    },
  );
}

function optionalNumber(value: unknown, what: string, positive = true): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || (positive && value <= 0)) {
    throw new ObeliskError("USAGE", `${what} must be a positive number`, {
      hint: `a finite number above 0, e.g. ${what.slice(what.lastIndexOf(" ") + 1)}: 5000 — or leave it out`,
    });
  }
  return value;
}

/** A tool's `reuseForMs`: ms from 0 (never reused) to Infinity (the default: always). */
function checkReuseForMs(value: unknown, what: string): number {
  if (value === undefined) return Number.POSITIVE_INFINITY;
  if (typeof value !== "number" || Number.isNaN(value) || value < 0)
    throw new ObeliskError("USAGE", `${what}: reuseForMs must be a number of ms from 0 (Infinity: always)`, {
      hint: "how long a completed call of this tool satisfies a later identical call; fresh: true never",
    });
  return value;
}

function checkOutcomes(value: unknown, what: string): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    throw new ObeliskError("USAGE", `${what}: outcomes must be an array of strings`, {
      hint: 'name the alternatives its run may choose with branch(name): e.g. outcomes: ["found", "notFound"]',
    });
  }
  // `branch("a")` and `_outputPath` alternatives are matched by name: a repeated one could never be told apart
  const repeated = value.find((name, at) => value.indexOf(name) !== at);
  if (repeated !== undefined)
    throw new ObeliskError("USAGE", `${what}: outcomes names ${JSON.stringify(repeated)} twice`, {
      hint: "give each alternative its own name",
    });
  return value as string[];
}

function schemaCheck(compiler: SchemaCompiler, schema: JsonObject | undefined, what: string): SchemaCheck {
  if (schema === undefined) return VALID;
  // a getter or Proxy trap in the schema that throws is USAGE naming the schema
  readHostValue(what, () => compiler.assertValid(schema, what));
  const check = compiler.lazyCheck(schema, what);
  const refs = schemaRefs(schema);
  if (refs.loop !== undefined) throw refLoopUsage(refs.loop, what);
  // compiled now, not on the first call: a $ref ajv cannot resolve (another document, a missing
  // definition) is USAGE here (decision 0006), not PARAM_INVALID in every plan that calls the tool
  if (refs.any) compileNow(check, what);
  return check;
}

/** Runs `check` once, so its schema is compiled: USAGE (with a hint) for a `$ref` ajv cannot resolve. */
function compileNow(check: SchemaCheck, what: string): void {
  try {
    check({});
  } catch (error) {
    const hint =
      'a tool\'s schema must hold what it refers to: put it under "$defs" and refer to it as "#/$defs/<name>" (the engine fetches no other document)';
    if (ObeliskError.is(error))
      throw new ObeliskError(error.code, error.message, { hint, cause: error.cause });
    throw new ObeliskError("USAGE", `${what} cannot be used: ${thrownMessage(error)}`, {
      hint,
      cause: error,
    });
  }
}

/** USAGE for a `$ref` that leads back to itself at the same place in the value (`schemaRefs`). */
function refLoopUsage(loop: RefLoop, what: string): ObeliskError {
  const at = loop.pointer === "" ? "at its root" : `at ${loop.pointer}`;
  return new ObeliskError(
    "USAGE",
    `${what}: the $ref ${JSON.stringify(loop.ref)} ${at} leads back to itself without going into the value, so checking any value would never end`,
    {
      hint: 'a schema may refer to itself only below properties, items, …: e.g. { "type": "object", "properties": { "child": { "$ref": "#" } } }',
    },
  );
}

/**
 * The tool's implementation: its own `run`, or the one `implementations` gives by its name. Both is
 * ambiguous (which would run?): USAGE, where the registry once took `run` and ignored the other silently.
 */
function runOf(
  own: unknown,
  implementations: Readonly<Record<string, unknown>>,
  name: string,
  what: string,
): unknown {
  const given = Object.hasOwn(implementations, name) ? implementations[name] : undefined;
  if (own !== undefined && given !== undefined)
    throw new ObeliskError(
      "USAGE",
      `${what} has its own run and an implementation in implementations.${name}: which one runs is ambiguous`,
      { hint: `give one: remove the tool's run, or implementations.${name}` },
    );
  return own ?? given;
}

/** Characters of a refused tool name a message shows. */
const SHOWN_NAME_CHARS = 60;

/** A refused tool name as messages show it: quoted, cut to {@link SHOWN_NAME_CHARS} with its length. */
function shownName(name: string | undefined): string {
  if (name === undefined) return "null";
  return name.length <= SHOWN_NAME_CHARS
    ? JSON.stringify(name)
    : `${JSON.stringify(name.slice(0, SHOWN_NAME_CHARS))}… (${name.length} characters)`;
}

/** What to do about a refused tool name: give one, or the name with its other characters made `_`. */
function toolNameHint(name: string | undefined): string {
  if (name === undefined || name === "") return 'give the tool a name: name: "lookup"';
  const fixed = name.replace(/[^A-Za-z0-9_-]/g, "_").replace(/^(?=[0-9-])/, "_");
  return `a name starts with a letter or _ and holds letters, digits, _ and -: e.g. ${shownName(fixed)}`;
}

/**
 * Normalizes one tool given in any accepted form (SPEC §9). `fallbackName` is the key when tools were
 * given as an object by name. Throws `ObeliskError("USAGE")` for an invalid definition.
 */
export function normalizeTool(
  given: unknown,
  fallbackName: string | undefined,
  compiler: SchemaCompiler,
  implementations: Readonly<Record<string, unknown>>,
): RegisteredTool {
  if (!isPlainObject(given))
    throw new ObeliskError(
      "USAGE",
      `a tool must be an object (got ${given === null ? "null" : typeof given})`,
      {
        hint: 'e.g. defineTool({ name: "lookup", input: z.object({ q: z.string() }), run: async ({ q }) => … })',
      },
    );
  const specForm = isSpecToolForm(given);
  const source = specForm ? fromSpecForm(given, given.run) : given;
  const name = typeof source.name === "string" ? source.name : fallbackName;
  if (name === undefined || !TOOL_NAME.test(name)) {
    throw new ObeliskError(
      "USAGE",
      `invalid tool name ${shownName(name)}: expected [A-Za-z_][A-Za-z0-9_-]*`,
      { hint: toolNameHint(name) },
    );
  }
  const what = `tool "${name}"`;
  if (fallbackName !== undefined && name !== fallbackName)
    throw new ObeliskError(
      "USAGE",
      `tools.${fallbackName} is named "${name}": a plan calls it "_tool": "${name}", not "${fallbackName}"`,
      { hint: `use the key "${name}", or give tools as an array` },
    );
  if (!specForm) checkDefinitionKeys(source, what);
  const run = runOf(source.run, implementations, name, what);
  if (run !== undefined && typeof run !== "function")
    throw new ObeliskError("USAGE", `${what}: run must be a function`, {
      hint: "run: async (args, ctx) => value — or leave it out for a latent tool (its value comes from the plan's _output)",
    });
  checkLatent(source.latent, run !== undefined, what);
  const { inputSchema, paramsSchema } = readHostValue(`${what} input schema`, () =>
    inputSchemas(source.input, what),
  );
  const outputSchema = readHostValue(`${what} output schema`, () =>
    source.output === undefined ? undefined : toJsonSchema(source.output, `${what} output`, "output"),
  );
  const outputPathSchema = readHostValue(`${what} outputPath schema`, () =>
    source.outputPath === undefined ? undefined : toJsonSchema(source.outputPath, `${what} outputPath`),
  );
  const parts = { inputSchema, paramsSchema, outputSchema, outputPathSchema };
  const tool = readHostValue(what, () =>
    buildTool(
      name,
      source,
      { ...parts, run: runWithZodInput(source.input, run as Run | undefined) },
      compiler,
    ),
  );
  return isZodSchema(source.output) ? withZodOutput(tool, source.output, what) : tool;
}

/** A tool's input schema as JSON Schema, and the closed one its calls are checked against (zod: decision 0023). */
function inputSchemas(
  input: unknown,
  what: string,
): { readonly inputSchema: JsonObject; readonly paramsSchema: JsonObject | undefined } {
  const inputSchema = input === undefined ? { type: "object" } : toJsonSchema(input, `${what} input`);
  const nested = nestedStrippingObjects(input);
  const paramsSchema = nested.size === 0 ? undefined : toClosedJsonSchema(input, `${what} input`, nested);
  return { inputSchema, paramsSchema };
}

/**
 * A tool with a zod output (decision 0052): its result is checked by the JSON Schema and zod, and zod's
 * parse of it is what is stored (`parseOutput`), so the compiler reads the stored value's schema
 * (`storedOutputSchema`: stripping objects closed, pipes and transforms anything).
 */
function withZodOutput(tool: RegisteredTool, output: z.ZodType, what: string): RegisteredTool {
  const parseOutput = zodOutputParse(output, tool.validateOutput);
  const storedOutputSchema = toStoredOutputSchema(output, `${what} output`, strippingOutputObjects(output));
  return { ...tool, validateOutput: outputCheckOf(parseOutput), parseOutput, storedOutputSchema };
}

interface Parts {
  readonly inputSchema: JsonObject;
  readonly paramsSchema: JsonObject | undefined;
  readonly outputSchema: JsonObject | undefined;
  readonly outputPathSchema: JsonObject | undefined;
  readonly run: Run | undefined;
}

function buildTool(
  name: string,
  source: Record<string, unknown>,
  parts: Parts,
  compiler: SchemaCompiler,
): RegisteredTool {
  const what = `tool "${name}"`;
  const retry = checkToolRetry(source.retry, what);
  const concurrency = optionalNumber(source.concurrency, `${what}: concurrency`);
  const timeoutMs = optionalNumber(source.timeoutMs, `${what}: timeoutMs`);
  const cost = optionalNumber(source.cost, `${what}: cost`, false) ?? 1;
  const outcomes = checkOutcomes(source.outcomes, what);
  checkInputTakesObject(parts.inputSchema, what);
  checkParameterNames(parts.inputSchema, what);
  const approvalParams = checkApprovalParamNames(source.approvalParams, parts.inputSchema, what);
  if (source.idempotent !== undefined && typeof source.idempotent !== "boolean")
    throw new ObeliskError("USAGE", `${what}: idempotent must be true or false`, {
      hint: "idempotent: false for a tool whose calls must not be repeated (a payment); leave it out otherwise",
    });
  const reuseForMs = checkReuseForMs(source.reuseForMs, what);
  const tool: RegisteredTool = {
    name,
    inputSchema: parts.inputSchema,
    closedInput: isClosedInput(source.input, parts.inputSchema),
    retry,
    fresh: source.fresh === true,
    reuseForMs,
    cost,
    latent: parts.run === undefined,
    approvalParams,
    idempotent: source.idempotent !== false,
    validateInput: schemaCheck(compiler, parts.paramsSchema ?? parts.inputSchema, `${what} input schema`),
    validateOutput: schemaCheck(compiler, parts.outputSchema, `${what} output schema`),
    validateOutputPath: schemaCheck(compiler, parts.outputPathSchema, `${what} outputPath schema`),
    ...(typeof source.description === "string" ? { description: source.description } : {}),
    ...(parts.paramsSchema === undefined ? {} : { paramsSchema: parts.paramsSchema }),
    ...(parts.outputSchema === undefined ? {} : { outputSchema: parts.outputSchema }),
    ...(parts.outputPathSchema === undefined ? {} : { outputPathSchema: parts.outputPathSchema }),
    ...(outcomes === undefined ? {} : { outcomes }),
    ...(concurrency === undefined ? {} : { concurrency }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(parts.run === undefined ? {} : { run: parts.run }),
  };
  return tool;
}
