import {
  asThreadId,
  didYouMean,
  MAX_TIMER_MS,
  ObeliskError,
  readHostValue,
  type ThreadId,
} from "@obelisk/core";
import type { SummarizeOptions } from "@obelisk/state";
import { describeValue, shownValue } from "./describe-value.js";
import { checkRerunOption } from "./rerun-option.js";

/**
 * A frozen copy of `rerun`'s ids, its `length` read once (a list claiming more ids than `maxCalls` is USAGE
 * before any is read: a plan has no more calls to name).
 */
function copiedIds(rerun: readonly unknown[], maxCalls: number): readonly unknown[] {
  const { length } = rerun;
  if (length > maxCalls)
    throw new ObeliskError(
      "USAGE",
      `rerun names ${length} ids, more than a plan has calls (maxCalls ${maxCalls})`,
      {
        hint: "name each call to run again once, or pass rerun: true for every call",
      },
    );
  return Object.freeze(Array.from({ length }, (_, index) => rerun[index]));
}

/** Throws USAGE unless `value` is a string (the engine is called from untyped code and by LLM tool calls). */
export function requireString(value: unknown, what: string): string {
  if (typeof value !== "string")
    throw new ObeliskError("USAGE", `${what} must be a string, not ${describeValue(value)}`);
  return value;
}

/** Throws USAGE unless `options` is undefined or a plain object (`null`, a number or an array would be misread). */
export function checkOptionsObject<T>(options: T, what: string): T {
  if (options === undefined) return options;
  if (typeof options !== "object" || options === null || Array.isArray(options))
    throw new ObeliskError(
      "USAGE",
      `the options of ${what} must be an object, not ${describeValue(options)}`,
    );
  return options;
}

/**
 * Throws USAGE for a key of `options` that is none of `known`, with the nearest known one as a hint: a
 * misspelt option would otherwise be dropped without a word (`approvedhash` ran an unapproved plan,
 * `threadID` ran on the thread "default").
 */
export function refuseUnknownKeys(
  options: object,
  known: ReadonlySet<string>,
  what: string,
  listed: ReadonlySet<string> = known,
): void {
  for (const key of Object.keys(options)) {
    if (known.has(key)) continue;
    const hint = didYouMean(key, known) ?? `the options of ${what} are ${[...listed].join(", ")}`;
    throw new ObeliskError("USAGE", `unknown option ${JSON.stringify(key)} for ${what}`, { hint });
  }
}

const SUMMARIZE_OPTIONS: ReadonlySet<string> = new Set(["lastN", "refs", "budgetChars", "format"]);
const SUMMARY_FORMATS: ReadonlySet<string> = new Set(["markdown", "json"]);

/**
 * The options `run`, `start`, `resume`, `open` and `validate` know (one set, so one object may serve them
 * all; `idleTimeoutMs` and `inputSchema` are refused outside `open`, and `approvedHash` by `open`).
 */
const RUN_OPTIONS: ReadonlySet<string> = new Set([
  "threadId",
  "input",
  "context",
  "approvedHash",
  "signal",
  "failFast",
  "rerun",
  "onEvent",
  "inputSchema",
  "idleTimeoutMs",
]);

/** Options of {@link RUN_OPTIONS} only `open` takes (the others refuse them: {@link openOnly}). */
const OPEN_ONLY: readonly string[] = ["inputSchema", "idleTimeoutMs"];

/**
 * The options a method's unknown-option hint lists: those it takes (not the open-only ones outside `open`,
 * not `approvedHash` in `open`, not `threadId` and `input` in `resume`).
 */
function optionsOf(method: string): ReadonlySet<string> {
  const refused =
    method === "open"
      ? ["approvedHash"]
      : method === "resume"
        ? [...OPEN_ONLY, "threadId", "input"]
        : OPEN_ONLY;
  return new Set([...RUN_OPTIONS].filter((name) => !refused.includes(name)));
}

/** Whether every item is a string, holes included (`some` and `every` pass over a sparse array's holes). */
function everyString(list: readonly unknown[]): boolean {
  for (let index = 0; index < list.length; index++) if (typeof list[index] !== "string") return false;
  return true;
}

