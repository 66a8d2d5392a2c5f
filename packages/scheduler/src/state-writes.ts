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

/**
 * Writes of a satisfied call that must be re-applied because their targets no longer hold the recorded
 * value (SPEC §7), by method: `set` — the value there differs; `merge` — some part of the recorded object
 * is not there; `assign` — some recorded key is missing or differs; `push` — no item equals the recorded
 * one; `concat` — some recorded item is in no place of the array; and any target that is missing. A
 * target an accumulating write found missing is being rebuilt: the later satisfied co-writers of that path
 * in this run (committed in plan order after it) re-apply theirs too, even where an equal item is already
 * back, so the rebuilt value is the one the plan made. `rebuilding` keeps those paths for the run.
 */
export function missingWrites(
  stateAt: StateReader,
  writes: readonly StateWrite[],
  rebuilding: Set<string>,
): StateWrite[] {
  return writes.filter((write) => {
    const current = stateAt(write.path);
    if (write.method === "set") return current === undefined || !sameJson(current, write.value);
    const key = JSON.stringify(write.path);
    if (current === undefined) {
      rebuilding.add(key);
      return true;
    }
    return rebuilding.has(key) || !holdsContribution(current, write.method, write.value);
  });
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
