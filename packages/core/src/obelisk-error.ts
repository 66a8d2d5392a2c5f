import type { Diagnostic } from "./diagnostic.js";
import type { ObeliskCode } from "./diagnostic-codes.js";
import type { PlanHash } from "./plan-document.js";

/** The `data` an ObeliskError carries, by code; other codes carry `unknown` (often nothing). */
export interface ObeliskErrorData {
  /** The plan's validation: its hash and every diagnostic. */
  readonly PLAN_INVALID: {
    readonly ok: false;
    readonly planHash: PlanHash;
    readonly diagnostics: readonly Diagnostic[];
  };
  /** The plan's hash, and the hash it was held to (absent when a host's approval hook refused it). */
  readonly PLAN_NOT_APPROVED: { readonly planHash: PlanHash; readonly approvedHash?: string };
  /**
   * The thread that is locked. Without `started`, the run never started (nothing ran: send it again);
   * with `started: true`, a run already under way lost its lock (taken over as stale) and `runId` names it:
   * some of its calls may have run (look at `engine.runs.show(runId)` before sending it again).
   */
  readonly THREAD_BUSY: ThreadBusyNotStarted | ThreadBusyStarted;
  /**
   * The run `resume` refused (decision 0070), its status as read, and the newest run recorded as resuming
   * it already (absent when none is: the run was given up, `cancelled` by a superseding run or `runs.cancel`).
   */
  readonly RUN_NOT_RESUMABLE: {
    readonly runId: string;
    readonly status: string;
    readonly resumedBy?: string;
  };
  /** The run id `runs.show` or `resume` looked up (the whole id; the message cuts a long one). */
  readonly RUN_NOT_FOUND: { readonly runId: string };
  /**
   * Why an Obelisk store refused (`reason`, with the file and details), absent on store failures that carry
   * no data. A custom store's STORE_ERROR carries what that store puts there.
   */
  readonly STORE_ERROR: StoreErrorData | undefined;
  /**
   * A value over a depth or size limit: where (`pointer`) and the limit (`maxDepth` or `maxBytes`). Absent
   * on the refusals that carry no data.
   */
  readonly OUTPUT_TOO_LARGE:
    | { readonly pointer: string; readonly maxDepth?: number; readonly maxBytes?: number }
    | undefined;
  /**
   * Misuse. Its data, when there is any, depends on the refusal: a stopped stream's `add` or `close` gives
   * `{ runId, stoppedBy, callId? }` (`callId`: the failed call that stopped it under failFast), a refused
   * option names the option and the value given.
   */
  readonly USAGE: UsageData | undefined;
}

/** Why an Obelisk store refused: `STORE_ERROR`'s `data`. */
export interface StoreErrorData {
  /** What is wrong with the store or its file. */
  readonly reason:
    | "not-a-store"
    | "newer-version"
    | "older-version"
    | "readonly"
    | "renamed"
    | "corrupt"
    | "no-folder"
    | "native-missing"
    | "native-mismatch"
    | "side-file";
  /** The store's file. */
  readonly file?: string;
  /** More details by reason (`fileVersion`, `readsVersion`, `sideFile`, `owner`, `movedTo`, `table`, …). */
  readonly [detail: string]: unknown;
}

/** What USAGE's `data` may carry: a stopped stream's run and why it stopped, or the refused option's details. */
export interface UsageData {
  /** The run (a stopped stream's, a run id that was refused). */
  readonly runId?: string;
  /** What stopped the stream: `close()`, its signal, `engine.close()`, its idle timeout, or failFast. */
  readonly stoppedBy?: "close" | "signal" | "engine-close" | "idle" | "failFast";
  /** The failed call that stopped the stream (`stoppedBy: "failFast"`). */
  readonly callId?: string;
  /** Other details of the refusal (the option or argument and the value given). */
  readonly [detail: string]: unknown;
}

/**
 * Who holds a thread's lock, in THREAD_BUSY's `data.holder`: the process (`host`, `pid`, its worker thread
 * when known) and whether it is the asking process; a SQLite lock also gives its heartbeat. `@obelisk/state`
 * names it `LockHolder` (what `StateStore.lockHolder` answers).
 */
export interface ThreadBusyHolder {
  /** Host name of the holder's machine. */
  readonly host: string;
  /** Its process id. */
  readonly pid: number;
  /**
   * Its worker thread (`worker_threads.threadId`; 0 is the main thread), when known: a SQLite lock row
   * written before 2026-11-26 names none.
   */
  readonly workerThreadId?: number;
  /** True when the holder is the process that asks (same host and pid). */
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

/** What THREAD_BUSY data has in both cases (`waitMs`: how long the lock was waited for; `cancelled`: the wait was given up). */
interface ThreadBusyData {
  readonly threadId: string;
  readonly waitMs?: number;
  readonly cancelled?: true;
  /**
   * Who holds the lock: the SQLite store names it (this process, a worker thread, another process). The
   * memory store gives none: its lock is always this process's (`store.lockHolder(threadId)` says so).
   */
  readonly holder?: ThreadBusyHolder;
}

/** THREAD_BUSY before the run started: the lock could not be taken. */
export interface ThreadBusyNotStarted extends ThreadBusyData {
  readonly started?: undefined;
  readonly runId?: undefined;
  /** The run holding the thread, when the store records one running (not for a host edit; decision 0104). */
  readonly holderRunId?: string;
}

/** THREAD_BUSY that ends a run already started: its lock was taken over mid-run. */
export interface ThreadBusyStarted extends ThreadBusyData {
  readonly started: true;
  readonly runId: string;
}

/** An ObeliskError of one code, its `data` typed as {@link ObeliskErrorData} says. */
export type ObeliskErrorOf<C extends ObeliskCode> = ObeliskError & {
  readonly code: C;
  readonly data: C extends keyof ObeliskErrorData ? ObeliskErrorData[C] : unknown;
};

const MARKER = Symbol.for("obelisk.error");

/** The one error class Obelisk throws (misuse, THREAD_BUSY, PLAN_NOT_APPROVED, …). Check with `ObeliskError.is()`. */
export class ObeliskError extends Error {
  /** Stable code. */
  readonly code: ObeliskCode;
  /** Extra structured data (e.g. diagnostics of an invalid plan). */
  readonly data: unknown;
  /** Hint for the user, when there is one. */
  readonly hint: string | undefined;

  /** Creates an error with a stable code. */
  constructor(
    code: ObeliskCode,
    message: string,
    options: { cause?: unknown; data?: unknown; hint?: string } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ObeliskError";
    this.code = code;
    this.data = options.data;
    this.hint = options.hint;
    Object.defineProperty(this, MARKER, { value: true });
  }

  /** True for any ObeliskError, even one from another copy of the package. */
  static is(value: unknown): value is ObeliskError;
  /** True for an ObeliskError of `code`: narrows `data` (`ObeliskError.is(error, "PLAN_INVALID")`). */
  static is<C extends ObeliskCode>(value: unknown, code: C): value is ObeliskErrorOf<C>;
  static is(value: unknown, code?: ObeliskCode): boolean {
    const marked =
      typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
    return marked && (code === undefined || (value as ObeliskError).code === code);
  }
}
