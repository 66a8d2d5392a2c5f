import { type Diagnostic, plural } from "@obelisk/core";
import { boundWarnings } from "./agent-tools-diagnostics.js";
import type { RunPlanAnswer } from "./agent-tools-types.js";
import { cutMessage, MESSAGE_CHARS } from "./cut-message.js";
import type { CallOutcome, RunResult } from "./engine-types.js";

/** Bounds of what `run_plan` answers (SPEC §9: what the model sees is bounded). */
export const RUN_LIMITS = Object.freeze({
  /** Characters kept of one error message or skip reason (the rest is counted: `…(+N chars)`). */
  messageChars: MESSAGE_CHARS,
  /**
   * Hard budget of one answer, in characters of its JSON (the summary is bounded on its own, 2,000, and
   * so are the warnings, 3,000).
   */
  answerChars: 16_000,
});

const size = (value: unknown): number => JSON.stringify(value).length;

/**
 * A call's outcome as `run_plan` shows it: a satisfied call's says where its value is; `wroteOmitted` /
 * `holdsOmitted` count the targets left out of a long fan-out.
 */
type ShownOutcome = CallOutcome & {
  readonly holds?: readonly string[];
  readonly wroteOmitted?: number;
  readonly holdsOmitted?: number;
};

/** Characters of JSON a call's `wrote` (and a satisfied call's `holds`) take at most in a `run_plan` answer. */
const TARGETS_CHARS = 1_000;

/** The first targets within {@link TARGETS_CHARS}, and how many are left out. */
function boundTargets(targets: readonly string[]): { shown: readonly string[]; left: number } {
  let used = 2;
  let count = 0;
  for (const target of targets) {
    used += size(target) + 1;
    if (used > TARGETS_CHARS) break;
    count++;
  }
  return {
    shown: count === targets.length ? targets : targets.slice(0, count),
    left: targets.length - count,
  };
}

/**
 * A call's outcome with its error message and reason cut, its targets bounded (a 900-target fan-out hid
 * the plan's only call), and where a satisfied call's value is (`holds`).
 */
function boundOutcome(outcome: CallOutcome, holds: readonly string[] | undefined): ShownOutcome {
  if (holds !== undefined) {
    const { shown, left } = boundTargets(holds);
    return {
      ...boundOutcome(outcome, undefined),
      holds: shown,
      ...(left === 0 ? {} : { holdsOmitted: left }),
    };
  }
  const wrote = boundTargets(outcome.wrote);
  if (wrote.left > 0)
    return { ...boundOutcome({ ...outcome, wrote: wrote.shown }, undefined), wroteOmitted: wrote.left };
  if (outcome.error === undefined && outcome.reason === undefined) return outcome;
  // Only fields the outcome has are replaced (by cut copies), so its status still decides which it has.
  return {
    ...outcome,
    ...(outcome.reason === undefined ? {} : { reason: cutMessage(outcome.reason) }),
    ...(outcome.error === undefined
      ? {}
      : { error: { code: outcome.error.code, message: cutMessage(outcome.error.message) } }),
  } as CallOutcome;
}

/** ` (a, b, c)`: the ids a note names, when there are at most three (more are only counted). */
const named = (ids: readonly string[]): string => (ids.length <= 3 ? ` (${ids.join(", ")})` : "");

/**
 * What a model must know of `satisfied` calls (review s32 H2: a cart item asked for again was added once,
 * and the answer said only `succeeded`): they did not run again, and `_rerun` makes one run — except for a
 * tool that is not idempotent (`idempotent: false`), which refuses `_rerun` (review s40 r2: the note sent
 * the model into a loop): that work was done once, and the model says so.
 */
function satisfiedNote(
  calls: readonly [string, ShownOutcome][],
  onceOnly: ReadonlySet<string>,
): string | undefined {
  const ids = calls.filter(([, outcome]) => outcome.status === "satisfied").map(([id]) => id);
  if (ids.length === 0) return undefined;
  const again = ids.filter((id) => !onceOnly.has(id));
  const once = ids.filter((id) => onceOnly.has(id));
  const notes = [
    `${plural(ids.length, "call")}${named(ids)} did not run again: an identical call (same tool, parameters, output path and method) completed on this thread before, so its value stands where "holds" says.`,
  ];
  if (again.length > 0)
    notes.push(
      `To run such a call again (e.g. to add the same item twice), send it with "_rerun": true${once.length === 0 ? "" : ` (${plural(again.length, "call")}${named(again)})`}.`,
    );
  if (once.length > 0)
    notes.push(
      `${plural(once.length, "call")}${named(once)} ${once.length === 1 ? "uses a tool" : "use tools"} that must not repeat (not idempotent): a plan cannot run ${once.length === 1 ? "it" : "them"} again — tell the user it was already done.`,
    );
  return notes.join(" ");
}

/** An approval reference in a waiting call's reason (`waits for approval †state.approvals.refund`). */
const APPROVAL = /†state\.approvals(?:\.[^\s,;()[\]]+|\[[^\]]*\])+/g;

/**
 * What a model must know of `waiting` calls (review s39: the answer said `succeeded`, and a model could tell
 * the user "refund done"): they did not run, a person must give the approval they wait for — the plan cannot —
 * and the plan is sent again after.
 */
