import { type JsonObject, toJsonValue } from "@obelisk/core";
import type { CallReport, ExecutionResult } from "./runner-types.js";
import type { WorkingContext } from "./working-context.js";

/**
 * A finished execution. `state` is a copy of the working state made on first read (the engine reads the
 * store's state instead, so usually never). A class, not an object literal with `get state()`: V8 keeps an
 * own accessor's getter in old-generation memory, and a fresh closure there keeps the whole working state
 * alive through every scavenge after the run until the next full collection (docs/performance/
 * compiler.md, stop 35); a prototype getter is one object for every run.
 */
export class FinishedExecution implements ExecutionResult {
  readonly #context: WorkingContext;
  #copy: JsonObject | undefined;

  /** The result of a run that ended with `status` after `durationMs`, its reports in plan order. */
  constructor(
    readonly status: ExecutionResult["status"],
    readonly calls: readonly CallReport[],
    context: WorkingContext,
    readonly durationMs: number,
  ) {
    this.#context = context;
  }

  /** The working state at the end (equal to the committed state), copied on first read. */
  get state(): JsonObject {
    if (this.#copy === undefined) {
      const working = this.#context.state;
      const json = toJsonValue(working, { maxBytes: Number.MAX_SAFE_INTEGER });
      this.#copy = (json.ok ? json.value : working) as JsonObject;
    }
    return this.#copy;
  }
}
