import type { StateWrite } from "../store-types.js";
import type { SqliteStatements } from "./sqlite-schema.js";
import type { ThreadModel } from "./thread-model.js";

const NONE: readonly string[] = Object.freeze([]);
/** At most this many references remembered per model with no tombstone below (then it starts over). */
const NOTHING_BELOW_MAX = 4096;

/**
 * The state tombstones the SQLite file holds strictly below a written path (`stateTombstonesBelow`: asked
 * while a model's thread has state tombstones), with what it learnt of each cached model.
 */
export class SqliteTombstonesBelow {
  /**
   * Per cached model, written references the file holds no state tombstone below. Only an eviction or a
   * reset adds tombstones: this store's forget the model's set; another connection's make the next commit
   * reload the model. A thread rewriting the same paths asks the file once per path, not once per write.
   */
  private readonly nothingBelow = new WeakMap<ThreadModel, Set<string>>();

  constructor(private readonly sql: SqliteStatements) {}

  /**
   * Two ranges of the tombstones' primary key, one per way a child's reference continues its parent's
   * (`.`, `[`); a reference found with none below is remembered (see {@link nothingBelow}).
   */
  find(model: ThreadModel, write: StateWrite): readonly string[] {
    const parent = write.reference;
    let known = this.nothingBelow.get(model);
    if (known?.has(parent)) return NONE;
    const id = model.threadId;
    const rows = this.sql.tombstonesBelow.all(
      id,
      `${parent}.`,
      `${parent}/`,
      id,
      `${parent}[`,
      `${parent}\\`,
    ) as { reference: string }[];
    if (rows.length > 0) return rows.map((row) => row.reference);
    if (known === undefined || known.size >= NOTHING_BELOW_MAX) {
      known = new Set();
      this.nothingBelow.set(model, known);
    }
    known.add(parent);
    return NONE;
  }

  /** Forgets what is known of a model's thread: this store evicted a state variable there (new tombstones). */
  forget(model: ThreadModel): void {
    this.nothingBelow.delete(model);
  }
}
