import { getAtPath, type JsonObject, type JsonValue, type Reference } from "@obelisk/core";
import type { ContextProbe } from "./decision-types.js";

/** Result of reading a reference: found with a value, or missing. */
export type ReadResult = { readonly found: true; readonly value: JsonValue } | { readonly found: false };

/**
 * The run's in-memory working copy of the context: input, state (updated from the same writes that are
 * committed), call outputs (in-plan and preloaded stored ones) and host kinds. Every value in it is frozen,
 * so handing sub-values to tools is safe without copying.
 */
export class WorkingContext implements ContextProbe {
  private readonly roots = new Map<string, JsonValue>();
  private readonly calls: Record<string, JsonValue> = Object.create(null) as Record<string, JsonValue>;

  /** Creates the working copy (values must already be frozen JSON). */
  constructor(input: JsonValue, state: JsonObject, extra: Readonly<Record<string, JsonValue>> = {}) {
    for (const [kind, value] of Object.entries(extra)) this.roots.set(kind, value);
    this.roots.set("input", input);
    this.roots.set("state", state);
    this.roots.set("calls", this.calls as JsonObject);
  }

  /** The current state. */
  get state(): JsonObject {
    return this.roots.get("state") as JsonObject;
  }

  /** Replaces the state after a commit. */
  setState(state: JsonObject): void {
    this.roots.set("state", state);
  }

  /** Records a call output (`†calls.<id>`). */
  setCallOutput(callId: string, value: JsonValue): void {
    this.calls[callId] = value;
  }

  /** True when a call output is known. */
  hasCallOutput(callId: string): boolean {
    return Object.hasOwn(this.calls, callId);
  }

  /** Reads a reference. */
  read(reference: Reference): ReadResult {
    return getAtPath(this.roots.get(reference.kind), reference.path);
  }

  /** True when the reference exists (existence, not truthiness). */
  exists(reference: Reference): boolean {
    return getAtPath(this.roots.get(reference.kind), reference.path).found;
  }
}