/**
 * Checks what `summarize` cannot: `refs`, when given, is an array of strings (a lone string is not split),
 * and `format` is `markdown` or `json` (USAGE with the nearest one as hint).
 */
export function checkSummarizeOptions(options: SummarizeOptions | undefined): SummarizeOptions | undefined {
  const checked = checkOptionsObject(options, "summarize");
  if (checked === undefined) return undefined;
  refuseUnknownKeys(checked, SUMMARIZE_OPTIONS, "summarize");
  const refs: unknown = checked.refs;
  if (refs !== undefined && (!Array.isArray(refs) || !everyString(refs)))
    throw new ObeliskError("USAGE", 'refs must be an array of reference strings, e.g. ["†state.user"]');
  // an unknown format was rendered as markdown without a word ("JSON" gave markdown to a JSON.parse)
  const format: unknown = checked.format;
  if (format !== undefined && (typeof format !== "string" || !SUMMARY_FORMATS.has(format)))
    throw new ObeliskError(
      "USAGE",
      `summarize's format must be "markdown" or "json", not ${shownValue(format)}`,
      {
        hint:
          (typeof format === "string" ? didYouMean(format, SUMMARY_FORMATS) : undefined) ??
          'leave it out for markdown, or ask for "json"',
      },
    );
  return checked;
}

/**
 * True for an AbortSignal (or a look-alike from another realm: `aborted`, `addEventListener` and
 * `removeEventListener`, which the run calls when it ends).
 */
const isSignal = (value: unknown): boolean =>
  value instanceof AbortSignal ||
  (typeof value === "object" &&
    value !== null &&
    typeof (value as { aborted?: unknown }).aborted === "boolean" &&
    typeof (value as { addEventListener?: unknown }).addEventListener === "function" &&
    typeof (value as { removeEventListener?: unknown }).removeEventListener === "function");

/**
 * Checks the options of `run`, `start`, `resume`, `open` and `validate` that the engine reads itself (input
 * and context are copied and checked on their own): a wrong type is USAGE before anything is locked or
 * recorded, instead of a raw TypeError from deep inside a run or a thread no reference can name.
 */
export function checkRunOptions<T>(options: T, method: string, maxCalls: number): T {
  const where = `the options of ${method}`;
  if (readHostValue(where, () => checkOptionsObject(options, method)) === undefined) return options;
  readHostValue(where, () => refuseUnknownKeys(options as object, RUN_OPTIONS, method, optionsOf(method)));
  const given = knownOptions(options as Record<string, unknown>, method);
  if (method === "resume") refuseResumeTargets(given);
  const wrong = (name: string, want: string, hint?: string) =>
    new ObeliskError(
      "USAGE",
      `${name} must be ${want}, not ${describeValue(given[name])}`,
      hint === undefined ? {} : { hint },
    );
  const threadId = given.threadId;
  if (threadId !== undefined && (typeof threadId !== "string" || threadId.length === 0))
    throw wrong("threadId", "a non-empty string", THREAD_ID_HINT);
  if (given.approvedHash !== undefined && typeof given.approvedHash !== "string")
    throw wrong("approvedHash", "a string (the planHash validate returned)");
  if (given.signal !== undefined && !isSignal(given.signal))
    throw new ObeliskError("USAGE", `signal must be an AbortSignal, not ${describeValue(given.signal)}`, {
      hint: "pass an AbortController's signal or AbortSignal.timeout(ms); a look-alike needs aborted, addEventListener and removeEventListener",
    });
  if (given.failFast !== undefined && typeof given.failFast !== "boolean")
    throw wrong("failFast", "a boolean");
  // the ids are read once, here: the run reads them after its awaits (decision 0092), and no more of them
  // than a plan has calls (decision 0095: an array-like Proxy claiming 10⁹ ids was copied whole)
  const rerun = given.rerun;
  if (Array.isArray(rerun))
    given.rerun = readHostValue(`${method}'s option "rerun"`, () => copiedIds(rerun, maxCalls));
  checkRerunOption(given.rerun);
  if (given.onEvent !== undefined && typeof given.onEvent !== "function")
    throw wrong("onEvent", "a function (the observer)");
  if (method !== "open")
    for (const name of OPEN_ONLY) if (given[name] !== undefined) throw openOnly(name, method);
  const idle = given.idleTimeoutMs;
  if (idle !== undefined && !(typeof idle === "number" && idle >= 1 && idle <= MAX_TIMER_MS))
    throw wrong("idleTimeoutMs", `a number of ms from 1 to ${MAX_TIMER_MS}`);
  return given as T;
}

