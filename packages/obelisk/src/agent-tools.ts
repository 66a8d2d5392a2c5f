import type { StrictSchemaDeviation } from "@obelisk/compiler";
import { ObeliskError } from "@obelisk/core";
import { DEFAULT_SUMMARY_CHARS } from "@obelisk/state";
import { type AgentTool, callSignal } from "./agent-tool.js";
import { agentContext } from "./agent-tools-context.js";
import { boundDiagnostics } from "./agent-tools-diagnostics.js";
import { GET_LIMITS, getForModel } from "./agent-tools-get.js";
import { guarded } from "./agent-tools-guarded.js";
import { listForModel } from "./agent-tools-list-answer.js";
import { oneAtATime } from "./agent-tools-one-at-a-time.js";
import { type AgentToolsOptions, checkOptions } from "./agent-tools-options.js";
import { MAX_LIST_CHARS } from "./agent-tools-parameters.js";
import { parametersFor } from "./agent-tools-parameters-for.js";
import { runForModel } from "./agent-tools-run-plan.js";
import type {
  AgentToolFailure,
  GetVariableAnswer,
  ListVariablesAnswer,
  RunPlanAnswer,
  ValidatePlanAnswer,
} from "./agent-tools-types.js";
import type { Engine } from "./engine-types.js";

export type { AgentTool, AgentToolCallOptions } from "./agent-tool.js";
export type { AgentToolsOptions } from "./agent-tools-options.js";
export { MAX_LIST_CHARS } from "./agent-tools-parameters.js";

/** Default of {@link AgentToolsOptions.runWaitMs}: how long a `run_plan` waits for the one before it. */
const DEFAULT_RUN_WAIT_MS = 60_000;

/** The host values `validate_plan` judges with when the tools were given no `context`: none, as `run_plan`. */
const NO_HOST_VALUES = Object.freeze({});

/**
 * The input `validate_plan` judges with when the model gives none: the one `run_plan` runs with then (`{}`),
 * so a plan reading `†input` is refused by both, alike (decision 0102).
 */
const NO_INPUT = Object.freeze({});

/** What validate_plan does, for the model: the `openai-strict` form's input is `input_json`, as text. */
function validateDescription(form: AgentToolsOptions["parameters"]): string {
  const does =
    "Compile a plan and return its diagnostics (codes, JSON Pointers, hints; the first ones within a budget, the rest counted by code) and its hash. Runs nothing.";
  return form === "openai-strict"
    ? `${does} A plan that reads †input is checked against input_json, the JSON text of the input run_plan will get; with null (no input), as in run_plan, every †input reference is unresolved.`
    : `${does} A plan that reads †input is checked against input, the input run_plan will get (give both the same). Without input, as in run_plan, every †input reference is unresolved.`;
}

/** The four tools, each typed with its name and answer (see `agent-tools-types.ts`). */
type AgentToolList = [
  AgentTool<"validate_plan", ValidatePlanAnswer | AgentToolFailure>,
  AgentTool<"run_plan", RunPlanAnswer | AgentToolFailure>,
  AgentTool<"list_variables", ListVariablesAnswer | AgentToolFailure>,
  AgentTool<"get_variable", GetVariableAnswer | AgentToolFailure>,
];

/** The four tools, each typed with its name and answer, and what their `plan` parameter cannot say. */
export type AgentTools = AgentToolList & {
  /**
   * Where the `plan` parameter says less or more than the plan JSON Schema: with `parameters:
   * "openai-strict"`, `strictPlanJsonSchema`'s deviations for the engine's tools (an open object, a dropped
   * keyword, a size limit passed…); none with the other forms, which give the plan JSON Schema itself. Not
   * an element: `map` and JSON leave it out.
   */
  readonly deviations: readonly StrictSchemaDeviation[];
};

/**
 * Tools that let an LLM agent drive Obelisk on one thread from any framework: `validate_plan`, `run_plan`,
 * `list_variables` (the summary) and `get_variable` (paged). With `approve`, `run_plan` runs only the plans
 * the host approves, each bound to its hash; with `parameters: "loose"`, their `parameters` leave every
 * check to the handlers; with `"openai-strict"`, they are within OpenAI's strict subset (`strict: true`) and
 * the handlers read its nulls as absent. See the README for OpenAI, the Vercel AI SDK and LangChain.js.
 */
