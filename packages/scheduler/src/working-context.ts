import { deepFreeze, type JsonObject, type JsonValue, type Reference, valueAtPath } from "@obelisk/core";
import type { StateWrite } from "@obelisk/state";
import type { ContextProbe } from "./decision-types.js";
import { ownedRoot, writeAllInPlace } from "./working-state.js";

/**
 * The run's in-memory working copy of the context: input, state (updated in place from the same writes
 * that are committed), call outputs (in-plan and preloaded stored ones) and host kinds. Values from the
 * store, the input and tools are frozen; containers the runner created are not (see `working-state.ts`),
 * so `resolveParams` hands tools frozen copies of those.
 */
export class WorkingContext implements ContextProbe {
  private readonly roots = new Map<string, JsonValue>();
  private readonly stateRoot: Record<string, JsonValue>;
  private readonly calls: Record<string, JsonValue> = Object.create(null) as Record<string, JsonValue>;

  /** Creates the working copy (values must already be frozen JSON). */
  constructor(input: JsonValue, state: JsonObject, extra: Readonly<Record<string, JsonValue>> = {}) {
    for (const [kind, value] of Object.entries(extra)) this.roots.set(kind, deepFreeze(value));
    this.roots.set("input", input);
    this.stateRoot = ownedRoot(state);
    this.roots.set("state", this.stateRoot);
    this.roots.set("calls", this.calls as JsonObject);
  }

  /** The current state (owned by the runner: do not hand it out without copying). */
  get state(): JsonObject {
    return this.stateRoot;
  }

  /** Applies committed writes to the state; returns a failure message if one cannot be applied. */
  write(writes: readonly StateWrite[]): string | undefined {
    return writeAllInPlace(this.stateRoot, writes);
  }

  /** Records a call output (`†calls.<id>`). */
  setCallOutput(callId: string, value: JsonValue): void {
    this.calls[callId] = value;
  }

  /** True when a call output is known. */
  hasCallOutput(callId: string): boolean {
    return Object.hasOwn(this.calls, callId);
  }

  /** The referenced value, or `undefined` when it does not exist. */
  valueOf(reference: Reference): JsonValue | undefined {
    return valueAtPath(this.roots.get(reference.kind), reference.path);
  }

  /** True when the reference exists (existence, not truthiness). */
  exists(reference: Reference): boolean {
    return valueAtPath(this.roots.get(reference.kind), reference.path) !== undefined;
  }
}
