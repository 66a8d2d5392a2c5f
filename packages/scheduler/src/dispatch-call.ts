import { isDeepStrictEqual } from "node:util";
import type { CompiledCall, RegisteredTool } from "@obelisk/compiler";
import {
  assertNever,
  asThreadId,
  deepFreeze,
  type JsonObject,
  ObeliskError,
  toJsonValue,
} from "@obelisk/core";
import type { Awaitable, CallRecord, StateStore } from "@obelisk/state";
import { isThenable } from "./awaitable.js";
import { callHash } from "./call-hash.js";
import type { CallEnding } from "./call-record.js";
import { checkDecision } from "./check-decision.js";
import { toRecordedError } from "./event-hub.js";
import { errorValue, interpretResult } from "./interpret-result.js";
import type { InvokeOutcome } from "./invoke-tool.js";
import { completedBefore } from "./own-record-match.js";
import { recordedParams } from "./recorded-params.js";
import { refusedApproval } from "./refused-approval.js";
import { type OperandFilter, paramsLimit, resolveParams } from "./resolve-params.js";
import { resolveRetryPolicy } from "./retry-delay.js";
import type { RunnerSettings } from "./runner-settings.js";
import type { CallRun, PendingResult } from "./runner-types.js";
import type { WorkingContext } from "./working-context.js";

/** What dispatching needs from the runner. */
export interface DispatchHost {
  readonly options: RunnerSettings;
  readonly context: WorkingContext;
  /** Which operands hold a value for this run (fallbacks skip the others). */
  readonly operands: OperandFilter;
  /** True once the run is aborted (cancelled or failFast). */
  readonly aborted: boolean;
  /** Why the run was aborted. */
  readonly abortReason: string;
  /** The run's signal (aborted with the run). */
  readonly signal: AbortSignal;
  /** Ends a call without a result (failed, deferred, rejected, cancelled). */
  end(index: number, ending: CallEnding): void;
  /**
   * True when a completed record may satisfy `call`: one of an earlier run (SPEC §7), or of this run or a
   * run it resumes only when `call` wrote it (an identical sibling's record is not this call's work).
   */
  mayReuse(record: CallRecord, call: CompiledCall): boolean;
  /** Takes a completed record for one call of this run: false when another call took it already. */
  claim(record: CallRecord): boolean;
  /**
   * True when calls of `tool` need no hash at dispatch: the store fills a record's hash in later and held no
   * succeeded record of the tool on the thread when this run first asked (a record of this run satisfies
   * only its own call, so none committed since can satisfy another).
   */
  hashLater(tool: string): boolean;
  /** Hands a completed result to the decision core (committed in order). */
  complete(index: number, pending: PendingResult): void;
  /**
   * Invokes the tool under the concurrency limits and hands the outcome to {@link onInvoked} before the
   * call's slot is given back, so the calls its result makes ready are queued (and ranked) by then.
   */
  invoke(index: number, run: CallRun, tool: RegisteredTool): Awaitable<void>;
}

/** What a JSON value is, for a message: `null`, `an array`, `a string`, … */
const describeJson = (value: unknown): string => {
  if (value === null) return "null";
  const type = Array.isArray(value) ? "array" : typeof value;
  return `${type === "array" ? "an" : "a"} ${type}`;
};

const failed = (code: string, message: string): CallEnding => ({
  status: "failed",
  wrote: [],
  error: { name: "ObeliskError", code, message },
});

/** Turns a tool result (or a latent `_output`) into a pending result or a failure. */
export function completeValue(
  host: DispatchHost,
  index: number,
  call: CompiledCall,
  tool: RegisteredTool,
  raw: unknown,
): Awaitable<void> {
  let interpreted: ReturnType<typeof interpretResult>;
  try {
    interpreted = interpretResult(call, tool, raw, host.options.maxValueBytes);
  } catch {
    // A hostile value whose inspection throws (bug B5's family): not JSON.
    return host.end(index, failed("OUTPUT_NOT_JSON", "the tool returned a value that cannot be inspected"));
  }
  if (!interpreted.ok) return host.end(index, { status: "failed", wrote: [], error: interpreted.error });
  const alternative = call.outputPath === undefined ? undefined : interpreted.alternative;
  host.complete(index, { status: "succeeded", alternative, value: interpreted.value });
}

/** The alternative a thrown error is routed to (the last, SPEC §3), or undefined when the call has fewer than two. */
export function failureBranch(call: CompiledCall): number | undefined {
  const count = call.outputPath?.alternatives.length ?? 0;
  return count < 2 ? undefined : count - 1;
}

