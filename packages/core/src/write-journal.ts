import { defineOwn } from "./json-container.js";
import type { JsonValue } from "./json-value.js";

type Entry =
  | {
      readonly target: Record<string, JsonValue>;
      readonly key: string;
      readonly had: boolean;
      readonly previous: JsonValue | undefined;
    }
  | {
      readonly target: JsonValue[];
      readonly length: number;
      readonly index: number;
      readonly previous: JsonValue | undefined;
    };

/**
 * Records the in-place changes of `applyOutputInPlace` so they can be undone: a commit of several writes
 * (or one refused later, e.g. by a schema) rolls back to exactly the tree it started from.
 */
export class WriteJournal {
  private readonly entries: Entry[] = [];

  /** Number of recorded changes. */
  get size(): number {
    return this.entries.length;
  }

  /** Records the current content of `target[key]` before it is set. */
  recordPut(target: JsonValue[] | Record<string, JsonValue>, key: string | number): void {
    if (Array.isArray(target)) {
      const index = key as number;
      this.entries.push({ target, length: target.length, index, previous: target[index] });
    } else {
      const name = String(key);
      const had = Object.hasOwn(target, name);
      this.entries.push({ target, key: name, had, previous: had ? target[name] : undefined });
    }
  }

  /** Records an array's length before items are appended. */
  recordLength(target: JsonValue[]): void {
    this.entries.push({ target, length: target.length, index: -1, previous: undefined });
  }

  /** Undoes every recorded change, newest first, and empties the journal. */
  rollback(): void {
    for (let index = this.entries.length - 1; index >= 0; index--) {
      const entry = this.entries[index] as Entry;
      if ("key" in entry) {
        if (entry.had) defineOwn(entry.target, entry.key, entry.previous as JsonValue);
        else delete entry.target[entry.key];
      } else {
        if (entry.index >= 0 && entry.index < entry.length)
          entry.target[entry.index] = entry.previous as JsonValue;
        entry.target.length = entry.length;
      }
    }
    this.entries.length = 0;
  }

  /** Forgets the recorded changes (they are kept). */
  clear(): void {
    this.entries.length = 0;
  }
}
