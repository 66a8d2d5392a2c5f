import type { StrictSchemaDeviation } from "@obelisk/compiler";
import {
  didYouMean,
  type JsonObject,
  type JsonValue,
  type Limits,
  MAX_TIMER_MS,
  ObeliskError,
  parseJsonText,
} from "@obelisk/core";
import { DEFAULT_SUMMARY_CHARS } from "@obelisk/state";
import type { PlanApprover } from "./agent-tools-approval.js";
import { agentContext } from "./agent-tools-context.js";
import { boundDiagnostics, boundErrorData } from "./agent-tools-diagnostics.js";
import { GET_LIMITS, getForModel } from "./agent-tools-get.js";
import { withInputFromText } from "./agent-tools-input-json.js";
import { summaryWithin } from "./agent-tools-list.js";
import { fromStrictArguments, openAiStrictParameters } from "./agent-tools-openai-strict.js";
import {
  type AgentToolsParameters,
  MAX_LIST_CHARS,
  MAX_LIST_REFS,
  type ToolParameters,
  toolParameters,
} from "./agent-tools-parameters.js";
import { runForModel } from "./agent-tools-run-plan.js";
import type {
  AgentToolFailure,
  GetVariableAnswer,
  ListVariablesAnswer,
  RunPlanAnswer,
  ValidatePlanAnswer,
} from "./agent-tools-types.js";
import { cutMessage } from "./cut-message.js";
import { shownValue } from "./describe-value.js";
import type { Engine } from "./engine-types.js";
import { refuseUnknownKeys } from "./facade-arguments.js";

export { MAX_LIST_CHARS } from "./agent-tools-parameters.js";

/**
 * A framework-neutral tool definition an LLM agent can call. `Name` and `Answer` type one tool (what
 * `agentTools` returns is typed per tool); the defaults fit any of them.
 */
export interface AgentTool<Name extends string = string, Answer extends JsonValue = JsonValue> {
  /** Tool name (snake_case). */
  readonly name: Name;
  /** What the tool does, for the model. */
  readonly description: string;
  /** JSON Schema of the arguments (`agentTools`' `parameters` option: strict, loose or openai-strict). */
  readonly parameters: JsonObject;
  /**
   * Runs the tool; never throws for bad plans or arguments: diagnostics and Obelisk errors are answered as
   * data (an answer with `error` is an {@link AgentToolFailure}). `options`: what the framework passes with
   * the call — its cancel signal cancels a `run_plan` (waiting: it never runs; running: the run is cancelled).
   * `args`: the arguments object, or its JSON text as a provider hands it (`item.arguments`): text that is not
   * JSON, cut off or malformed, is answered as a `JSON_SYNTAX` error the model can act on.
   */
  execute(args: Record<string, unknown> | string, options?: AgentToolCallOptions): Promise<Answer>;
}

/**
 * What a framework passes with a tool call, as far as the agent tools read it: the call's cancel signal
 * (the Vercel AI SDK's `abortSignal`, LangChain's `signal`; either is read).
 */
