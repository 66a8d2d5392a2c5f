import type { JsonObject } from "@obelisk/core";
import { ObeliskError, readHostValue } from "@obelisk/core";
import type { z } from "zod";
import { checkToolRetry } from "./check-tool-retry.js";
import { isClosedInput } from "./is-closed-input.js";
import { nestedStrippingObjects, strippingOutputObjects } from "./nested-stripping-objects.js";
import type { RegisteredTool } from "./registered-tool.js";
import type { SchemaCompiler } from "./schema-validator.js";
import { fromSpecForm, isSpecToolForm } from "./spec-tool-form.js";
import {
  isPlainObject,
  isZodSchema,
  toClosedJsonSchema,
  toJsonSchema,
  toStoredOutputSchema,
} from "./to-json-schema.js";
import type { ToolContext } from "./tool-definition.js";
import { checkDefinitionKeys, checkLatent } from "./tool-definition-keys.js";
import { checkInputTakesObject, checkParameterNames } from "./tool-input-checks.js";
import {
  checkApprovalParamNames,
  checkOutcomes,
  checkReuseForMs,
  optionalNumber,
} from "./tool-option-checks.js";
import { schemaCheck } from "./tool-schema-check.js";
import { outputCheckOf, runWithZodInput, zodOutputParse } from "./zod-checks.js";

const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

type Run = (args: JsonObject, ctx: ToolContext) => unknown;

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
