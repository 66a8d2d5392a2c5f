import { isBranchResult } from "@obelisk/compiler";
import { cutText, type JsonValue, toJsonValue } from "@obelisk/core";
import type { RecordedError } from "@obelisk/state";
import { isThenable } from "./awaitable.js";
import type { RunEvent, RunObserver } from "./run-event.js";

const UNINSPECTABLE = "a value that cannot be inspected was thrown";

/**
 * Converts anything thrown into a recorded error. A value that throws while being inspected (a revoked
 * `Proxy`, a throwing getter or `toString`) becomes a plain `Error` (bug B4): never throws.
 */
export function toRecordedError(error: unknown, fallbackCode?: string): RecordedError {
  try {
    return inspectError(error, fallbackCode);
  } catch {
    return {
      name: "Error",
      message: UNINSPECTABLE,
      ...(fallbackCode === undefined ? {} : { code: fallbackCode }),
    };
  }
}

function inspectError(error: unknown, fallbackCode: string | undefined): RecordedError {
  if (isBranchResult(error))
    return withCode(
      { name: "Error", message: "the tool threw a branch() result: return it to choose an alternative" },
      undefined,
      fallbackCode,
    );
  // An Error, or a plain object shaped like one (`{ name?, message, code?, data? }`: what some SDKs and
  // JSON-RPC clients throw, and the failure-branch shape itself), keeps its fields.
  if (error instanceof Error || hasMessage(error)) {
    const { name, message, code, data } = error as {
      name?: unknown;
      message: unknown;
      code?: unknown;
      data?: unknown;
    };
    // only data that is JSON as it is (a Date, NaN, a function, a cycle: dropped): the error is recorded
    // and routed to a failure branch as JSON, and must never fail on its way there
    const json = data === undefined ? undefined : toJsonValue(data);
    const recorded: RecordedError = {
      name: typeof name === "string" ? name : "Error",
      message: String(message),
    };
    return withCode(recorded, code, fallbackCode, json?.ok === true ? json.value : undefined);
  }
  return withCode({ name: "Error", message: describeThrown(error) }, undefined, fallbackCode);
}

const hasMessage = (value: unknown): value is { message: string } =>
  typeof value === "object" && value !== null && typeof (value as { message?: unknown }).message === "string";

/** Adds the error's own string code (else the fallback) and its JSON data, in the record's key order. */
function withCode(
  recorded: { name: string; message: string },
  code: unknown,
  fallbackCode: string | undefined,
  data?: JsonValue,
): RecordedError {
  // a numeric code (an HTTP status, a JSON-RPC error code) is kept as its decimal text: codes are strings
  const chosen =
    typeof code === "string"
      ? code
      : typeof code === "number" && Number.isFinite(code)
        ? String(code)
        : fallbackCode;
  return {
    ...recorded,
    ...(chosen === undefined ? {} : { code: chosen }),
    ...(data === undefined ? {} : { data }),
  };
}

/** Most characters of a thrown non-error value's JSON kept in the message (and bytes looked at). */
const THROWN_TEXT_CHARS = 200;
const THROWN_JSON_BYTES = 4_096;

/** Most keys named for a thrown object too large to show. */
const THROWN_KEYS = 10;

/** `: keys a, b, …` of a thrown object (its own enumerable keys, the first few): what it was, at least. */
function keysOf(value: object): string {
  if (Array.isArray(value)) return ` (an array of ${value.length} items)`;
  const keys = Object.keys(value);
  if (keys.length === 0) return "";
  // each key as JSON (quoted, control characters escaped), cut without splitting a surrogate pair
  const shown = keys.slice(0, THROWN_KEYS).map((key) => JSON.stringify(cutText(key, 40)));
  return ` with keys ${shown.join(", ")}${keys.length > THROWN_KEYS ? ", …" : ""}`;
}

/** A thrown value that is no error: its compact JSON (cut), so `{ status: 429 }` does not read "[object Object]". */
function describeThrown(value: unknown): string {
  if (typeof value !== "object" || value === null) return String(value);
  const json = toJsonValue(value, { maxBytes: THROWN_JSON_BYTES });
  if (!json.ok) return `a non-error object was thrown (not JSON, or too large to show)${keysOf(value)}`;
  const text = JSON.stringify(json.value);
  if (text.length <= THROWN_TEXT_CHARS) return `a non-error value was thrown: ${text}`;
  return `a non-error value was thrown: ${cutText(text, THROWN_TEXT_CHARS)}`;
}

/** The code of the process warning for an observer failure no other observer took (`process.emitWarning`). */
const OBSERVER_WARNING_CODE = "OBELISK_OBSERVER_ERROR";

/** What the hub keeps of one run's observer failures. */
interface RunWatch {
  /** Set once the run's `run-end` is delivered: a failure reported later is a process warning. */
  ended: boolean;
  /** The observers already warned about in this run (one warning per run and observer). */
  warned: Set<RunObserver> | undefined;
}

