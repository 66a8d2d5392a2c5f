import { planJsonSchema } from "@obelisk/compiler";
import { type Diagnostic, type JsonObject, type JsonValue, ObeliskError } from "@obelisk/core";
import { DEFAULT_SUMMARY_CHARS, STORED_REFERENCE_SCHEMA } from "@obelisk/state";
import { boundDiagnostics, boundErrorData } from "./agent-tools-diagnostics.js";
import { GET_LIMITS, getForModel } from "./agent-tools-get.js";
import { boundRunAnswer } from "./agent-tools-run.js";
import { cutMessage } from "./cut-message.js";
import type { Engine } from "./engine-types.js";

/** A framework-neutral tool definition an LLM agent can call. */
export interface AgentTool {
  /** Tool name (snake_case). */
  readonly name: string;
  /** What the tool does, for the model. */
  readonly description: string;
  /** JSON Schema of the arguments. */
  readonly parameters: JsonObject;
  /** Runs the tool; never throws for bad plans (diagnostics are returned as data). */
  execute(args: Record<string, unknown>): Promise<JsonValue>;
}

const asJson = (value: unknown): JsonValue => JSON.parse(JSON.stringify(value)) as JsonValue;
const optionalInteger = { type: "integer", minimum: 0 } as const;
/** Characters kept of the message and of the hint of an error the tools answer with. */
const ERROR_TEXT_CHARS = 1_000;

/**
 * Runs a handler with the call's arguments; ObeliskErrors become
 * `{ ok: false, error: { code, message, data, hint? } }` for the model, and so do arguments that are not an
 * object (USAGE).
 */
