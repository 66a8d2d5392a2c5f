import type { CompiledCall } from "@obelisk/compiler";
import {
  canonicalJson,
  isJsonArray,
  isJsonObject,
  type JsonArray,
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

/** What deciding a satisfied call's re-application needs to know about the run (one per run). */
export interface Reapplication {
  /**
   * Paths (JSON of the path) an accumulating write of this run re-created (found missing): the later
   * satisfied co-writers of such a path re-apply theirs too, so the rebuilt value is the one the plan made.
   */
  readonly rebuilding: Set<string>;
  /**
   * The items of arrays already scanned by a membership test, with how many items were read: an array at
   * a co-written path only grows during a run (its co-writers append, in plan order), so each item is read
   * once however many co-writers ask (2,000 `push` co-writers scanned the array 2,000 times: 8.7 s per
   * re-send). See {@link ItemIndex}.
   */
  readonly items: WeakMap<JsonArray, ItemIndex>;
}

/**
 * An array's items as a membership test reads them: the items themselves (a recorded value is most often
 * the very object the array holds: found without writing any JSON), and their canonical JSON, written only
 * once an item is not found itself (each item's once per run).
 */
interface ItemIndex {
  /** How many items `members` holds (the first ones). */
  count: number;
  readonly members: Set<JsonValue>;
  /** How many items `texts` holds the canonical JSON of (the first ones). */
  textCount: number;
  readonly texts: Set<string>;
}

/** A new run's {@link Reapplication}. */
export function newReapplication(): Reapplication {
  return { rebuilding: new Set(), items: new WeakMap() };
}

/**
 * Writes of a satisfied call that must be re-applied because their targets no longer hold the recorded
 * value (SPEC §7): any target that is missing, or being rebuilt in this run; a `set` target whose value
 * differs; `merge` — some part of the recorded object is not there; `assign` — some recorded key is
 * missing or differs; `push` — no item equals the recorded one; `concat` — some recorded item is in no
 * place of the array. Each write is judged on its own, in plan order, in batch and streaming alike: when
 * co-writers `merge` different values into one key, the earlier ones are re-applied on a re-send and the
 * last one restores its value after them (the state ends as the plan made it, at the price of those
 * writes). With `kept`, a target that holds another value is not re-applied (see {@link keptChanged});
 * without, a `set` target that held another value is named in `replaced` (the outcome's reason says so).
 */
export function missingWrites(
  stateAt: StateReader,
  writes: readonly StateWrite[],
  reapplication: Reapplication,
  kept?: string[],
  replaced?: string[],
): StateWrite[] {
  return writes.filter((write) => {
    const current = stateAt(write.path);
    if (write.method === "set") {
      if (current === undefined) return true;
      if (sameJson(current, write.value) || keptChanged(write, kept)) return false;
      replaced?.push(write.reference);
      return true;
    }
    const key = JSON.stringify(write.path);
    if (current === undefined) {
      reapplication.rebuilding.add(key);
      return true;
    }
    if (reapplication.rebuilding.has(key)) return true;
    return !holdsContribution(current, write.method, write.value, reapplication) && !keptChanged(write, kept);
  });
}

/**
 * With `kept` (a resumed call that had completed before the interruption, decision 0043): a target that
 * holds something, but not the recorded write, was changed after it by another run or a host edit — it is
 * left as it is (named in `kept`) rather than reverted. Without: false (re-applied, SPEC §7).
 */
function keptChanged(write: StateWrite, kept: string[] | undefined): boolean {
  if (kept === undefined) return false;
  kept.push(write.reference);
  return true;
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

/**
 * Equal JSON: the same value at once (a satisfied call's recorded value is most often the very object its
 * target holds: a 9.5 MB value was written out twice to find it equal to itself), else by canonical JSON.
 */
const sameJson = (a: JsonValue, b: JsonValue): boolean => a === b || canonicalJson(a) === canonicalJson(b);

/** True when `current` still holds what an accumulating write of `value` contributed. */
function holdsContribution(
  current: JsonValue,
  method: OutputMethod,
  value: JsonValue,
  reapplication: Reapplication,
): boolean {
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
      return isJsonArray(current) && holdsItem(current, value, reapplication);
    case "concat": {
      if (!isJsonArray(current) || !isJsonArray(value)) return false;
      return value.every((wanted) => holdsItem(current, wanted, reapplication));
    }
    default:
      return sameJson(current, value);
  }
}

/**
 * True when some item of `array` equals `wanted`: itself among the items (a string or number by value: the
 * same JSON), else its canonical JSON among theirs. Each item is read once per run either way (see
 * {@link Reapplication.items}).
 */
function holdsItem(array: JsonArray, wanted: JsonValue, reapplication: Reapplication): boolean {
  let index = reapplication.items.get(array);
  if (index === undefined || index.count > array.length) {
    index = { count: 0, members: new Set(), textCount: 0, texts: new Set() };
    reapplication.items.set(array, index);
  }
  for (; index.count < array.length; index.count++) index.members.add(array[index.count] as JsonValue);
  if (index.members.has(wanted)) return true;
  for (; index.textCount < array.length; index.textCount++)
    index.texts.add(canonicalJson(array[index.textCount] as JsonValue));
  return index.texts.has(canonicalJson(wanted));
}

/** `value`'s objects are in `current` key by key (as a deep merge leaves them); anything else is equal. */
function containsDeep(current: JsonValue, value: JsonValue): boolean {
  if (current === value) return true;
  if (!isJsonObject(value) || !isJsonObject(current)) return sameJson(current, value);
  return Object.keys(value).every(
    (key) => Object.hasOwn(current, key) && containsDeep(current[key] as JsonValue, value[key] as JsonValue),
  );
}

/** Reads the run's current state at a path (`undefined`: nothing there). */
export type StateReader = (path: Path) => JsonValue | undefined;
