import { type CompiledCall, type RegisteredTool, schemaIssueText } from "@obelisk/compiler";
import { assertNever, type JsonObject, toJsonValue } from "@obelisk/core";
import type { Awaitable } from "@obelisk/state";
import { isThenable } from "./awaitable.js";
import { callHash } from "./call-hash.js";
import type { CallEnding } from "./call-record.js";
import { checkDecision } from "./check-decision.js";
import type { DispatchHost } from "./dispatch-host.js";
import { toRecordedError } from "./event-hub.js";
import { failed } from "./failed-ending.js";
import { completeValue } from "./on-invoked.js";
import { recordedParams } from "./recorded-params.js";
import { refusedApproval } from "./refused-approval.js";
import { paramsLimit } from "./resolve-params.js";
import { resolveRetryPolicy } from "./retry-delay.js";
import type { CallRun } from "./runner-types.js";

/** What a JSON value is, for a message: `null`, `an array`, `a string`, … */
const describeJson = (value: unknown): string => {
  if (value === null) return "null";
  const type = Array.isArray(value) ? "array" : typeof value;
  return `${type === "array" ? "an" : "a"} ${type}`;
};

/**
 * The failure for parameters that break the tool's input schema, or undefined when they fit; `whose` names
 * parameters that are not the plan's (a confirm hook's `modify`), so the message does not blame the plan.
 */
export function paramsRefused(
  tool: RegisteredTool,
  params: JsonObject,
  whose?: string,
): CallEnding | undefined {
  const first = tool.validateInput(params)[0];
  if (first === undefined) return undefined;
  // worded as validate words it (a format's name, not zod's email regex: review s40 r2 #12)
  const problem = `parameter ${first.instancePath || "/"}: ${schemaIssueText(first, tool.paramsSchema ?? tool.inputSchema)}`;
  return failed(
    "PARAM_INVALID",
    whose === undefined ? problem : `${whose} break the input schema of ${tool.name}: ${problem}`,
  );
}

/** Applies the confirmation hook's decision. */
function decide(
  host: DispatchHost,
  index: number,
  run: CallRun,
  tool: RegisteredTool,
  answer: unknown,
): Awaitable<void> {
  const decision = checkDecision(answer);
  switch (decision.action) {
    case "approve":
      return execute(host, index, run, tool);
    case "reject":
      return host.end(index, { status: "rejected", wrote: [], reason: decision.reason });
    case "modify": {
      // held to the run's value limit, like resolved parameters (a confirm hook cannot pass a larger argument)
      const json = toJsonValue(decision.params, { maxBytes: paramsLimit(host.options.maxValueBytes) });
      if (!json.ok && json.code === "OUTPUT_TOO_LARGE")
        return host.end(index, failed("OUTPUT_TOO_LARGE", `modified parameters: ${json.message}`));
      // what is wrong and where, as the other JSON checks say it (`NaN is not a JSON number (at /n)`)
      if (!json.ok)
        return host.end(index, {
          status: "failed",
          wrote: [],
          error: {
            name: "ObeliskError",
            code: "PARAM_INVALID",
            message: `modified parameters are not JSON: ${json.message}`,
            data: { pointer: json.pointer },
          },
        });
      if (typeof json.value !== "object" || json.value === null || Array.isArray(json.value))
        return host.end(
          index,
          failed(
            "PARAM_INVALID",
            `modified parameters must be a JSON object, got ${describeJson(json.value)}`,
          ),
        );
      // SPEC §4: parameters never start with `_` (a `_outputPath` here would be handed to the tool as data)
      const meta = Object.keys(json.value).find((key) => key.startsWith("_"));
      if (meta !== undefined)
        return host.end(
          index,
          failed(
            "PARAM_INVALID",
            `modified parameters cannot hold ${JSON.stringify(meta)}: a key starting with "_" is a meta-property, not a parameter (the call's meta-properties are fixed by the plan)`,
          ),
        );
      const refused = paramsRefused(tool, json.value as JsonObject, "the confirm hook's modified parameters");
      if (refused !== undefined) return host.end(index, refused);
      // the key is that of the call as the plan resolved it (a re-sent plan is satisfied by this record),
      // and the record keeps the modified parameters: a hash left for later is taken now
      run.hash ??= callHash(run.call, run.params as JsonObject, true);
      // the record keeps the plan's parameters beside them, and the call's outcome says `modified`
      run.plannedParams = run.shownParams ?? run.params;
      run.params = json.value as JsonObject;
      run.shownParams = shownParams(host, run.call, run.params);
      return execute(host, index, run, tool);
    }
    case "invalid":
      return host.end(index, failed("CONFIRM_ERROR", decision.message));
    default:
      return assertNever(decision);
  }
}