export function agentTools(engine: Engine, threadId: string, options: AgentToolsOptions = {}): AgentTools {
  if (typeof engine !== "object" || engine === null || typeof engine.run !== "function")
    throw new ObeliskError("USAGE", "agentTools(engine, threadId) needs an engine, not a missing value", {
      hint: "pass the engine createEngine returned: agentTools(engine, threadId)",
    });
  // the thread is the conversation: a missing or empty one would silently share "default" with everyone
  if (typeof threadId !== "string" || threadId.length === 0)
    throw new ObeliskError("USAGE", "agentTools(engine, threadId) needs the thread id: a non-empty string");
  checkOptions(options);
  const context = agentContext(engine, options.context);
  const approve = options.approve;
  const { parameters, deviations, read } = parametersFor(engine, options.parameters);
  // A model's parallel tool calls (two run_plan in one turn) take turns: runs on one thread never overlap,
  // and the second would otherwise answer THREAD_BUSY at once.
  const waitMs = options.runWaitMs ?? DEFAULT_RUN_WAIT_MS;
  const { inTurn, afterPending } = oneAtATime(waitMs);
  const stillBusy = (given: unknown) => () =>
    guarded<RunPlanAnswer>(given, engine.limits, () => {
      throw new ObeliskError(
        "THREAD_BUSY",
        `an earlier run_plan on thread ${JSON.stringify(threadId)} is still running after ${waitMs} ms: this plan did not run`,
        {
          data: { threadId, waitMs },
          hint: "call run_plan again with the same plan once the earlier run has ended",
        },
      );
    });
  const tools: AgentToolList = [
    {
      name: "validate_plan",
      description: validateDescription(options.parameters),
      parameters: parameters.validate_plan,
      execute: (given) =>
        guarded(given, engine.limits, async (raw) => {
          const args = read("validate_plan", raw);
          // the model's input is checked by the engine (USAGE for anything but a plain object of JSON values);
          // none is judged as run_plan runs it (`{}`), not as unknown (engine.validate's own reading)
          const { ok, planHash, diagnostics } = await engine.validate(args.plan, {
            threadId,
            input: (args.input ?? NO_INPUT) as object,
            // the host values run_plan runs with (none: a plan reading a host kind is refused by both)
            context: context ?? NO_HOST_VALUES,
          });
          return { ok, planHash, ...boundDiagnostics(diagnostics) };
        }),
    },
    {
      name: "run_plan",
      description:
        "Validate and run a plan on the thread. Returns the status of each call, the errors, the plan's warnings, and a short summary of the variables the run wrote (read their values with get_variable). A call identical to one completed on this thread before is 'satisfied': it does not run again (send it with \"_rerun\": true to run it again; a tool that must not repeat refuses that: it was done once). A call that waits for an approval is 'waiting': it did not run; a person must give the approval, then send the plan again.",
      parameters: parameters.run_plan,
      execute: (given, options) => {
        const signal = callSignal(options);
        return inTurn(
          () =>
            guarded(given, engine.limits, (args) =>
              runForModel(engine, threadId, read("run_plan", args), { approve, context }, signal),
            ),
          stillBusy(given),
          signal,
          () =>
            guarded<RunPlanAnswer>(given, engine.limits, () => {
              throw new ObeliskError(
                "CANCELLED",
                "run_plan was cancelled (its signal aborted) while it waited for an earlier run_plan: this plan did not run",
              );
            }),
        );
      },
    },
    {
      name: "list_variables",
      description: `Short summaries of the stored variables (reference, type, size, description, preview), newest first, within budgetChars characters (default ${DEFAULT_SUMMARY_CHARS}, at most ${MAX_LIST_CHARS}).`,
      parameters: parameters.list_variables,
      execute: (given, options) =>
        guarded(given, engine.limits, async (raw) => {
          const args = read("list_variables", raw);
          // a run_plan of the same turn writes first (decision 0054)
          await afterPending(callSignal(options));
          return listForModel(engine, threadId, args);
        }),
    },
    {
      name: "get_variable",
      description:
        `Read one stored value by reference (e.g. †state.user, †state.list[0], †calls.c1). Small values come whole; ` +
        `a large array, object or string comes one page at a time (default ${GET_LIMITS.pageItems} items or keys, ` +
        `${GET_LIMITS.pageChars} characters; every answer is at most ${GET_LIMITS.answerChars} characters) with ` +
        "total, next and a note saying how to read on. offset/limit page arrays (items), objects (keys) and strings (characters).",
      parameters: parameters.get_variable,
      execute: (given, options) =>
        guarded(given, engine.limits, async (raw) => {
          const args = read("get_variable", raw);
          await afterPending(callSignal(options));
          return getForModel(engine, threadId, args);
        }),
    },
  ];
  return Object.assign(tools, { deviations });
}
