import { ObeliskError } from "@obelisk/core";

/** The hint of every THREAD_BUSY a lock wait gives up with: this store's run, another engine's, another process's. */
export const LOCK_BUSY_HINT =
  "runs on one thread never overlap: wait for the other run, or let this one wait for the lock (the engine's lockWaitMs, the CLI's --lock-wait <ms>)";

const busy = (threadId: string, waitMs: number): ObeliskError =>
  new ObeliskError("THREAD_BUSY", `thread "${threadId}" is locked by another run`, {
    data: { threadId, waitMs },
    hint: LOCK_BUSY_HINT,
  });

/** A wait for the lock given up because the run waiting for it was cancelled. */
export const cancelledWait = (threadId: string): ObeliskError =>
  new ObeliskError("THREAD_BUSY", `gave up waiting for thread "${threadId}": the run was cancelled`, {
    data: { threadId, cancelled: true },
  });

/**
 * In-process exclusive locks per thread. A second locker waits (FIFO) up to `waitMs` and then fails with
 * THREAD_BUSY; a release hands the lock straight to the next waiter. Timeouts use `setTimeout`
 * (fake timers in tests).
 */
export class ThreadLocks {
  private readonly held = new Set<string>();
  private readonly waiters = new Map<string, Array<() => void>>();
  /** The waits in progress, each ended with the error made for its thread by {@link endWaits}. */
  private readonly waits = new Set<(error: (threadId: string) => ObeliskError) => void>();

  /** True while someone holds the thread's lock. */
  isHeld(threadId: string): boolean {
    return this.held.has(threadId);
  }

  /**
   * Takes the lock, waiting up to `waitMs` (0: fail at once); a `signal` aborted when it would wait, or while
   * it waits, gives the wait up (THREAD_BUSY, `data.cancelled`). A free lock is taken whatever the signal.
   */
  acquire(threadId: string, waitMs: number, signal?: AbortSignal): Promise<void> {
    if (!this.held.has(threadId)) {
      this.held.add(threadId);
      return Promise.resolve();
    }
    if (signal?.aborted) return Promise.reject(cancelledWait(threadId));
    if (!(waitMs > 0)) return Promise.reject(busy(threadId, waitMs));
    return new Promise<void>((resolve, reject) => {
      const queue = this.waiters.get(threadId) ?? [];
      this.waiters.set(threadId, queue);
      const settle = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", cancel);
        this.waits.delete(end);
      };
      const leave = (error: ObeliskError): void => {
        settle();
        const index = queue.indexOf(grant);
        if (index >= 0) queue.splice(index, 1);
        reject(error);
      };
      const cancel = (): void => leave(cancelledWait(threadId));
      const end = (error: (threadId: string) => ObeliskError): void => leave(error(threadId));
      const grant = (): void => {
        settle();
        resolve();
      };
      const timer = setTimeout(() => leave(busy(threadId, waitMs)), waitMs);
      signal?.addEventListener("abort", cancel, { once: true });
      this.waits.add(end);
      queue.push(grant);
    });
  }

  /**
   * Ends every wait in progress with `error` of its thread (the store is closing): no waiter is handed a
   * lock after this; the locks held stay held until released.
   */
  endWaits(error: (threadId: string) => ObeliskError): void {
    for (const end of [...this.waits]) end(error);
  }

  /** Releases the lock or hands it to the next waiter. */
  release(threadId: string): void {
    const next = this.waiters.get(threadId)?.shift();
    if (next !== undefined) next();
    else {
      this.held.delete(threadId);
      this.waiters.delete(threadId);
    }
  }
}