/** Invokes the tool (or writes a latent call's `_output`). */
function execute(host: DispatchHost, index: number, run: CallRun, tool: RegisteredTool): Awaitable<void> {
  if (host.aborted) return host.end(index, { status: "cancelled", wrote: [], reason: host.abortReason });
  if (tool.latent) return completeValue(host, index, run.call, tool, run.call.output);
  return host.invoke(index, run, tool);
}

/** Asks the confirmation hook (when installed), then executes. */
export function confirmThenExecute(
  host: DispatchHost,
  index: number,
  run: CallRun,
  tool: RegisteredTool,
): Awaitable<void> {
  // an approval answered false or null is a person's no (decision 0048): the hook is not asked
  const refused = refusedApproval(tool, run.call, run.params);
  if (refused !== undefined) return host.end(index, { status: "rejected", wrote: [], reason: refused });
  const confirm = host.options.confirm;
  if (confirm === undefined || tool.latent) return execute(host, index, run, tool);
  const call = run.call;
  const timeoutMs = call.timeoutMs ?? tool.timeoutMs;
  const request = {
    callId: call.id,
    tool: call.tool,
    params: run.params ?? {},
    ...(call.outputPath === undefined ? {} : { outputPath: call.outputPath.text }),
    rerun: rerunAsked(host, call, tool),
    attempts: resolveRetryPolicy(tool.retry, call).attempts,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    runId: host.options.runId,
    threadId: host.options.threadId,
    signal: host.signal,
  };
  let decision: unknown;
  try {
    decision = confirm(request);
    if (!isThenable(decision)) return decide(host, index, run, tool, decision);
  } catch (error) {
    return host.end(index, failed("CONFIRM_ERROR", toRecordedError(error).message));
  }
  return awaitDecision(host, index, run, tool, decision);
}

/**
 * Waits for a hook's pending answer, raced against the run's signal: when the run is aborted first the
 * call ends `cancelled` at once and a late answer is ignored (its ending is already taken), so a hook that
 * never answers cannot hold a cancelled run (bug M4).
 */
function awaitDecision(
  host: DispatchHost,
  index: number,
  run: CallRun,
  tool: RegisteredTool,
  decision: PromiseLike<unknown>,
): Promise<void> {
  const signal = host.signal;
  if (host.aborted) return Promise.resolve(host.end(index, cancelledEnding(host)));
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => resolve(host.end(index, cancelledEnding(host)));
    signal.addEventListener("abort", onAbort, { once: true });
    const settle = (next: () => Awaitable<void>): void => {
      signal.removeEventListener("abort", onAbort);
      if (host.aborted) {
        resolve();
        return;
      }
      try {
        resolve(next());
      } catch (error) {
        reject(error);
      }
    };
    Promise.resolve(decision).then(
      (value) => settle(() => decide(host, index, run, tool, value)),
      (error: unknown) =>
        settle(() => host.end(index, failed("CONFIRM_ERROR", toRecordedError(error).message))),
    );
  });
}

function cancelledEnding(host: DispatchHost): CallEnding {
  return { status: "cancelled", wrote: [], reason: host.abortReason };
}

/**
 * The parameters as the record and events show them, when they differ from `params` (decision 0063): only a
 * run given host-kind values (`extraKinds`) has any to leave out, so the others pay one property read.
 */
export function shownParams(
  host: DispatchHost,
  call: CompiledCall,
  params: JsonObject,
): JsonObject | undefined {
  return host.options.extraKinds === undefined ? undefined : recordedParams(call, params);
}

/**
 * True when the call is to run even if an identical call completed before: the plan's `_rerun`, or the
 * host's `rerun` option (`true`: calls of idempotent tools; a set: the calls it names).
 */
export function rerunAsked(host: DispatchHost, call: CompiledCall, tool: RegisteredTool): boolean {
  if (call.rerun) return true;
  const rerun = host.options.rerun;
  return rerun === true ? tool.idempotent : rerun?.has(call.id) === true;
}
