import { asThreadId, keepShapes, type Path } from "@obelisk/core";
import { createThreadModel, type ThreadModel, type VariableEntry } from "./thread-model.js";

/** True when `prefix` is a strict prefix of `path`. */
export function isStrictPrefix(prefix: Path, path: Path): boolean {
  if (prefix.length >= path.length) return false;
  for (let index = 0; index < prefix.length; index++) if (prefix[index] !== path[index]) return false;
  return true;
}

const NONE: readonly VariableEntry[] = Object.freeze([]);
const NO_REFERENCES: string[] = [];
const NO_ENTRIES: (VariableEntry | null)[] = [];
/** Beyond this many pending changes, lookups go through a Map instead of a linear search. */
const LINEAR_MAX = 16;

/**
 * Pending variable changes on top of a thread model, so a planner can look variables up as if its
 * earlier changes were applied, without touching the model until the change is persisted.
 * A commit changes a few variables: pending changes are two parallel arrays (references and entries,
 * `null` for a removal) searched linearly, which allocates far less than a Map per commit (a Map index
 * is added once a commit changes more than {@link LINEAR_MAX} variables).
 */
export class ModelOverlay {
  // created with their first element (an empty array's first push allocates room for 17)
  private references: string[] = NO_REFERENCES;
  private entries: (VariableEntry | null)[] = NO_ENTRIES;
  private positions: Map<string, number> | undefined;

  constructor(private readonly model: ThreadModel) {}

  /** The variable at a reference, as changed so far. */
  get(reference: string): VariableEntry | undefined {
    const index = this.indexOf(reference);
    if (index < 0) return this.model.variables.get(reference);
    return this.entries[index] ?? undefined;
  }

  /** Creates or updates a variable. */
  put(entry: VariableEntry): void {
    this.set(entry.meta.reference, entry);
  }

  /** Removes a variable. */
  remove(reference: string): void {
    this.set(reference, null);
  }

  /** State variables strictly below `path` (a shared empty array when there are none). */
  descendants(path: Path): readonly VariableEntry[] {
    return this.collect(this.model.trie.descendants(path), path, true);
  }

  /** State variables strictly above `path` (a shared empty array when there are none). */
  ancestors(path: Path): readonly VariableEntry[] {
    return this.collect(this.model.trie.ancestors(path), path, false);
  }

  /** Final upserts (in the order first changed) and removed model entries. */
  result(): { upserts: readonly VariableEntry[]; removed: readonly VariableEntry[] } {
    // the common case, only upserts: the entries array is the list (the overlay is done with it)
    if (this.entries.length === 0) return { upserts: NONE, removed: NONE };
    if (!this.entries.includes(null)) return { upserts: this.entries as VariableEntry[], removed: NONE };
    let upserts: VariableEntry[] | undefined;
    let removed: VariableEntry[] | undefined;
    for (let index = 0; index < this.references.length; index++) {
      const entry = this.entries[index];
      if (entry !== null && entry !== undefined) {
        if (upserts === undefined) upserts = [entry];
        else upserts.push(entry);
      } else {
        const original = this.model.variables.get(this.references[index] as string);
        if (original === undefined) continue;
        if (removed === undefined) removed = [original];
        else removed.push(original);
      }
    }
    return { upserts: upserts ?? NONE, removed: removed ?? NONE };
  }

  private indexOf(reference: string): number {
    if (this.positions === undefined) return this.references.indexOf(reference);
    return this.positions.get(reference) ?? -1;
  }

  private set(reference: string, entry: VariableEntry | null): void {
    const index = this.indexOf(reference);
    if (index >= 0) {
      this.entries[index] = entry;
      return;
    }
    if (this.references.length === 0) {
      this.references = [reference];
      this.entries = [entry];
    } else {
      this.references.push(reference);
      this.entries.push(entry);
    }
    if (this.positions !== undefined) this.positions.set(reference, this.references.length - 1);
    else if (this.references.length > LINEAR_MAX)
      this.positions = new Map(this.references.map((known, position) => [known, position]));
  }

  /**
   * The entries (as changed so far) of the model's references, then the pending state entries below
   * (`below`) or above `path` that the model does not list, each once.
   */
  private collect(references: readonly string[], path: Path, below: boolean): readonly VariableEntry[] {
    let found: VariableEntry[] | undefined;
    for (let index = 0; index < references.length; index++) {
      const entry = this.get(references[index] as string);
      if (entry === undefined) continue;
      if (found === undefined) found = [entry];
      else found.push(entry);
    }
    for (let index = 0; index < this.entries.length; index++) {
      const entry = this.entries[index];
      if (entry === null || entry === undefined || entry.meta.scope !== "state") continue;
      if (!(below ? isStrictPrefix(path, entry.path) : isStrictPrefix(entry.path, path))) continue;
      if (references.includes(this.references[index] as string)) continue;
      if (found === undefined) found = [entry];
      else found.push(entry);
    }
    return found ?? NONE;
  }
}

// Every overlay lives for one commit: one kept instance keeps the class's hidden class (see keepShapes).
keepShapes(new ModelOverlay(createThreadModel({ threadId: asThreadId("shape"), createdAt: "" }, undefined)));
