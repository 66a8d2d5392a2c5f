import {
  deepFreeze,
  FORBIDDEN_SEGMENTS,
  type JsonObject,
  type JsonValue,
  type Path,
  pathsOverlap,
  type Reference,
  setOwn,
  valueAtPath,
} from "@obelisk/core";
import type { StateWrite } from "@obelisk/state";
import type { ContextProbe } from "./decision-types.js";
import { DeferredAppends, writeAllInPlace } from "./working-state.js";

/** The key of an object for a top-level path segment, as `valueAtPath` reads it (undefined: none). */
function topKey(segment: string | number): string | undefined {
  const key = typeof segment === "number" ? (segment >= 0 ? String(segment) : undefined) : segment;
  return key === undefined || FORBIDDEN_SEGMENTS.has(key) ? undefined : key;
}

/**
 * The run's in-memory working copy of the context: input, state (updated in place from the same writes
 * that are committed), call outputs (in-plan and preloaded stored ones) and host kinds. Values from the
 * store, the input and tools are frozen; containers the runner created are not (see `working-state.ts`),
 * so `resolveParams` hands tools frozen copies of those.
 *
 * The state is the thread's frozen snapshot under an overlay of the top-level keys this run wrote: a run
 * costs what it writes, not a copy of every top-level key of a thread that has gathered thousands.
 */
export class WorkingContext implements ContextProbe {
  private readonly roots = new Map<string, JsonValue>();
  private readonly baseState: JsonObject;
  /**
   * Top-level keys written in this run (their values owned or frozen, see `working-state.ts`). No
   * prototype: a read is one lookup (a key absent reads `undefined`, which no JSON value is).
   */
  private readonly written = Object.create(null) as Record<string, JsonValue>;
  private readonly calls: Record<string, JsonValue> = Object.create(null) as Record<string, JsonValue>;
  /** Appends onto the snapshot's lists, applied when something reads or writes there (see `working-state.ts`). */
  private readonly appends = new DeferredAppends();

  /** Creates the working copy (values must already be frozen JSON). */
  constructor(input: JsonValue, state: JsonObject, extra: Readonly<Record<string, JsonValue>> = {}) {
    for (const [kind, value] of Object.entries(extra)) this.roots.set(kind, deepFreeze(value));
    this.roots.set("input", input);
    this.baseState = state;
    this.roots.set("calls", this.calls as JsonObject);
  }

  /**
   * The current state as one object (built on each read, in the snapshot's key order, keys new in this
   * run last; owned by the runner: do not hand it out without copying).
   */
  get state(): JsonObject {
    if (!this.appends.empty) this.appends.settle(this.written);
    const state: Record<string, JsonValue> = {};
    const base = this.baseState;
    const written = this.written;
    for (const key of Object.keys(base))
      setOwn(
        state,
        key,
        Object.hasOwn(written, key) ? (written[key] as JsonValue) : (base[key] as JsonValue),
      );
    for (const key of Object.keys(written))
      if (!Object.hasOwn(base, key)) setOwn(state, key, written[key] as JsonValue);
    return state;
  }

  /** The value at a path of the state, or `undefined` when there is none. */
  readonly stateAt = (path: Path): JsonValue | undefined => {
    if (path.length === 0) return this.state;
    const key = topKey(path[0] as string | number);
    if (key === undefined) return undefined;
    if (!this.appends.empty) this.appends.settle(this.written, path);
    // a written `null` is a value: only `undefined` means the run did not write the key
    const own = this.written[key];
    const top =
      own !== undefined ? own : Object.hasOwn(this.baseState, key) ? this.baseState[key] : undefined;
    return top === undefined ? undefined : valueAtPath(top, path, 1);
  };

  /** Applies committed writes to the state; returns a failure message if one cannot be applied. */
  write(writes: readonly StateWrite[]): string | undefined {
    const written = this.written;
    const base = this.baseState;
    if (this.holes !== undefined) this.fillHoles(writes);
    for (let at = 0; at < writes.length; at++) {
      const path = (writes[at] as StateWrite).path;
      if (path.length === 0) continue;
      // The snapshot's value of the key joins the overlay first: a write below it or an accumulating
      // method sees it exactly as it would in a full copy of the state.
      const key = String(path[0]);
      // the snapshot first: it is small or empty where the overlay holds every key this run wrote
      if (Object.hasOwn(base, key) && !Object.hasOwn(written, key))
        setOwn(written, key, base[key] as JsonValue);
    }
    return writeAllInPlace(written, writes, this.appends);
  }

  /** A write at, above or below a hole gives it a value again (or replaces what holds it). */
  private fillHoles(writes: readonly StateWrite[]): void {
    const holes = this.holes as Map<string, Path>;
    for (const write of writes)
      for (const [key, hole] of holes) if (pathsOverlap(write.path, hole)) holes.delete(key);
  }

  /** Records a call output (`†calls.<id>`). */
  setCallOutput(callId: string, value: JsonValue): void {
    this.calls[callId] = value;
  }

  /** True when a call output is known. */
  hasCallOutput(callId: string): boolean {
    return Object.hasOwn(this.calls, callId);
  }

  /** Evicted array elements (null holes) read by the plan, by their path's JSON, until this run writes them. */
  private holes: Map<string, Path> | undefined = undefined;

  /** Marks the null at `path` as an evicted array element: it reads as missing until written. */
  addHole(path: Path): void {
    this.holes ??= new Map();
    this.holes.set(JSON.stringify(path), path);
  }

  /** The referenced value, or `undefined` when it does not exist. */
  valueOf(reference: Reference): JsonValue | undefined {
    if (reference.kind !== "state") return valueAtPath(this.roots.get(reference.kind), reference.path);
    const value = this.stateAt(reference.path);
    return value === null && this.holes?.has(JSON.stringify(reference.path)) === true ? undefined : value;
  }

  /** True when the reference exists (existence, not truthiness). */
  exists(reference: Reference): boolean {
    return this.valueOf(reference) !== undefined;
  }
}
