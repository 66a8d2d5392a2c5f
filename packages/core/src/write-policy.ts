import { setOwn } from "./json-container.js";
import type { JsonArray, JsonObject, JsonValue } from "./json-value.js";
import { isKnownDeeplyFrozen } from "./value-deep-freeze.js";
import type { WriteJournal } from "./write-journal.js";

/** A container a write may change. */
export type WritableContainer = JsonValue[] | Record<string, JsonValue>;

/**
 * How the output engine (`writeOutput`) gets containers it may change: copy on write (every container on
 * the path is copied; inputs never change) or in place (unfrozen containers are owned and changed in
 * place, frozen ones are copied first). Internal to core.
 */
export interface WritePolicy {
  /** True when `container` may be changed in place. */
  owns(container: JsonArray | JsonObject): boolean;
  /** A changeable version of an array: itself when owned, else a shallow copy. */
  array(container: JsonArray): JsonValue[];
  /** A changeable version of an object: itself when owned, else a shallow copy (own keys, `__proto__` as data). */
  object(container: JsonObject): Record<string, JsonValue>;
  /** Sets a key or index of a changeable container (never through a setter). */
  put(target: WritableContainer, key: string | number, value: JsonValue): void;
  /** `existing` followed by `items`: appended in place when owned, else a new array. */
  append(existing: JsonArray, items: JsonArray): JsonArray;
}

/** Assigns without a setter: a `__proto__` key stays own data. */
function assign(target: WritableContainer, key: string | number, value: JsonValue): void {
  if (Array.isArray(target)) target[key as number] = value;
  else setOwn(target, key, value);
}

/**
 * Copy on write: every container on the path is a fresh shallow copy (the immutable `applyOutput`). Arrays
 * are copied with `concat`: V8 copies a frozen array (a snapshot's) about twice as fast as with `slice`,
 * and an append copied then pushed grew the copy's storage (a second copy): a push onto a frozen
 * 1,000,000-item array cost ~125 ms of CPU, `concat` ~40 (docs/performance/state.md, stop 30).
 */
export const COPY_ON_WRITE: WritePolicy = {
  owns: () => false,
  array: (container) => container.concat(),
  object: (container) => ({ ...container }),
  put: assign,
  // `items` is an array: concat appends its items (and no array among them is spread)
  append: (existing, items) => existing.concat(items),
};

/**
 * Not frozen. An extensible container is not frozen, and one known deeply frozen is, without asking
 * `Object.isFrozen`: that walks every key of a large object (V8's dictionary mode), and a thread's frozen
 * state root of 3,000 variables cost ~40 µs at the first write of every run (docs/performance/state.md,
 * stop 34).
 */
const isOwned = (container: JsonArray | JsonObject): boolean =>
  Object.isExtensible(container) || (!isKnownDeeplyFrozen(container) && !Object.isFrozen(container));

/**
 * In place: unfrozen containers are changed where they are, frozen ones copied; changes go to `journal`.
 * A class (methods on the prototype), so a commit's writes allocate one small object, not five closures.
 */
class InPlacePolicy implements WritePolicy {
  constructor(private readonly journal: WriteJournal | undefined) {}

  owns(container: JsonArray | JsonObject): boolean {
    return isOwned(container);
  }

  array(container: JsonArray): JsonValue[] {
    return isOwned(container) ? (container as JsonValue[]) : COPY_ON_WRITE.array(container);
  }

  object(container: JsonObject): Record<string, JsonValue> {
    return isOwned(container) ? (container as Record<string, JsonValue>) : { ...container };
  }

  put(target: WritableContainer, key: string | number, value: JsonValue): void {
    this.journal?.recordPut(target, key);
    assign(target, key, value);
  }

  append(existing: JsonArray, items: JsonArray): JsonArray {
    if (!isOwned(existing)) return COPY_ON_WRITE.append(existing, items);
    const target = existing as JsonValue[];
    this.journal?.recordLength(target);
    for (const item of items) target.push(item);
    return target;
  }
}

/** In place: unfrozen containers are changed where they are, frozen ones copied; changes go to `journal`. */
export function inPlacePolicy(journal: WriteJournal | undefined): WritePolicy {
  return new InPlacePolicy(journal);
}
