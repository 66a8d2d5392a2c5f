import { didYouMean, MAX_TIMER_MS, ObeliskError } from "@obelisk/core";
import type { PlanApprover } from "./agent-tools-approval.js";
import type { AgentToolsParameters } from "./agent-tools-parameters.js";
import { shownValue } from "./describe-value.js";
import { refuseUnknownKeys } from "./facade-arguments.js";

/** Options of `agentTools`. */
export interface AgentToolsOptions {
  /**
   * Asked before `run_plan` runs a valid plan: `true` runs it, bound to the hash shown (the run refuses any
   * other plan: `PLAN_NOT_APPROVED`); `false` or a string (the reason) refuses it and the model is told so.
   * The hash binds the plan, not its input, which the model chooses: the request has both. Default: every
   * valid plan runs.
   */
  readonly approve?: PlanApprover | undefined;
  /**
   * `"strict"` (default): `parameters` hold the model to the plan JSON Schema of the engine's tools — for
   * constraining its structured output (it is not within OpenAI's `strict: true` subset); given once, as
   * `run_plan`'s plan (`validate_plan`'s names the tools only: decision 0096). `"loose"`: the arguments'
   * types only (the plan any object, array of calls or JSON text, the plan JSON Schema in `run_plan`'s
   * description) — for frameworks that validate tool input before `execute` and would answer a bare schema
   * error instead of Obelisk's diagnostics (LangChain's `DynamicStructuredTool`). `"openai-strict"`: within
   * OpenAI's strict subset, for `strict: true` function calling — every argument required, `null` where one
   * is left out, the plan the strict plan schema, the run's input `input_json` (the JSON text of an object);
   * the tools read those nulls as absent (`fromStrictPlan` for the plan) and parse `input_json`.
   */
  readonly parameters?: AgentToolsParameters | undefined;
  /**
   * How long a `run_plan` waits (ms) for the `run_plan` calls given to these tools before it to end — a
   * model's parallel tool calls take turns on the thread — before it answers `THREAD_BUSY` and never runs.
   * Default 60,000; `0` answers at once when another is running. From 0 to 2^31 - 1. A `get_variable` or
   * `list_variables` waits as long for the `run_plan` calls before it, then reads what the thread holds.
   */
  readonly runWaitMs?: number | undefined;
  /**
   * The values of the engine's host kinds (`RunOptions.context`: `{ secrets: { apiKey } }`) that every
   * `run_plan` runs with and every `validate_plan` judges the plan with, read once as a frozen JSON copy
   * (decision 0077). They are not recorded and the model is not shown them (decision 0063); scope a secret
   * with `HostKind.readers`. Default none: a plan reading a host kind is refused (`REF_UNRESOLVED`) by
   * `validate_plan` as by `run_plan`. Not a plain object of JSON values, or a key that is no host kind of
   * the engine: `USAGE`.
   */
  readonly context?: Readonly<Record<string, unknown>> | undefined;
}

const OPTIONS: ReadonlySet<string> = new Set(["approve", "parameters", "runWaitMs", "context"]);
const PARAMETER_FORMS: ReadonlySet<string> = new Set(["strict", "loose", "openai-strict"]);

/** The options checked: an object of known options, `approve` a function, `parameters` a known form. */
export function checkOptions(options: AgentToolsOptions): void {
  if (typeof options !== "object" || options === null || Array.isArray(options))
    throw new ObeliskError(
      "USAGE",
      "agentTools' options must be an object { approve?, parameters?, runWaitMs?, context? }",
    );
  // a misspelt approve would run every plan unapproved
  refuseUnknownKeys(options, OPTIONS, "agentTools");
  if (options.approve !== undefined && typeof options.approve !== "function")
    throw new ObeliskError("USAGE", "agentTools' approve must be a function (request) => boolean | reason");
  const wait: unknown = options.runWaitMs;
  if (wait !== undefined && !(typeof wait === "number" && wait >= 0 && wait <= MAX_TIMER_MS))
    throw new ObeliskError(
      "USAGE",
      `agentTools' runWaitMs must be a number of ms from 0 to ${MAX_TIMER_MS}, not ${shownValue(wait)}`,
    );
  const form: unknown = options.parameters;
  if (form !== undefined && (typeof form !== "string" || !PARAMETER_FORMS.has(form)))
    throw new ObeliskError(
      "USAGE",
      `agentTools' parameters must be "strict", "loose" or "openai-strict", not ${shownValue(form)}`,
      {
        hint:
          (typeof form === "string" ? didYouMean(form, PARAMETER_FORMS) : undefined) ??
          '"loose" for frameworks that validate tool input (LangChain), "openai-strict" for OpenAI\'s strict: true function calling, "strict" to constrain structured output otherwise',
      },
    );
}