/** Handles how the attempts ended: result, error (routed to the failure branch with ≥ 2 alternatives) or abort. */
export function onInvoked(
  host: DispatchHost,
  index: number,
  run: CallRun,
  tool: RegisteredTool,
  outcome: InvokeOutcome,
): Awaitable<void> {
  const call = run.call;
  switch (outcome.kind) {
    case "returned":
      return completeValue(host, index, call, tool, outcome.value);
    case "invalid":
      return host.end(index, { status: "failed", wrote: [], error: outcome.error });
    case "threw": {
      const alternative = failureBranch(call);
      if (alternative === undefined)
        return host.end(index, { status: "failed", wrote: [], error: outcome.error });
      // concat appends an array's items: the error object goes in as one item, so the failure branch
      // of a concat call can be written at all (it always failed OUTPUT_WRITE_FAILED before)
      const value = errorValue(outcome.error);
      return host.complete(index, {
        status: "succeeded",
        alternative,
        value: call.outputMethod === "concat" ? [value] : value,
        error: outcome.error,
      });
    }
    case "cancelled":
      return host.end(index, { status: "cancelled", wrote: [], reason: host.abortReason });
  }
}

/**
 * The failure for parameters that break the tool's input schema, or undefined when they fit; `whose` names
 * parameters that are not the plan's (a confirm hook's `modify`), so the message does not blame the plan.
 */
