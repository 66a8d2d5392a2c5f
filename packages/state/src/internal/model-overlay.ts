import type { Path } from "@obelisk/core";
import type { ThreadModel, VariableEntry } from "./thread-model.js";

/** True when `prefix` is a strict prefix of `path`. */
export function isStrictPrefix(prefix: Path, path: Path): boolean {
  if (prefix.length >= path.length) return false;
  for (let index = 0; index < prefix.length; index++) if (prefix[index] !== path[index]) return false;
  return true;
}

/**
 * Pending variable changes on top of a thread model, so a planner can look variables up as if its
 * earlier changes were applied, without touching the model until the change is persisted.
 */
export class ModelOverlay {
  private readonly pending = new Map<string, VariableEntry | null>();

  constructor(private readonly model: ThreadModel) {}

  /** The variable at a reference, as changed so far. */
  get(reference: string): VariableEntry | undefined {
    const pending = this.pending.get(reference);
    if (pending === null) return undefined;
    return pending ?? this.model.variables.get(reference);
  }

  /** Creates or updates a variable. */
  put(entry: VariableEntry): void {
    this.pending.set(entry.meta.reference, entry);
  }

  /** Removes a variable. */
  remove(reference: string): void {
    this.pending.set(reference, null);
  }

  /** State variables strictly below `path`. */
  descendants(path: Path): VariableEntry[] {
    return this.collect(this.model.trie.descendants(path), (entry) => isStrictPrefix(path, entry.path));
  }

  /** State variables strictly above `path`. */
  ancestors(path: Path): VariableEntry[] {
    return this.collect(this.model.trie.ancestors(path), (entry) => isStrictPrefix(entry.path, path));
  }

  /** Final upserts and removed model entries. */
  result(): { upserts: VariableEntry[]; removed: VariableEntry[] } {
    const upserts: VariableEntry[] = [];
    const removed: VariableEntry[] = [];
    for (const [reference, entry] of this.pending) {
      if (entry !== null) upserts.push(entry);
      else {
        const original = this.model.variables.get(reference);
        if (original !== undefined) removed.push(original);
      }
    }
    return { upserts, removed };
  }

  private collect(
    references: readonly string[],
    matches: (entry: VariableEntry) => boolean,
  ): VariableEntry[] {
    if (references.length === 0 && this.pending.size === 0) return [];
    const found = new Map<string, VariableEntry>();
    for (const reference of references) {
      const entry = this.get(reference);
      if (entry !== undefined) found.set(reference, entry);
    }
    for (const [reference, entry] of this.pending) {
      if (entry !== null && entry.meta.scope === "state" && matches(entry)) found.set(reference, entry);
    }
    return [...found.values()];
  }
}
