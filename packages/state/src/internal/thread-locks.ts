import { ObeliskError } from "@obelisk/core";

const busy = (threadId: string, waitMs: number): ObeliskError =>
  new ObeliskError("THREAD_BUSY", `thread "${threadId}" is locked by another run`, {
    data: { threadId, waitMs },
    hint: "runs on one thread never overlap: wait for the other run, or pass a lock wait time",
  });

/**
 * In-process exclusive locks per thread. A second locker waits (FIFO) up to `waitMs` and then fails with
 * THREAD_BUSY; a release hands the lock straight to the next waiter. Timeouts use `setTimeout`
 * (fake timers in tests).
 */
export class ThreadLocks {
  private readonly held = new Set<string>();
  private readonly waiters = new Map<string, Array<() => void>>();

  /** True while someone holds the thread's lock. */
  isHeld(threadId: string): boolean {
    return this.held.has(threadId);
  }

  /** Takes the lock, waiting up to `waitMs` (0: fail at once). */
  acquire(threadId: string, waitMs: number): Promise<void> {
    if (!this.held.has(threadId)) {
      this.held.add(threadId);
      return Promise.resolve();
    }
    if (!(waitMs > 0)) return Promise.reject(busy(threadId, waitMs));
    return new Promise<void>((resolve, reject) => {
      const queue = this.waiters.get(threadId) ?? [];
      this.waiters.set(threadId, queue);
      const grant = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const index = queue.indexOf(grant);
        if (index >= 0) queue.splice(index, 1);
        reject(busy(threadId, waitMs));
      }, waitMs);
      queue.push(grant);
    });
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