export interface AgentToolCallOptions {
  readonly abortSignal?: AbortSignal | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** The cancel signal among a framework's call options, when it is one (anything else is ignored). */
function callSignal(options: AgentToolCallOptions | undefined): AbortSignal | undefined {
  if (typeof options !== "object" || options === null) return undefined;
  const signal: unknown = options.abortSignal ?? options.signal;
  return signal instanceof AbortSignal ? signal : undefined;
}

const asJson = <Answer extends JsonValue>(value: unknown): Answer =>
  JSON.parse(JSON.stringify(value)) as Answer;
/** Characters kept of the message and of the hint of an error the tools answer with. */
const ERROR_TEXT_CHARS = 1_000;

/**
 * The call's arguments, read from their JSON text when given as text (as OpenAI's and other providers'
 * APIs hand them, cut off when the model ran out of tokens): text that is not JSON is refused with the
 * JSON reader's code and a hint for the model.
 */
function argumentsOf(given: unknown, limits: Readonly<Limits>): unknown {
  if (typeof given !== "string") return given;
  const parsed = parseJsonText(given, { limits });
  if (parsed.ok) return parsed.value;
  const first = parsed.diagnostics[0];
  throw new ObeliskError(
    first?.code ?? "JSON_SYNTAX",
    `the tool's arguments are not valid JSON: ${first?.message ?? "invalid JSON"}`,
    {
      hint: "send the call again with the complete JSON object of its arguments (the text may have been cut off)",
    },
  );
}

/**
 * Runs a handler with the call's arguments (an object, or its JSON text); ObeliskErrors become
 * `{ ok: false, error: { code, message, data, hint? } }` for the model, and so do arguments that are not an
 * object (USAGE).
 */
async function guarded<Answer extends JsonValue>(
  given: unknown,
  limits: Readonly<Limits>,
  handler: (args: Record<string, unknown>) => Promise<unknown>,
): Promise<Answer | AgentToolFailure> {
  try {
    const args = argumentsOf(given, limits);
    if (typeof args !== "object" || args === null || Array.isArray(args))
      throw new ObeliskError("USAGE", "the tool's arguments must be a JSON object");
    return asJson<Answer>(await handler(args as Record<string, unknown>));
  } catch (error) {
    if (!ObeliskError.is(error)) throw error;
    return asJson<AgentToolFailure>({
      ok: false,
      error: {
        code: error.code,
        // a message or hint quoting a huge value must not fill the model's context
        message: cutMessage(error.message, ERROR_TEXT_CHARS),
        // a plan's diagnostics (PLAN_INVALID) are bounded as validate_plan's are
        data: boundErrorData(error.data),
        ...(error.hint === undefined ? {} : { hint: cutMessage(error.hint, ERROR_TEXT_CHARS) }),
      },
    });
  }
}

/** Characters of JSON `list_variables`' `notFound` takes at most; each reference in it is cut to 200. */
const NOT_FOUND_CHARS = 2_000;
const NOT_FOUND_REFERENCE_CHARS = 200;

/**
 * The references asked for and not stored, within {@link NOT_FOUND_CHARS} (a model asking for 10,000
 * names got every one back); the ones left out are counted in `notFoundOmitted`.
 */
function boundNotFound(references: readonly string[]): { notFound: string[]; notFoundOmitted?: number } {
  const notFound: string[] = [];
  let used = 2; // []
  for (const reference of references) {
    const shown = cutMessage(reference, NOT_FOUND_REFERENCE_CHARS);
    used += JSON.stringify(shown).length + 1;
    if (used > NOT_FOUND_CHARS) break;
    notFound.push(shown);
  }
  const left = references.length - notFound.length;
  return left === 0 ? { notFound } : { notFound, notFoundOmitted: left };
}

/** Default of {@link AgentToolsOptions.runWaitMs}: how long a `run_plan` waits for the one before it. */
const DEFAULT_RUN_WAIT_MS = 60_000;

/** The run_plan queue of one agent tools object (see {@link oneAtATime}). */
interface RunTurns {
  /**
   * Runs `task` once the tasks given before it have settled, in the order given; a task still waiting
   * after `waitMs` answers `timedOut()` instead and never runs (a run_plan called from inside a tool of the
   * run before it would otherwise wait for itself, then run after its caller gave up).
   */
  inTurn<T>(
    task: () => Promise<T>,
    timedOut: () => Promise<T>,
    signal: AbortSignal | undefined,
    cancelled: () => Promise<T>,
  ): Promise<T>;
  /**
   * Settles once the tasks given so far have (at once when none is pending), or after `waitMs`, or when
   * `signal` aborts: a read then answers what the thread holds at that moment (decision 0054).
   */
  afterPending(signal: AbortSignal | undefined): Promise<void>;
}

/** The queue that makes a model's parallel run_plan calls take turns, and its reads wait for them. */
function oneAtATime(waitMs: number): RunTurns {
  let tail: Promise<void> = Promise.resolve();
  let pending = 0;
  const afterPending = (signal: AbortSignal | undefined): Promise<void> => {
    if (pending === 0 || signal?.aborted === true) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const end = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", end);
        resolve();
      };
      const timer = setTimeout(end, waitMs);
      timer.unref?.();
      signal?.addEventListener("abort", end, { once: true });
      void tail.then(end);
    });
  };
  const inTurn = <T>(
    task: () => Promise<T>,
    timedOut: () => Promise<T>,
    signal: AbortSignal | undefined,
    cancelled: () => Promise<T>,
  ): Promise<T> => {
    const before = tail;
    let release!: () => void;
    pending++;
    const done = new Promise<void>((resolve) => {
      release = () => {
        pending--;
        resolve();
      };
    });
    tail = before.then(() => done);
    return new Promise<T>((resolve) => {
      let decided = false; // the task started, or the wait gave up
      const giveUp = (answer: () => Promise<T>): void => {
        if (decided) return;
        decided = true;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        release();
        resolve(answer());
      };
      const onAbort = (): void => giveUp(cancelled);
      const timer = setTimeout(() => giveUp(timedOut), waitMs);
      timer.unref?.();
      if (signal?.aborted === true) giveUp(cancelled);
      else signal?.addEventListener("abort", onAbort, { once: true });
      void before.then(() => {
        if (decided) return;
        decided = true;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        const run = task();
        resolve(run);
        void run.finally(release).catch(() => undefined);
      });
    });
  };
  return { inTurn, afterPending };
}

