import type { CompiledCall } from "@obelisk/compiler";
import {
  canonicalJson,
  isJsonArray,
  isJsonObject,
  type JsonValue,
  type OutputMethod,
  type Path,
} from "@obelisk/core";
import type { StateWrite } from "@obelisk/state";

/** The state writes of a value written to one alternative of a call's output path (fan-out: every target). */
export function writesFor(call: CompiledCall, alternative: number, value: JsonValue): StateWrite[] {
  const targets = call.outputPath?.alternatives[alternative] ?? [];
  const method = call.outputMethod;
  // The common single state target gets an exact-size list (a list grown by push reserves 17 places).
  const only = targets.length === 1 ? targets[0] : undefined;
  if (only !== undefined && only.kind === "state")
    return [{ path: only.path, method, value, reference: only.text }];
  const writes: StateWrite[] = [];
  for (const target of targets) {
    if (target.kind !== "state") continue;
    writes.push({ path: target.path, method, value, reference: target.text });
  }
  return writes;
}

/** What deciding a satisfied call's re-application needs to know about the run. */
export interface Reapplication {
  /**
   * Paths (JSON of the path) an accumulating write of this run re-created (found missing): the later
   * satisfied co-writers of such a path re-apply theirs too, so the rebuilt value is the one the plan made.
   */
  readonly rebuilding: Set<string>;
  /** True when other calls of the plan accumulate into the target `text` too. */
  coWritten(text: string): boolean;
}

/**
 * Writes of a satisfied call that must be re-applied because their targets no longer hold the recorded
 * value (SPEC §7): any target that is missing, or being rebuilt in this run; a `set` target whose value
 * differs; and, for an accumulating write that no other call of the plan shares its path with, a target
 * that lost its contribution — `merge`: some part of the recorded object is not there; `assign`: some
 * recorded key is missing or differs; `push`: no item equals the recorded one; `concat`: some recorded item
 * is in no place of the array. Co-writers' contributions overlap by design (a later `merge` of the same key
 * replaces an earlier one's), so a shared path that exists is taken as held: judging each alone would
 * re-write the state on every re-send, and cost a scan of the array per co-writer.
 */
export function missingWrites(
  stateAt: StateReader,
  writes: readonly StateWrite[],
  reapplication: Reapplication,
): StateWrite[] {
  return writes.filter((write) => {
    const current = stateAt(write.path);
    if (write.method === "set") return current === undefined || !sameJson(current, write.value);
    const key = JSON.stringify(write.path);
    if (current === undefined) {
      reapplication.rebuilding.add(key);
      return true;
    }
    if (reapplication.rebuilding.has(key)) return true;
    return (
      !reapplication.coWritten(write.reference) && !holdsContribution(current, write.method, write.value)
    );
  });
}

/**
 * Marks the paths an executed call's accumulating writes re-create (missing before it): the satisfied
 * co-writers after it re-apply theirs (see {@link Reapplication.rebuilding}).
 */
export function noteRebuilt(
  stateAt: StateReader,
  writes: readonly StateWrite[],
  reapplication: Reapplication,
): void {
  for (const write of writes)
    if (write.method !== "set" && stateAt(write.path) === undefined)
      reapplication.rebuilding.add(JSON.stringify(write.path));
}

const sameJson = (a: JsonValue, b: JsonValue): boolean => canonicalJson(a) === canonicalJson(b);

/** True when `current` still holds what an accumulating write of `value` contributed. */
function holdsContribution(current: JsonValue, method: OutputMethod, value: JsonValue): boolean {
  switch (method) {
    case "merge":
      return containsDeep(current, value);
    case "assign":
      return (
        isJsonObject(current) &&
        isJsonObject(value) &&
        Object.keys(value).every(
          (key) =>
            Object.hasOwn(current, key) && sameJson(current[key] as JsonValue, value[key] as JsonValue),
        )
      );
    case "push":
      return isJsonArray(current) && current.some((item) => sameJson(item, value));
    case "concat":
      return (
        isJsonArray(current) &&
        isJsonArray(value) &&
        value.every((wanted) => current.some((item) => sameJson(item, wanted)))
      );
    default:
      return sameJson(current, value);
  }
}

/** `value`'s objects are in `current` key by key (as a deep merge leaves them); anything else is equal. */
function containsDeep(current: JsonValue, value: JsonValue): boolean {
  if (!isJsonObject(value) || !isJsonObject(current)) return sameJson(current, value);
  return Object.keys(value).every(
    (key) => Object.hasOwn(current, key) && containsDeep(current[key] as JsonValue, value[key] as JsonValue),
  );
}

/** Reads the run's current state at a path (`undefined`: nothing there). */
export type StateReader = (path: Path) => JsonValue | undefined;
