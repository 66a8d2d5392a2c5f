import { fromStrictPlan, type StrictSchemaDeviation, strictPlanJsonSchema } from "@obelisk/compiler";
import { type JsonObject, ObeliskError } from "@obelisk/core";
import { DEFAULT_SUMMARY_CHARS, STORED_REFERENCE_SCHEMA } from "@obelisk/state";
import { inputFromJsonText } from "./agent-tools-input-json.js";
import { MAX_LIST_CHARS } from "./agent-tools-parameters.js";
import { shareMetaProperties } from "./agent-tools-strict-sharing.js";
import type { Engine } from "./engine-types.js";

/** Every tool's parameters within OpenAI's strict subset, and where the plan's say less or more (decision 0032). */
export interface OpenAiStrictParameters {
  readonly validate_plan: JsonObject;
  readonly run_plan: JsonObject;
  readonly list_variables: JsonObject;
  readonly get_variable: JsonObject;
  /** `strictPlanJsonSchema`'s deviations for the engine's tools. */
  readonly deviations: readonly StrictSchemaDeviation[];
}

/** How the plan is written under strict mode, for the model. */
const STRICT_PLAN_FORMAT =
  "The plan: { type: 'plan', plan: [calls] }. Every property is written; null where you leave one out.";

/** The run's input as text: strict mode cannot write an open object, but it can write a string. */
const INPUT_JSON: JsonObject = {
  type: "string",
  description:
    'The run\'s input (read as †input...) as the JSON text of an object, e.g. "{\\"userId\\": \\"u1\\"}"; null for none',
};

/** `schema` or `null` (null: absent), as strict mode writes an optional property; `description` on the value. */
const orNull = (schema: JsonObject): JsonObject => ({ anyOf: [schema, { type: "null" }] });

const isDefs = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A closed object whose every property is required, as strict mode wants. */
const closed = (properties: JsonObject, extra: JsonObject = {}): JsonObject => ({
  type: "object",
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
  ...extra,
});

/**
 * The tools' parameters for OpenAI's strict function calling (`strict: true`): every object closed and
 * fully required, an optional argument nullable (`null`: absent), and `plan` the strict plan schema
 * (`strictPlanJsonSchema` with the engine's limits), its `$defs` moved to the root of the parameters where
 * its `#/$defs/…` references point. The run's input is `input_json`, the JSON text of an object or `null`:
 * an open object cannot be written in strict mode, a string can (amended decision 0032).
 */
export function openAiStrictParameters(engine: Engine): OpenAiStrictParameters {
  const { schema, deviations } = strictPlanJsonSchema(engine.registry, { limits: engine.limits });
  const { $defs, title: _title, ...full } = schema;
  // the meta-properties every call writes alike, once in $defs (stop 41: a third of the plan's bytes)
  const { plan, defs } = shareMetaProperties(full, isDefs($defs) ? $defs : {});
  const planArguments = closed(
    { plan: { ...plan, description: STRICT_PLAN_FORMAT }, input_json: orNull(INPUT_JSON) },
    Object.keys(defs).length === 0 ? {} : { $defs: defs },
  );
  const offset = { type: "integer", minimum: 0 };
  return {
    validate_plan: planArguments,
    run_plan: planArguments,
    list_variables: closed({
      lastN: orNull({ type: "integer", minimum: 1, description: "only the n newest; null for all" }),
      budgetChars: orNull({
        type: "integer",
        minimum: 1,
        maximum: MAX_LIST_CHARS,
        description: `characters of the summary; null for ${DEFAULT_SUMMARY_CHARS}`,
      }),
      refs: orNull({ type: "array", items: STORED_REFERENCE_SCHEMA, description: "null for all" }),
    }),
    get_variable: closed({
      reference: STORED_REFERENCE_SCHEMA,
      offset: orNull({ ...offset, description: "first item, key or character (from 0); null for 0" }),
      limit: orNull({ ...offset, description: "how many items, keys or characters; null for a page" }),
    }),
    deviations,
  };
}

/** The arguments each tool takes as optional: strict mode writes `null` for the ones left out. */
const OPTIONAL_ARGUMENTS: Readonly<Record<string, readonly string[]>> = {
  validate_plan: ["input", "input_json"],
  run_plan: ["input", "input_json"],
  list_variables: ["lastN", "budgetChars", "refs"],
  get_variable: ["offset", "limit"],
};

/**
 * The arguments of a strict-mode call as the handlers take them: a `null` optional argument removed, and
 * the plan through `fromStrictPlan` (its nulls that mean absent removed; a null a parameter's own schema
 * takes kept), and `input_json` read into `input` (`inputFromJsonText`: bad text throws, for the tools to
 * answer). Anything else is left as it is, for the handler to check and answer.
 */
export function fromStrictArguments(
  engine: Engine,
  tool: string,
  args: Record<string, unknown>,
): Record<string, unknown> {
  const given: Record<string, unknown> = { ...args };
  for (const key of OPTIONAL_ARGUMENTS[tool] ?? []) if (given[key] === null) delete given[key];
  if (tool !== "validate_plan" && tool !== "run_plan") return given;
  given.plan = fromStrictPlan(given.plan, engine.registry);
  if (given.input_json === undefined) return given;
  // a host calling execute itself may still pass `input`; both at once would leave one unread
  if (given.input !== undefined)
    throw new ObeliskError("USAGE", "give the run's input once: input_json or input, not both", {
      hint: "pass input_json (the JSON text of an object) or input (the object), not both",
    });
  given.input = inputFromJsonText(given.input_json, engine.limits);
  delete given.input_json;
  return given;
}
