import { defineOwn } from "./json-container.js";
import type { JsonValue } from "./json-value.js";

/** Slots per recorded change in the flat record: target, key or index, `had` or length, previous value. */
const SLOTS = 4;
/** A journal keeps up to this many slots between uses; a larger one (a huge commit) is released. */
const KEEP_SLOTS = 4096;

/**
 * Records the in-place changes of `applyOutputInPlace` so they can be undone: a commit of several writes
 * (or one refused later, e.g. by a schema) rolls back to exactly the tree it started from.
 * Changes are kept in one flat array (four slots each) that keeps its capacity, so a journal reused across
 * commits (`clear` after each) allocates nothing per change once warm. Per change: an object key (`target`, key, whether it was
 * own, previous value), an array index (`target`, index, length before, previous value) or an array's
 * length before an append (`target`, -1, length, undefined).
 */
export class WriteJournal {
  private readonly slots: unknown[] = [];
  /** Slots in use (the array keeps its length: setting it to 0 would drop its capacity). */
  private used = 0;

  /** Number of recorded changes. */
  get size(): number {
    return this.used / SLOTS;
  }

  private record(target: unknown, key: unknown, aux: unknown, previous: unknown): void {
    const slots = this.slots;
    const at = this.used;
    if (at === slots.length) slots.push(target, key, aux, previous);
    else {
      slots[at] = target;
      slots[at + 1] = key;
      slots[at + 2] = aux;
      slots[at + 3] = previous;
    }
    this.used = at + SLOTS;
  }

  /** Records the current content of `target[key]` before it is set. */
  recordPut(target: JsonValue[] | Record<string, JsonValue>, key: string | number): void {
    if (Array.isArray(target)) {
      const index = key as number;
      this.record(target, index, target.length, target[index]);
    } else {
      const name = String(key);
      const had = Object.hasOwn(target, name);
      this.record(target, name, had, had ? target[name] : undefined);
    }
  }

  /** Records an array's length before items are appended. */
  recordLength(target: JsonValue[]): void {
    this.record(target, -1, target.length, undefined);
  }

  /** Undoes every recorded change, newest first, and empties the journal. */
  rollback(): void {
    const slots = this.slots;
    for (let at = this.used - SLOTS; at >= 0; at -= SLOTS) {
      const target = slots[at] as JsonValue[] | Record<string, JsonValue>;
      const previous = slots[at + 3] as JsonValue;
      if (Array.isArray(target)) {
        const index = slots[at + 1] as number;
        const length = slots[at + 2] as number;
        if (index >= 0 && index < length) target[index] = previous;
        target.length = length;
      } else {
        const key = slots[at + 1] as string;
        if (slots[at + 2] === true) defineOwn(target, key, previous);
        else delete target[key];
      }
    }
    this.clear();
  }

  /** Forgets the recorded changes (they are kept); the slots no longer reference the changed containers. */
  clear(): void {
    if (this.slots.length > KEEP_SLOTS) this.slots.length = 0;
    else this.slots.fill(undefined, 0, this.used);
    this.used = 0;
  }
}
