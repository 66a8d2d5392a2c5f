import type { ThreadId } from "@obelisk/core";
import type { Tombstone } from "../store-types.js";
import type { ThreadChange } from "./thread-model.js";

/**
 * What expiry on read changes on a read-only SQLite store: while it runs, its evictions change only the
 * cached model (what the store shows), never the file; their tombstones are kept here, by thread and
 * reference.
 */
export class ExpiryView {
  private expiring = false;
  private readonly tombstones = new Map<ThreadId, Map<string, Tombstone>>();

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

  /** Remembers the tombstones of the evictions made by expiry on read. */
  keep(threadId: ThreadId, change: ThreadChange): void {
    let tombstones = this.tombstones.get(threadId);
    if (tombstones === undefined) {
      tombstones = new Map();
      this.tombstones.set(threadId, tombstones);
    }
    for (const { tombstone } of change.evictions) tombstones.set(tombstone.reference, tombstone);
  }

  /** The tombstone of a reference expiry on read evicted, if any. */
  tombstone(threadId: ThreadId, reference: string): Tombstone | undefined {
    return this.tombstones.get(threadId)?.get(reference);
  }
}
