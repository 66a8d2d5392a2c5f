/**
 * Who holds a thread's run lock, as {@link StateStore.lockHolder} answers it: the process as THREAD_BUSY's
 * `data.holder` names it (`host`, `pid`, `workerThreadId`, `sameProcess`) and, for a lock kept alive by a
 * heartbeat (SQLite), its last heartbeat and the age at which it is taken over. The memory store's lock has
 * no heartbeat: a run of that very store holds it until the run ends (never taken over), so its answer is
 * this process with `sameProcess: true` and none of the three heartbeat fields.
 */
export interface LockHolder {
  /** Host name of the holder's machine. */
  readonly host: string;
  /** Its process id. */
  readonly pid: number;
  /**
   * Its worker thread (`worker_threads.threadId`; 0 is the main thread), when known: a SQLite lock row
   * written before 2026-11-26 names none.
   */
  readonly workerThreadId?: number;
  /** True when the holder is the process that asks (same host and pid), as in THREAD_BUSY's `data.holder`. */
  readonly sameProcess: boolean;
  /** ISO time of its last heartbeat (SQLite: `locks.heartbeat_ms`, by the holder's clock); absent in memory. */
  readonly heartbeatAt?: string;
  /**
   * Milliseconds since that heartbeat, by the asking store's clock (negative when the holder's clock runs
   * ahead of it); absent in memory.
   */
  readonly heartbeatAgeMs?: number;
  /**
   * The heartbeat age past which the asking store takes the lock over (its `lock.staleMs`, default 30,000):
   * a holder with `heartbeatAgeMs > staleMs` is hung or gone, and the next `lockThread` takes the lock
   * from it; absent in memory.
   */
  readonly staleMs?: number;
}