async function guarded(
  args: unknown,
  handler: (args: Record<string, unknown>) => Promise<unknown>,
): Promise<JsonValue> {
  try {
    if (typeof args !== "object" || args === null || Array.isArray(args))
      throw new ObeliskError("USAGE", "the tool's arguments must be a JSON object");
    return asJson(await handler(args as Record<string, unknown>));
  } catch (error) {
    if (!ObeliskError.is(error)) throw error;
    return asJson({
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

/** The budget of the summary `run_plan` returns of what the run wrote (characters). */
const RUN_SUMMARY_CHARS = 2_000;
/** The largest `budgetChars` of `list_variables` (its default is the engine's, `DEFAULT_SUMMARY_CHARS`). */
export const MAX_LIST_CHARS = 20_000;
/** Summaries asked for at most, shrinking the budget, until the text fits as JSON (then it is cut). */
const LIST_TRIES = 5;

/** Characters of JSON a string's characters take inside a JSON string (escapes counted). */
const jsonChars = (text: string): number => JSON.stringify(text).length - 2;

/** `text` cut (at a character) so that, as a JSON string, it fits `budget`, ending with `…`. */
function cutToJson(text: string, budget: number): string {
  let used = 1; // the …
  let end = 0;
  for (const character of text) {
    used += jsonChars(character);
    if (used > budget) break;
    end += character.length;
  }
  return `${text.slice(0, end)}…`;
}

/**
 * The summary whose text, as the JSON string the model receives, fits `budget`: the engine's budget counts
 * characters of the text, and escapes (control characters, quotes, backslashes in previews and
 * descriptions) made answers up to 4× the budget. Asks again with a budget shrunk by the measured overrun.
 */
async function summaryWithin(
  engine: Engine,
  threadId: string,
  args: Record<string, unknown>,
  given: unknown,
): Promise<Awaited<ReturnType<Engine["summarize"]>>> {
  // the first ask is the budget as given: the engine refuses a malformed one (USAGE)
  let summary = await engine.summarize(threadId, {
    ...args,
    budgetChars: given as number,
    format: "markdown",
  });
  const budget = given as number;
  let ask = budget;
  for (let tries = 1; ; tries++) {
    const cost = jsonChars(summary.text);
    if (cost <= budget) return summary;
    // escapes differ from entry to entry: what is left is cut rather than asked for again and again
    if (ask === 1 || tries === LIST_TRIES) return { ...summary, text: cutToJson(summary.text, budget) };
    ask = Math.max(1, Math.floor((ask * budget * 0.95) / cost) - 8);
    summary = await engine.summarize(threadId, { ...args, budgetChars: ask, format: "markdown" });
  }
}

/** What the host's approval hook of `run_plan` is shown: the valid plan, its hash and its warnings. */
export interface PlanApprovalRequest {
  /** The plan as the model sent it. */
  readonly plan: unknown;
  /** The hash a run of it will have (`validate`'s `planHash`). */
  readonly planHash: string;
  /** The run's input as the model sent it (`{}` when none). */
  readonly input: JsonValue;
  /** The thread the plan would run on. */
  readonly threadId: string;
  /** Its warnings (a plan with errors never reaches the hook). */
  readonly diagnostics: readonly Diagnostic[];
}

/** Options of {@link agentTools}. */
export interface AgentToolsOptions {
  /**
   * Asked before `run_plan` runs a valid plan: `true` runs it, bound to the hash shown (the run refuses any
   * other plan: `PLAN_NOT_APPROVED`); `false` or a string (the reason) refuses it and the model is told so.
   * A person approving plans by hash (SPEC §6) checks `planHash` against what they approved. Default: every
   * valid plan runs.
   */
  readonly approve?: (request: PlanApprovalRequest) => boolean | string | Promise<boolean | string>;
}

/** The host's answer for a plan, or the error the model gets when it is refused (or the hook fails). */
async function askApproval(
  approve: NonNullable<AgentToolsOptions["approve"]>,
  request: PlanApprovalRequest,
): Promise<void> {
  let answer: unknown;
  try {
    answer = await approve(request);
  } catch (error) {
    throw new ObeliskError("PLAN_NOT_APPROVED", `the approval of plan ${request.planHash} failed`, {
      cause: error,
      hint: "the host could not decide; ask the user, then send the plan again",
      data: { planHash: request.planHash },
    });
  }
  if (answer === true) return;
  const reason = typeof answer === "string" && answer.length > 0 ? `: ${answer}` : "";
  throw new ObeliskError("PLAN_NOT_APPROVED", `plan ${request.planHash} was not approved${reason}`, {
    hint: "change the plan as the reason says (or ask the user), validate it and send it again",
    data: { planHash: request.planHash },
  });
}

/**
 * Tools that let an LLM agent drive Obelisk on one thread from any framework: `validate_plan`, `run_plan`,
 * `list_variables` (the summary) and `get_variable` (paged). With `approve`, `run_plan` runs only the plans
 * the host approves, each bound to its hash. See the README for the Vercel AI SDK and LangChain.js.
 */
export function agentTools(engine: Engine, threadId: string, options: AgentToolsOptions = {}): AgentTool[] {
  // the thread is the conversation: a missing or empty one would silently share "default" with everyone
  if (typeof threadId !== "string" || threadId.length === 0)
    throw new ObeliskError("USAGE", "agentTools(engine, threadId) needs the thread id: a non-empty string");
  if (typeof options !== "object" || options === null)
    throw new ObeliskError("USAGE", "agentTools' options must be an object { approve? }");
  const approve = options.approve;
  if (approve !== undefined && typeof approve !== "function")
    throw new ObeliskError("USAGE", "agentTools' approve must be a function (request) => boolean | reason");
  const plan = {
    // the engine's limits: a _retry the engine allows is allowed by the schema the model is held to
    ...planJsonSchema(engine.registry, { limits: engine.limits }),
    description: "The plan: { type: 'plan', plan: [calls] }",
  };
  const input = { type: "object", description: "The run's input (read as †input...)" };
  return [
    {
      name: "validate_plan",
      description:
        "Compile a plan and return its diagnostics (codes, JSON Pointers, hints; the first ones within a budget, the rest counted by code) and its hash. Runs nothing. Without input, †input references are checked against the plan's inputSchema only.",
      parameters: { type: "object", properties: { plan, input }, required: ["plan"] },
      execute: (given) =>
        guarded(given, async (args) => {
          // the model's input is checked by the engine (USAGE for anything but a plain object of JSON values)
          const { ok, planHash, diagnostics } = await engine.validate(args.plan, {
            threadId,
            input: args.input as object,
          });
          return { ok, planHash, ...boundDiagnostics(diagnostics) };
        }),
    },
    {
      name: "run_plan",
      description:
        "Validate and run a plan on the thread. Returns the status of each call, the errors, and a short summary of the variables the run wrote (read their values with get_variable).",
      parameters: { type: "object", properties: { plan, input }, required: ["plan"] },
      execute: (given) =>
        guarded(given, async (args) => {
          // Not the state: one earlier run's 200,000-item list would fill the model's context. What this run
          // wrote comes as a bounded summary, like list_variables.
          const runInput = (args.input ?? {}) as JsonValue;
          let approvedHash: string | undefined;
          if (approve !== undefined) {
            const validation = await engine.validate(args.plan, { threadId, input: runInput as object });
            // an invalid plan is refused by the run below with its diagnostics, as without a hook
            if (validation.ok) {
              const request = { plan: args.plan, planHash: validation.planHash, input: runInput, threadId };
              await askApproval(approve, { ...request, diagnostics: validation.diagnostics });
              approvedHash = validation.planHash;
            }
          }
          const { state: _state, ...result } = await engine.run(args.plan, {
            threadId,
            input: runInput as object,
            ...(approvedHash === undefined ? {} : { approvedHash }),
          });
          const wrote = [...new Set(Object.values(result.calls).flatMap((call) => call.wrote))];
          const summary =
            wrote.length === 0
              ? "No variables written."
              : (await engine.summarize(threadId, { refs: wrote, budgetChars: RUN_SUMMARY_CHARS })).text;
          // error messages are cut and given once (in calls[id].error), the whole answer is bounded
          return boundRunAnswer(result, summary);
        }),
    },
    {
      name: "list_variables",
      description: `Short summaries of the stored variables (reference, type, size, description, preview), newest first, within budgetChars characters (default ${DEFAULT_SUMMARY_CHARS}, at most ${MAX_LIST_CHARS}).`,
      parameters: {
        type: "object",
        properties: {
          // 0 is refused like the engine refuses it (an empty list would read "No variables.")
          lastN: { type: "integer", minimum: 1, description: "only the n newest; leave out for all" },
          budgetChars: { type: "integer", minimum: 1, maximum: MAX_LIST_CHARS },
          refs: { type: "array", items: STORED_REFERENCE_SCHEMA },
        },
      },
      execute: (given) =>
        guarded(given, async (args) => {
          const budget = args.budgetChars;
          if (typeof budget === "number" && budget > MAX_LIST_CHARS)
            throw new ObeliskError("USAGE", `budgetChars must be at most ${MAX_LIST_CHARS}, got ${budget}`, {
              hint: "narrow the list with lastN or refs, and read values with get_variable",
            });
          const summary = await summaryWithin(engine, threadId, args, budget ?? DEFAULT_SUMMARY_CHARS);
          return { text: summary.text, omitted: summary.omitted, notFound: summary.notFound };
        }),
    },
    {
      name: "get_variable",
      description:
        `Read one stored value by reference (e.g. †state.user, †state.list[0], †calls.c1). Small values come whole; ` +
        `a large array, object or string comes one page at a time (default ${GET_LIMITS.pageItems} items or keys, ` +
        `${GET_LIMITS.pageChars} characters; every answer is at most ${GET_LIMITS.answerChars} characters) with ` +
        "total, next and a note saying how to read on. offset/limit page arrays (items), objects (keys) and strings (characters).",
      parameters: {
        type: "object",
        // the pattern guides a model's structured output; the handler still refuses what it lets through
        // (a bad path: REF_SYNTAX, …) and what a framework passes unchecked, with code, message and hint
        properties: { reference: STORED_REFERENCE_SCHEMA, offset: optionalInteger, limit: optionalInteger },
        required: ["reference"],
      },
      execute: (given) => guarded(given, (args) => getForModel(engine, threadId, args)),
    },
  ];
}