/** Options of {@link agentTools}. */
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
   * constraining its structured output (it is not within OpenAI's `strict: true` subset). `"loose"`: the
   * arguments' types only (the plan any object, array of calls or JSON text, the plan JSON Schema in its
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
/** The host values `validate_plan` judges with when the tools were given no `context`: none, as `run_plan`. */
const NO_HOST_VALUES = Object.freeze({});
const PARAMETER_FORMS: ReadonlySet<string> = new Set(["strict", "loose", "openai-strict"]);

/** The options checked: an object of known options, `approve` a function, `parameters` a known form. */
function checkOptions(options: AgentToolsOptions): void {
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

/** What validate_plan does, for the model: the `openai-strict` form's input is `input_json`, as text. */
function validateDescription(form: AgentToolsOptions["parameters"]): string {
  const does =
    "Compile a plan and return its diagnostics (codes, JSON Pointers, hints; the first ones within a budget, the rest counted by code) and its hash. Runs nothing.";
  return form === "openai-strict"
    ? `${does} A plan that reads †input is checked against input_json, the JSON text of the input run_plan will get; with null, †input references are not checked.`
    : `${does} Without input, †input references are checked against the plan's inputSchema only.`;
}

/** The name of one of the four tools. */
type ToolName = keyof ToolParameters;

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
 * Refuses an argument the tool's parameters do not name (USAGE, with the nearest name): a misspelt
 * `ofset` or `inputs` was ignored, and the model got the first page or a run without its input.
 */
function refuseUnknownArguments(
  tool: ToolName,
  args: Record<string, unknown>,
  schema: JsonObject,
  also: readonly string[],
): void {
  const properties = schema.properties;
  const named = typeof properties === "object" && properties !== null ? Object.keys(properties) : [];
  const known = new Set([...named, ...also]);
  for (const key of Object.keys(args)) {
    if (known.has(key)) continue;
    throw new ObeliskError("USAGE", `unknown argument ${JSON.stringify(cutMessage(key, 80))} for ${tool}`, {
      hint: didYouMean(key, known) ?? `${tool}'s arguments are ${[...known].join(", ")}`,
    });
  }
}

/** Each tool's parameters in the form asked for, the plan's deviations, and how arguments are read. */
function parametersFor(engine: Engine, form: AgentToolsOptions["parameters"]) {
  const checked =
    (
      parameters: ToolParameters,
      also: (tool: ToolName) => readonly string[],
      convert: (tool: ToolName, args: Record<string, unknown>) => Record<string, unknown>,
    ) =>
    (tool: ToolName, args: Record<string, unknown>): Record<string, unknown> => {
      refuseUnknownArguments(tool, args, parameters[tool], also(tool));
      // an input written as JSON text is read as the plan's text is (every form)
      return withInputFromText(tool, convert(tool, args), engine.limits);
    };
  if (form !== "openai-strict") {
    const parameters = toolParameters(engine, form ?? "strict");
    return {
      parameters,
      deviations: [],
      read: checked(
        parameters,
        () => [],
        (_tool, args) => args,
      ),
    };
  }
  const { deviations, ...parameters } = openAiStrictParameters(engine);
  return {
    parameters,
    deviations,
    read: checked(
      parameters,
      // a host calling execute itself may pass the input as an object (fromStrictArguments)
      (tool) => (tool === "validate_plan" || tool === "run_plan" ? ["input"] : []),
      // strict mode writes null for every argument left out: read as absent before anything else
      (tool, args) => fromStrictArguments(engine, tool, args),
    ),
  };
}

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
          // the model's input is checked by the engine (USAGE for anything but a plain object of JSON values)
          const { ok, planHash, diagnostics } = await engine.validate(args.plan, {
            threadId,
            input: args.input as object,
            // the host values run_plan runs with (none: a plan reading a host kind is refused by both)
            context: context ?? NO_HOST_VALUES,
          });
          return { ok, planHash, ...boundDiagnostics(diagnostics) };
        }),
    },
    {
      name: "run_plan",
      description:
        "Validate and run a plan on the thread. Returns the status of each call, the errors, the plan's warnings, and a short summary of the variables the run wrote (read their values with get_variable). A call identical to one completed on this thread before is 'satisfied': it does not run again (send it with \"_rerun\": true to run it again). A call that waits for an approval is 'waiting': it did not run; a person must give the approval, then send the plan again.",
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
          const budget = args.budgetChars;
          if (typeof budget === "number" && budget > MAX_LIST_CHARS)
            throw new ObeliskError("USAGE", `budgetChars must be at most ${MAX_LIST_CHARS}, got ${budget}`, {
              hint: "narrow the list with lastN or refs, and read values with get_variable",
            });
          if (Array.isArray(args.refs) && args.refs.length > MAX_LIST_REFS)
            throw new ObeliskError(
              "USAGE",
              `refs takes at most ${MAX_LIST_REFS} references, got ${args.refs.length}`,
              {
                hint: "a summary shows a few dozen entries: ask for fewer, or read a value's keys with get_variable",
              },
            );
          const summary = await summaryWithin(engine, threadId, args, budget ?? DEFAULT_SUMMARY_CHARS);
          return { text: summary.text, omitted: summary.omitted, ...boundNotFound(summary.notFound) };
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
