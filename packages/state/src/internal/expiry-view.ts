import type { ThreadId } from "@obelisk/core";
import type { Tombstone } from "../store-types.js";
import type { ThreadChange, ThreadModel } from "./thread-model.js";

/** Where a thread stood in the file (`threads.next_seq`, `threads.version`). */
export interface FileAt {
  readonly nextSeq: number;
  readonly version: number;
}

/** What expiry on read changed in one cached model. */
interface Expired {
  /** Where the file stood when the model first diverged from it: the model is current while it still does. */
  readonly fileAt: FileAt;
  readonly tombstones: Map<string, Tombstone>;
}

/**
 * What expiry on read changes on a read-only SQLite store: while it runs, its evictions change only the
 * cached model (what the store shows), never the file; kept here by thread, as long as that model is
 * cached — its tombstones, and where the file stood. Such a model is not pinned (decision record 0034,
 * Amended): when the cache's bound drops it (or the file changes), its entry goes with it, and the next
 * expiring read (`getValue`, `summarize`, `getCallOutput`, `expireStale`) expires the reloaded model again
 * (ages only grow, so at least the same values go).
 */
export class ExpiryView {
  private expiring = false;
  private readonly threads = new Map<ThreadId, Expired>();
  /** The thread expiry on read changed last (kept cached, so the read that expired it sees it). */
  private last: ThreadId | undefined;

  /** True while expiry on read runs: the evictions being persisted are this view's. */
  get active(): boolean {
    return this.expiring;
  }

  /** Runs expiry on read with the view active. */
  during<T>(expire: () => T): T {
    this.expiring = true;
    try {
      return expire();
    } finally {
      this.expiring = false;
    }
  }

  /**
   * Remembers an expiry's change of `model` (called before the model takes it): its tombstones, and the
   * file's position when it is the model's first divergence.
   */
  keep(model: ThreadModel, change: ThreadChange): void {
    let expired = this.threads.get(model.threadId);
    if (expired === undefined) {
      expired = { fileAt: { nextSeq: model.nextSeq, version: model.version }, tombstones: new Map() };
      this.threads.set(model.threadId, expired);
    }
    for (const { tombstone } of change.evictions) expired.tombstones.set(tombstone.reference, tombstone);
    this.last = model.threadId;
  }

  /** Where the file stood when expiry on read first changed the thread's cached model (undefined: never). */
  fileAt(threadId: ThreadId): FileAt | undefined {
    return this.threads.get(threadId)?.fileAt;
  }

  /** The thread expiry on read changed last, while its model is cached (undefined: none). */
  get latest(): ThreadId | undefined {
    return this.last;
  }

  /** Forgets what expiry changed in the thread's model (the model was dropped or is stale). */
  forget(threadId: ThreadId): void {
    this.threads.delete(threadId);
    if (this.last === threadId) this.last = undefined;
  }

  /** The tombstone of a reference expiry on read evicted, if any. */
  tombstone(threadId: ThreadId, reference: string): Tombstone | undefined {
    return this.threads.get(threadId)?.tombstones.get(reference);
  }
}