function waitingNote(calls: readonly [string, ShownOutcome][]): string | undefined {
  const waiting = calls.filter(([, outcome]) => outcome.status === "waiting");
  if (waiting.length === 0) return undefined;
  const ids = waiting.map(([id]) => id);
  const refs = [
    ...new Set(
      waiting.flatMap(([, outcome]) => [...(outcome.reason ?? "").matchAll(APPROVAL)].map((m) => m[0])),
    ),
  ];
  const which =
    refs.length === 0
      ? "an approval"
      : refs.length <= 3
        ? `the approval at ${refs.join(", ")}`
        : `${refs.length} approvals (each call's "reason" names its own)`;
  return `${plural(ids.length, "call")}${named(ids)} did NOT run: ${ids.length === 1 ? "it waits" : "they wait"} for ${which}, which a person must give (a plan cannot write it). Nothing was done for ${ids.length === 1 ? "it" : "them"}: tell the user it awaits approval, not that it is done, and send the plan again after the approval is given.`;
}

/** The notes of the calls that did not run (waiting first, then satisfied), as one text. */
function callsNote(
  calls: readonly [string, ShownOutcome][],
  onceOnly: ReadonlySet<string>,
): string | undefined {
  const notes = [waitingNote(calls), satisfiedNote(calls, onceOnly)].filter((note) => note !== undefined);
  return notes.length === 0 ? undefined : notes.join(" ");
}

/** Calls that did not succeed first (the model needs those), in plan order otherwise. */
const failedFirst = (entries: [string, ShownOutcome][]): [string, ShownOutcome][] => [
  ...entries.filter(([, outcome]) => outcome.status !== "succeeded"),
  ...entries.filter(([, outcome]) => outcome.status === "succeeded"),
];

/**
 * The run result as `run_plan` answers it: without the state (a summary of what the run wrote instead),
 * each error message and reason cut to {@link RUN_LIMITS.messageChars} characters, given once
 * (`calls[id].error`; `errors` lists the failed call ids and codes only), and the whole answer within
 * {@link RUN_LIMITS.answerChars}: when a plan has too many calls, the calls that did not succeed are kept
 * first and `omitted` / `note` say what was left out. The full errors stay in the run's call records. The
 * plan's warnings (`diagnostics`, as `validate` gave them) come as `warnings`, bounded on their own. A
 * satisfied call's outcome says where its value is (`holds`, from `held`); `onceOnly` names the calls
 * whose tool is not idempotent (the note does not offer `_rerun` for them).
 */
export function boundRunAnswer(
  result: Omit<RunResult, "state">,
  summary: string,
  diagnostics: readonly Diagnostic[] = [],
  held: ReadonlyMap<string, readonly string[]> = new Map(),
  onceOnly: ReadonlySet<string> = new Set(),
): RunPlanAnswer {
  const entries = failedFirst(
    Object.entries(result.calls).map(([id, outcome]): [string, ShownOutcome] => [
      id,
      boundOutcome(outcome, held.get(id)),
    ]),
  );
  const errors = result.errors.map((error) => ({ callId: error.callId, code: error.error.code }));
  const head = {
    runId: result.runId,
    threadId: result.threadId,
    planHash: result.planHash,
    status: result.status,
    // what validate_plan would have said: a model that ran the plan directly sees them too
    ...boundWarnings(diagnostics),
  };
  const whole = {
    ...head,
    calls: Object.fromEntries(entries),
    errors,
    durationMs: result.durationMs,
    summary,
  };
  const callNotes = callsNote(entries, onceOnly);
  if (size(whole) + (callNotes === undefined ? 0 : size(callNotes) + 10) <= RUN_LIMITS.answerChars)
    return toJson(callNotes === undefined ? whole : { ...whole, note: callNotes });
  // too many calls: as many as fit (failed first), then as many error entries as fit, and say so
  let room =
    RUN_LIMITS.answerChars -
    size({ ...head, calls: {}, errors: [], durationMs: 0, summary }) -
    400 -
    (callNotes === undefined ? 0 : size(callNotes));
  const calls: Record<string, ShownOutcome> = {};
  let shownCalls = 0;
  // the calls may take three quarters of the room when there are error entries to show too
  let callsRoom = errors.length === 0 ? room : Math.floor(room * 0.75);
  room -= callsRoom;
  for (const [id, outcome] of entries) {
    const cost = size(id) + size(outcome) + 2;
    if (cost > callsRoom) break;
    Object.defineProperty(calls, id, {
      value: outcome,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    callsRoom -= cost;
    shownCalls++;
  }
  room += callsRoom;
  const shownErrors: typeof errors = [];
  for (const error of errors) {
    const cost = size(error) + 1;
    if (cost > room) break;
    shownErrors.push(error);
    room -= cost;
  }
  const omitted = { calls: entries.length - shownCalls, errors: errors.length - shownErrors.length };
  return toJson({
    ...head,
    calls,
    errors: shownErrors,
    omitted,
    note: `The plan has ${plural(entries.length, "call")}: ${plural(omitted.calls, "call")} and ${plural(omitted.errors, "error entry", "error entries")} are not shown to keep this answer within ${RUN_LIMITS.answerChars} characters (calls that did not succeed are shown first). Read what the run wrote with list_variables and get_variable.${callNotes === undefined ? "" : ` ${callNotes}`}`,
    durationMs: result.durationMs,
    summary,
  });
}

const toJson = (value: unknown): RunPlanAnswer => JSON.parse(JSON.stringify(value)) as RunPlanAnswer;