/**
 * Delivers run events to observers. An observer that throws is reported with an `observer-error` event to
 * the other observers and never breaks the run. An observer that returns a promise (an `async` function)
 * is not awaited: events stay synchronous and in order; if the promise rejects, the rejection is reported
 * the same way when it happens and is never left unhandled. `run-end` stays the last event of a run: a
 * failure reported after it (an async observer rejecting late, an observer throwing on `run-end`) — or one
 * no other observer took (a lone exporter) — is a process warning instead, code `OBELISK_OBSERVER_ERROR`,
 * at most one per run and observer.
 */
export class EventHub {
  private readonly observers: RunObserver[] = [];
  /** Runs with an observer failure or an async observer, until their `run-end`. */
  private readonly runs = new Map<string, RunWatch>();

  /** True when nobody listens (emitters skip building events). */
  get idle(): boolean {
    return this.observers.length === 0;
  }

  /** Adds an observer; returns a function that removes it. */
  subscribe(observer: RunObserver): () => void {
    this.observers.push(observer);
    return () => {
      const index = this.observers.indexOf(observer);
      if (index >= 0) this.observers.splice(index, 1);
    };
  }

  /**
   * Emits one event to every observer. An observer's failure is reported once every observer has had the
   * event, so no observer sees the `observer-error` before the event it is about.
   */
  emit(event: RunEvent): void {
    let failures: { observer: RunObserver; error: unknown }[] | undefined;
    for (const observer of this.observers) {
      let returned: unknown;
      try {
        returned = observer(event);
      } catch (error) {
        if (event.type !== "observer-error") {
          failures ??= [];
          failures.push({ observer, error });
        }
        continue;
      }
      if (returned !== undefined) this.watch(returned, observer, event);
    }
    const ended = event.type === "run-end" ? this.endRun(event.runId) : undefined;
    if (failures !== undefined) {
      const run = ended ?? this.watchOf(event.runId);
      for (const { observer, error } of failures) this.reportFailure(run, observer, event, error);
    }
  }

  /** The failure bookkeeping of a run (created on first use). */
  private watchOf(runId: string): RunWatch {
    let run = this.runs.get(runId);
    if (run === undefined) {
      run = { ended: false, warned: undefined };
      this.runs.set(runId, run);
    }
    return run;
  }

  /** Marks a run ended (its failures from now on are warnings) and forgets it. */
  private endRun(runId: string): RunWatch {
    const run = this.runs.get(runId) ?? { ended: true, warned: undefined };
    run.ended = true;
    this.runs.delete(runId);
    return run;
  }

  /** Reports the rejection of a promise an observer returned (ignored for `observer-error` events). */
  private watch(returned: unknown, observer: RunObserver, event: RunEvent): void {
    if (event.type === "observer-error") {
      settleQuietly(returned, undefined);
      return;
    }
    const run = this.watchOf(event.runId);
    settleQuietly(returned, (error: unknown) => this.reportFailure(run, observer, event, error));
  }

  /**
   * Reports an observer's failure as an `observer-error` event to the other observers; a process warning
   * when the run has ended or none of them took the report without throwing.
   */
  private reportFailure(run: RunWatch, failed: RunObserver, event: RunEvent, error: unknown): void {
    const recorded = toRecordedError(error);
    if (run.ended) {
      warnOnce(run, failed, event, recorded);
      return;
    }
    const report: RunEvent = {
      type: "observer-error",
      runId: event.runId,
      threadId: event.threadId,
      at: event.at,
      eventType: event.type,
      error: recorded,
    };
    let taken = false;
    for (const observer of this.observers) {
      if (observer === failed) continue;
      try {
        const returned: unknown = observer(report);
        if (returned !== undefined) settleQuietly(returned, undefined);
        taken = true;
      } catch {
        // An observer failing on the failure report is ignored (it did not take it).
      }
    }
    if (!taken) warnOnce(run, failed, event, recorded);
  }
}

/** Emits the process warning for `observer`'s failure, unless this run already warned about it. */
function warnOnce(run: RunWatch, observer: RunObserver, event: RunEvent, error: RecordedError): void {
  run.warned ??= new Set();
  if (run.warned.has(observer)) return;
  run.warned.add(observer);
  const code = error.code === undefined ? "" : ` (${error.code})`;
  process.emitWarning(
    `an observer of run ${event.runId} failed on its ${event.type} event: ${error.name}${code}: ${cutText(error.message, 500)} (further failures of this observer in this run are not warned about)`,
    { type: "ObeliskWarning", code: OBSERVER_WARNING_CODE },
  );
}

/**
 * Handles a value an observer returned: when it is a thenable, its rejection (or a `then` that throws)
 * goes to `onRejected`, or is dropped; it never becomes an unhandled rejection.
 */
function settleQuietly(returned: unknown, onRejected: ((error: unknown) => void) | undefined): void {
  let thenable: boolean;
  try {
    thenable = isThenable(returned);
  } catch (error) {
    onRejected?.(error);
    return;
  }
  if (!thenable) return;
  Promise.resolve(returned as PromiseLike<unknown>).then(undefined, (error: unknown) => onRejected?.(error));
}
