import { planJsonSchema } from "@obelisk/compiler";
import type { JsonObject } from "@obelisk/core";
import { STORED_REFERENCE_SCHEMA } from "@obelisk/state";
import type { Engine } from "./engine-types.js";

/**
 * How the tools' `parameters` hold the model's arguments. `strict`: the plan JSON Schema of the engine's
 * tools (`run_plan`'s plan; `validate_plan`'s names the tools only, decision 0096), a pattern on
 * references, bounds on numbers — for constraining a model's structured output (not OpenAI's `strict: true`,
 * whose subset that schema is outside of). `loose`: the types of the arguments only, the plan any object,
 * array or JSON text whose description carries the plan JSON Schema as text (`run_plan`'s) —
 * for frameworks that validate tool input against `parameters` before `execute` and answer the model a bare
 * "did not match expected schema" (LangChain's `DynamicStructuredTool`): the handlers make every check
 * themselves and answer with Obelisk's diagnostics and hints. `openai-strict`: within OpenAI's strict subset (every
 * property required, `null` where one is left out; the plan the strict plan schema; the input `input_json`,
 * JSON text) — for OpenAI's strict function calling; the handlers read the nulls as absent (`fromStrictPlan`
 * for the plan) and parse `input_json`. Decision 0032.
 */
export type AgentToolsParameters = "strict" | "loose" | "openai-strict";

/** The JSON Schema of each tool's arguments, by tool name. */
export interface ToolParameters {
  readonly validate_plan: JsonObject;
  readonly run_plan: JsonObject;
  readonly list_variables: JsonObject;
  readonly get_variable: JsonObject;
}

/** How the plan is written, for the model (both forms). */
const PLAN_FORMAT = "The plan: { type: 'plan', plan: [calls] }";
const INPUT = { type: "object", description: "The run's input (read as †input...)" } as const;

/** The largest `budgetChars` of `list_variables` (its default is the engine's, `DEFAULT_SUMMARY_CHARS`). */
export const MAX_LIST_CHARS = 20_000;
/** Most references `list_variables` takes in `refs` (a summary shows a few dozen entries). */
export const MAX_LIST_REFS = 1_000;

/** The plan JSON Schema of the engine's tools, held to the engine's limits (its `_retry` maxima). */
const enginePlanSchema = (engine: Engine): JsonObject =>
  planJsonSchema(engine.registry, { limits: engine.limits });

/** Where `validate_plan`'s plan finds its JSON Schema: given once, in `run_plan` (decision 0096). */
const SCHEMA_IN_RUN_PLAN =
  "each call as run_plan's plan parameter describes it (its JSON Schema is given there once)";

/**
 * `validate_plan`'s plan in the strict form: the canonical document, each call an object naming one of the
 * engine's tools, its other keys open (said explicitly: llama.cpp's grammars close an object with
 * `properties` that does not say). The whole plan JSON Schema is `run_plan`'s: one copy per request, not two (decision 0096).
 */
function planOutline(engine: Engine): JsonObject {
  const names = engine.registry.names;
  const call = {
    type: "object",
    properties: { _tool: { enum: [...names] } },
    required: ["_tool"],
    additionalProperties: true,
  };
  return {
    type: "object",
    properties: { plan: { type: "array", items: names.length === 0 ? false : call } },
    required: ["plan"],
    additionalProperties: true,
    description: `${PLAN_FORMAT}, ${SCHEMA_IN_RUN_PLAN}`,
  };
}

/**
 * Every tool's parameters, `run_plan`'s plan held to the plan JSON Schema (structured-output constraint),
 * its `$defs` at the root of the parameters where its `#/$defs/…` references point.
 */
function strictParameters(engine: Engine): ToolParameters {
  const { $schema: _dialect, $defs, ...schema } = enginePlanSchema(engine);
  const plan = { ...schema, description: PLAN_FORMAT };
  const offset = { type: "integer", minimum: 0 };
  return {
    validate_plan: {
      type: "object",
      properties: { plan: planOutline(engine), input: INPUT },
      required: ["plan"],
    },
    run_plan: {
      type: "object",
      properties: { plan, input: INPUT },
      required: ["plan"],
      ...($defs === undefined ? {} : { $defs }),
    },
    list_variables: {
      type: "object",
      properties: {
        // 0 is refused like the engine refuses it (an empty list would read "No variables.")
        lastN: { type: "integer", minimum: 1, description: "only the n newest; leave out for all" },
        budgetChars: { type: "integer", minimum: 1, maximum: MAX_LIST_CHARS },
        refs: { type: "array", items: STORED_REFERENCE_SCHEMA, maxItems: MAX_LIST_REFS },
      },
    },
    get_variable: {
      type: "object",
      // the pattern guides a model's structured output; the handler still refuses what it lets through
      // (a bad path: REF_SYNTAX, …) and what a framework passes unchecked, with code, message and hint
      properties: { reference: STORED_REFERENCE_SCHEMA, offset, limit: offset },
      required: ["reference"],
    },
  };
}

/**
 * Every tool's parameters with the arguments' types only: nothing a framework checks before `execute` can
 * refuse what the handler would answer with a diagnostic (an unknown tool, a misspelt meta-property, a
 * reference without its `†`, a budget over the maximum). The plan JSON Schema is in the plan's description,
 * as text, so the model still knows the tools and their parameters.
 */
function looseParameters(engine: Engine): ToolParameters {
  // every form the handlers take (the engine reads them all): a plan object or one call, a bare array of
  // calls, the plan as JSON text (decision 0044); `items` because providers refuse an array without it
  const plan = (schema: string) => ({
    type: ["object", "array", "string"],
    items: { type: "object" },
    description: `${PLAN_FORMAT} (a bare array of calls, or the plan as JSON text, is read too). validate_plan and run_plan check it and answer diagnostics (code, JSON Pointer, hint) to fix it. ${schema}`,
  });
  // the input as an object or its JSON text, as the plan (the handlers read both)
  const input = { type: ["object", "string"], description: `${INPUT.description}, or its JSON text` };
  const planArguments = (schema: string) => ({
    type: "object",
    properties: { plan: plan(schema), input },
    required: ["plan"],
  });
  const reference = {
    type: "string",
    description: "A stored reference: †state, †state.<path> or †calls.<callId>[.<path>]",
  };
  return {
    // the plan JSON Schema once per request, in run_plan's (decision 0096)
    validate_plan: planArguments(`Write it as run_plan's plan: ${SCHEMA_IN_RUN_PLAN}.`),
    run_plan: planArguments(`Its JSON Schema: ${JSON.stringify(enginePlanSchema(engine))}`),
    list_variables: {
      type: "object",
      properties: {
        lastN: { type: "integer", description: "only the n newest (at least 1); leave out for all" },
        budgetChars: { type: "integer", description: `at most ${MAX_LIST_CHARS}` },
        refs: { type: "array", items: reference, description: `at most ${MAX_LIST_REFS} references` },
      },
    },
    get_variable: {
      type: "object",
      properties: {
        reference,
        offset: { type: "integer", description: "first item, key or character (from 0)" },
        limit: { type: "integer", description: "how many items, keys or characters" },
      },
      required: ["reference"],
    },
  };
}

/** The tools' parameters in the form asked for (`openai-strict`: `agent-tools-openai-strict.ts`). */
export function toolParameters(engine: Engine, form: "strict" | "loose"): ToolParameters {
  return form === "loose" ? looseParameters(engine) : strictParameters(engine);
}