/**
 * The run options the host gave, read once into a plain object (own or inherited, undefined left out): a
 * getter or Proxy trap that throws is USAGE naming the option, and the run never reads the host's object again.
 */
function knownOptions(given: Record<string, unknown>, method: string): Record<string, unknown> {
  const plain: Record<string, unknown> = {};
  for (const name of RUN_OPTIONS) {
    const value = readHostValue(`${method}'s option "${name}"`, () => given[name]);
    if (value !== undefined) plain[name] = value;
  }
  return plain;
}

/**
 * USAGE for an option only `open` reads, given to another method, which would ignore it (decision 0030,
 * amended at stop 27): `idleTimeoutMs` closes an idle stream, and a batch run has no stream to close;
 * `inputSchema` is a streamed plan's (decision 0090): a whole plan declares its own in its document.
 */
function openOnly(name: string, method: string): ObeliskError {
  if (name === "inputSchema")
    return new ObeliskError(
      "USAGE",
      `inputSchema is an option of open (a streamed plan has no document to declare it in): ${method} would ignore it and check the input against the plan's own inputSchema only`,
      {
        hint: `put the schema in the plan document ({ type: "plan", inputSchema: {…}, plan: […] }) and leave it out of ${method}'s options, or stream the calls with engine.open({ inputSchema })`,
      },
    );
  return new ObeliskError(
    "USAGE",
    `${name} is an option of open (it closes a stream no call was added to for that long): ${method} has no stream and would ignore it`,
    { hint: `leave it out of ${method}'s options, or stream the calls with engine.open({ ${name} })` },
  );
}

/**
 * USAGE for `threadId` or `input` given to `resume`, which re-runs the recorded input on the recorded thread
 * and would ignore them (a host resuming "with a corrected input", or onto another thread, was not told).
 */
function refuseResumeTargets(given: Record<string, unknown>): void {
  const ignored = ["threadId", "input"].filter((name) => given[name] !== undefined);
  if (ignored.length === 0) return;
  throw new ObeliskError(
    "USAGE",
    `resume re-runs the recorded run's input on its recorded thread: it takes no ${ignored.join(" or ")}`,
    {
      hint: "leave them out of resume's options; to run the plan with another input or on another thread, send it with run()",
    },
  );
}

/** What a thread id is, for a refused one: any non-empty string names a thread. */
const THREAD_ID_HINT =
  'name the conversation or user the state belongs to, e.g. "user-42" (leave threadId out of run for the thread "default")';

/** A thread id as the engine's methods take it: a non-empty string (USAGE otherwise), as `run` checks it. */
export function requireThreadId(value: unknown): ThreadId {
  if (typeof value !== "string" || value.length === 0)
    throw new ObeliskError("USAGE", `the thread id must be a non-empty string, not ${describeValue(value)}`, {
      hint: THREAD_ID_HINT,
    });
  return asThreadId(value);
}

/**
 * `keepLastN`'s n as the stores take it: a non-negative integer or Infinity (USAGE otherwise), checked before
 * the thread is locked, so a bad n changes nothing.
 */
export function requireKeepCount(value: unknown): number {
  if (value === Number.POSITIVE_INFINITY || (Number.isInteger(value) && (value as number) >= 0))
    return value as number;
  throw new ObeliskError(
    "USAGE",
    `keepLastN needs a non-negative integer or Infinity, not ${typeof value === "number" ? value : describeValue(value)}`,
    { hint: "keepLastN(0) evicts every variable; keepLastN(Infinity) keeps them all" },
  );
}