function paramsRefused(tool: RegisteredTool, params: JsonObject, whose?: string): CallEnding | undefined {
  const first = tool.validateInput(params)[0];
  if (first === undefined) return undefined;
  const problem = `parameter ${first.instancePath || "/"}: ${first.message}`;
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
function confirmThenExecute(
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

/** Reuses a completed record: the call is `satisfied`, its result re-applied where its targets lost it. */
function reuse(host: DispatchHost, index: number, run: CallRun, record: CallRecord): Awaitable<void> {
  if (run.call.outputPath !== undefined || record.result === undefined)
    return satisfied(host, index, run, record, false);
  // a stored output (†calls.<id>) the thread still holds is not stored again (nor its metadata touched);
  // one another run stored under the same id is replaced, as a satisfied call's lost targets are
  const { store, threadId } = host.options;
  const result = record.result;
  const holds = (found: Awaited<ReturnType<StateStore["getCallOutput"]>>): boolean =>
    found !== undefined && "value" in found && isDeepStrictEqual(found.value, result);
  const held = store.getCallOutput(asThreadId(threadId), run.call.id);
  if (!isThenable(held)) return satisfied(host, index, run, record, holds(held));
  return Promise.resolve(held).then((found) => satisfied(host, index, run, record, holds(found)));
}

function satisfied(
  host: DispatchHost,
  index: number,
  run: CallRun,
  record: CallRecord,
  outputHeld: boolean,
): void {
  const alternative = run.call.outputPath === undefined ? undefined : (record.branch ?? 0);
  const completedIn = completedInChain(host, run);
  host.complete(index, {
    status: "satisfied",
    satisfiedBy: record.runId,
    alternative,
    value: record.result === undefined ? undefined : deepFreeze(record.result),
    onlyMissing: true,
    ...(outputHeld ? { outputHeld } : {}),
    ...(record.error === undefined ? {} : { error: record.error }),
    ...(completedIn === undefined ? {} : { completedIn }),
  });
}

/**
 * On resume, the run of the chain in which this call had completed (`succeeded`, or `satisfied` there) with
 * the key it has now: its write belongs to that run's time, so a target a later write changed is not
 * reverted (decision 0043). Undefined outside a resume, or for a call the chain had not completed (one
 * satisfied now by another run's record is as if it ran now: its targets are restored as on a re-send).
 */
function completedInChain(host: DispatchHost, run: CallRun): string | undefined {
  const settled = host.options.resumedSettled?.get(run.call.id);
  const params = run.shownParams ?? run.params;
  if (settled === undefined || run.hash === undefined || params === undefined) return undefined;
  return completedBefore(settled, run.call, run.hash, params) ? settled.runId : undefined;
}

/**
 * The parameters as the record and events show them, when they differ from `params` (decision 0063): only a
 * run given host-kind values (`extraKinds`) has any to leave out, so the others pay one property read.
 */
function shownParams(host: DispatchHost, call: CompiledCall, params: JsonObject): JsonObject | undefined {
  return host.options.extraKinds === undefined ? undefined : recordedParams(call, params);
}

/**
 * True when the call is to run even if an identical call completed before: the plan's `_rerun`, or the
 * host's `rerun` option (`true`: calls of idempotent tools; a set: the calls it names).
 */
function rerunAsked(host: DispatchHost, call: CompiledCall, tool: RegisteredTool): boolean {
  if (call.rerun) return true;
  const rerun = host.options.rerun;
  return rerun === true ? tool.idempotent : rerun?.has(call.id) === true;
}

/**
 * Dispatches a ready call: resolves its parameters (frozen), defers latent calls without `_output`, skips
 * satisfied calls (same hash completed before, unless `_rerun`, the host's `rerun` or a `fresh` tool; on resume the call's own
 * completed record satisfies it whatever they say), asks the confirm hook,
 * then invokes the tool.
 */
export function dispatchCall(
  host: DispatchHost,
  index: number,
  run: CallRun,
  tool: RegisteredTool,
): Awaitable<void> {
  const call = run.call;
  if (host.aborted) return host.end(index, { status: "cancelled", wrote: [], reason: host.abortReason });
  try {
    run.params = resolveParams(call, host.context, host.options.maxValueBytes, host.operands, index);
    run.shownParams = shownParams(host, call, run.params);
  } catch (error) {
    // References that would make the parameters larger than one value may be (bug H6): the call fails
    // before the tool runs; its record keeps no parameters.
    if (!ObeliskError.is(error) || error.code !== "OUTPUT_TOO_LARGE") throw error;
    run.params = undefined;
    return host.end(index, {
      status: "failed",
      wrote: [],
      error: {
        name: "ObeliskError",
        code: error.code,
        message: error.message,
        data: error.data as JsonObject,
      },
    });
  }
  // Literal parameters were checked at compile time; values that came through references are checked
  // here, so a tool never receives arguments its input schema refuses. Not when an approval is answered
  // false or null: a person's no ends the call `rejected` (`confirmThenExecute`), not `failed` for a type
  // the schema does not take there (decision 0048, amended at stop 39).
  if (call.references.length > 0 && !tool.latent && refusedApproval(tool, call, run.params) === undefined) {
    const refused = paramsRefused(tool, run.params);
    if (refused !== undefined) return host.end(index, refused);
  }
  if (tool.latent && !call.hasOutput) {
    return host.end(index, {
      status: "deferred",
      wrote: [],
      reason: `latent tool ${call.tool} without _output`,
    });
  }
  const { store, threadId, resumedRecords } = host.options;
  // nothing on the thread can satisfy the call: no lookup, and no hash until the store needs one (for a
  // call with `_output` the key holds the output, which its record does not: it is hashed now)
  // (a call shown with host values left out is hashed now: the store would hash the shown parameters)
  if (
    resumedRecords === undefined &&
    !call.hasOutput &&
    run.shownParams === undefined &&
    host.hashLater(call.tool)
  )
    return confirmThenExecute(host, index, run, tool);
  // resolved parameters are deep-frozen (resolveParams): the digests of their large arrays can be kept
  run.hash = callHash(call, run.params, true);
  // resumed: the call's own record of the chain first (the store answers only the latest of a key, which
  // may be an identical sibling's: a completed push would run again). It satisfies `_rerun` calls and
  // `fresh` tools too: a resume finishes the interrupted run, it does not repeat its side effects
  // (decision 0045).
  const own = resumedRecords?.get(call.id);
  if (
    own !== undefined &&
    completedBefore(own, call, run.hash, run.shownParams ?? run.params) &&
    host.claim(own)
  )
    return reuse(host, index, run, own);
  if (tool.fresh || rerunAsked(host, call, tool)) return confirmThenExecute(host, index, run, tool);
  const found = store.findCompletedCall(asThreadId(threadId), run.hash);
  // Synchronous stores (memory, SQLite) answer at once: no closure, no microtask hop.
  if (!isThenable(found)) return afterLookup(host, index, run, tool, found);
  return Promise.resolve(found).then((record) => afterLookup(host, index, run, tool, record));
}

function afterLookup(
  host: DispatchHost,
  index: number,
  run: CallRun,
  tool: RegisteredTool,
  record: CallRecord | undefined,
): Awaitable<void> {
  if (record === undefined || !youngEnough(host, tool, record))
    return confirmThenExecute(host, index, run, tool);
  if (host.mayReuse(record, run.call) && host.claim(record)) return reuse(host, index, run, record);
  // the latest record of the key is a sibling's, or another call of this run took it: an earlier one
  // may be this call's (two identical calls of a re-sent plan are each satisfied by their own record)
  const { store, threadId } = host.options;
  const earlier = store.findCompletedCalls?.(asThreadId(threadId), run.hash as string, EARLIER_RECORDS);
  if (earlier === undefined) return confirmThenExecute(host, index, run, tool);
  if (!isThenable(earlier)) return pickEarlier(host, index, run, tool, earlier);
  return Promise.resolve(earlier).then((records) => pickEarlier(host, index, run, tool, records));
}

/**
 * True while a completed record may still satisfy a call of its tool: it ended less than `reuseForMs` ago
 * (by the run's clock). `0` never reuses; a record without an end time, or one that ended after now (the
 * clock was set back), is too old for a tool that sets a bound.
 */
function youngEnough(host: DispatchHost, tool: RegisteredTool, record: CallRecord): boolean {
  const bound = tool.reuseForMs;
  if (bound === Number.POSITIVE_INFINITY) return true;
  if (bound === 0) return false;
  const age =
    (host.options.now ?? Date.now)() -
    (record.endedAt === undefined ? Number.NaN : Date.parse(record.endedAt));
  return age >= 0 && age < bound;
}

/** How many completed records of one key are looked at for a call whose latest one is taken. */
const EARLIER_RECORDS = 16;

function pickEarlier(
  host: DispatchHost,
  index: number,
  run: CallRun,
  tool: RegisteredTool,
  records: readonly CallRecord[],
): Awaitable<void> {
  for (const record of records)
    if (youngEnough(host, tool, record) && host.mayReuse(record, run.call) && host.claim(record))
      return reuse(host, index, run, record);
  return confirmThenExecute(host, index, run, tool);
}
