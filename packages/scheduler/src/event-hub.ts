import type { RecordedError } from "@obelisk/state";
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
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const data = (error as { data?: unknown }).data;
    return {
      name: typeof error.name === "string" ? error.name : "Error",
      message: String(error.message),
      ...(typeof code === "string" ? { code } : fallbackCode === undefined ? {} : { code: fallbackCode }),
      ...(isJsonLike(data) ? { data: data as RecordedError["data"] & object } : {}),
    };
  }
  return {
    name: "Error",
    message: String(error),
    ...(fallbackCode === undefined ? {} : { code: fallbackCode }),
  };
}

/** A cheap JSON check for error data (plain data only; anything else is dropped). */
function isJsonLike(value: unknown): boolean {
  if (value === undefined) return false;
  try {
    return JSON.stringify(value) !== undefined;
  } catch {
    return false;
  }
}

/**
 * Delivers run events to observers. An observer that throws is reported with an `observer-error` event to
 * the other observers and never breaks the run.
 */
export class EventHub {
  private readonly observers: RunObserver[] = [];

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

  /** Emits one event to every observer. */
  emit(event: RunEvent): void {
    for (const observer of this.observers) {
      try {
        observer(event);
      } catch (error) {
        if (event.type === "observer-error") continue;
        this.reportFailure(observer, event, error);
      }
    }
  }

  private reportFailure(failed: RunObserver, event: RunEvent, error: unknown): void {
    const report: RunEvent = {
      type: "observer-error",
      runId: event.runId,
      at: event.at,
      eventType: event.type,
      error: toRecordedError(error),
    };
    for (const observer of this.observers) {
      if (observer === failed) continue;
      try {
        observer(report);
      } catch {
        // An observer failing on the failure report is ignored.
      }
    }
  }
}
