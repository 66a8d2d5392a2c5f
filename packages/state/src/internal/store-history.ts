import type { JsonValue, RunId, ThreadId } from "@obelisk/core";
import { checkedClock, ObeliskError } from "@obelisk/core";
import {
  type Clock,
  DEFAULT_MAX_TOMBSTONES,
  DEFAULT_RECORD_PARAMS_BYTES,
  DEFAULT_RECORD_RESULT_BYTES,
  DEFAULT_RETENTION,
  type StoreOptions,
} from "../store-options.js";
import type {
  CallRecord,
  FinalPlan,
  FinishRunOptions,
  RetentionPolicy,
  RunRecord,
  RunStatus,
  RunSummary,
  RunsOptions,
} from "../store-types.js";
import { definedFields } from "./defined-fields.js";
import {
  checkRunId,
  checkRunsQuery,
  cursorPlace,
  type RunsQuery,
  type StoredRunsQuery,
} from "./history-arguments.js";
import { interruptedRecord } from "./interrupted-runs.js";
import { runSummary } from "./run-summary.js";
import { storeClosedError } from "./store-closed.js";

/** How a listing reads its runs: as stored (newest first), and one again once it was marked `interrupted`. */
interface ListedRuns<T> {
  readonly query: (query: StoredRunsQuery) => readonly T[];
  readonly read: (runId: RunId) => T | undefined;
}

/** The statuses a run found `running` may turn out to have: what `listRuns` looks at for either. */
const OPEN_STATUSES: readonly RunStatus[] = Object.freeze(["running", "interrupted"]);

/**
 * The bottom of the stores' shared logic ({@link CachedStore} builds on it): the store's clock, retention
 * and open state, and the run history every backend answers the same way — the argument checks, and runs
 * found `running` whose process is gone marked and answered `interrupted` (decision record 0025). A backend
 * stores the run records and says whether a thread's runs can be in progress (`abandonment`).
 */
export abstract class StoreHistory {
  abstract readonly backend: string;
  protected readonly now: Clock;
  protected readonly retention: RetentionPolicy;
  /** {@link StoreOptions.recordResultBytes}: the largest result a record keeps once its values are gone. */
  protected readonly recordResultBytes: number;
  /** {@link StoreOptions.recordParamsBytes}: the largest parameters a record keeps whole. */
  protected readonly recordParamsBytes: number;
  /** {@link StoreOptions.maxTombstones}: the most tombstones a thread keeps. */
  protected readonly maxTombstones: number;
  protected closed = false;

  constructor(options: StoreOptions = {}) {
    // an injected clock is checked on every reading as the engine's is (decision 0061): a reading that is no
    // time from 0 to 8.64e15 is USAGE there, before it is written anywhere
    this.now = options.now === undefined ? Date.now : checkedClock("the store's now()", options.now);
    this.retention = { ...DEFAULT_RETENTION, ...definedFields(options.retention) };
    this.recordResultBytes = checkBound(
      "recordResultBytes",
      options.recordResultBytes,
      DEFAULT_RECORD_RESULT_BYTES,
    );
    this.recordParamsBytes = checkBound(
      "recordParamsBytes",
      options.recordParamsBytes,
      DEFAULT_RECORD_PARAMS_BYTES,
    );
    this.maxTombstones = checkBound("maxTombstones", options.maxTombstones, DEFAULT_MAX_TOMBSTONES);
  }

  abstract createRun(run: RunRecord): void;
  abstract finishRun(
    runId: RunId,
    status: RunStatus,
    endedAt: string,
    final?: FinalPlan,
    options?: FinishRunOptions,
  ): void;
  abstract appendRunCalls(runId: RunId, calls: readonly JsonValue[]): void;
  /** A run by id (the id checked already). */
  protected abstract readRun(runId: RunId): RunRecord | undefined;
  /** Run records as stored, newest first (arguments checked already; none marked here). */
  protected abstract queryRuns(query: StoredRunsQuery): readonly RunRecord[];
  /** {@link queryRuns} without plans and inputs ({@link RunSummary}; `waiting` is never asked). */
  protected abstract querySummaries(query: StoredRunsQuery): readonly RunSummary[];
  /** A run's thread and place in the order runs were recorded (a `before` cursor), or undefined. */
  protected abstract runPlace(
    runId: RunId,
  ): { readonly threadId: string; readonly place: number } | undefined;
  /** The newest run recorded with `resumeOf: runId` as stored (the id checked already), or undefined. */
  protected abstract readResume(runId: RunId): RunRecord | undefined;
  /**
   * Why the `running` runs of a thread cannot be in progress (nobody holds its lock, or its holder's
   * process is gone), or undefined when one may be (the lock is held by a live holder, or it cannot be
   * told: another host's holder). Read-only; a run of this store holds the in-process lock.
   */
  protected abstract abandonment(threadId: ThreadId): string | undefined;
  /**
   * Marks the thread's `running` runs `interrupted` for `reason` (their appended calls folded in, as
   * `finishRun` does). With `recheck`, first asks {@link abandonment} again inside the backend's
   * transaction and marks nothing when a holder has appeared meanwhile.
   */
  protected abstract interruptRuns(threadId: ThreadId, reason: string, recheck: boolean): void;
  /** False when the store cannot write: runs found interrupted are answered so, not recorded (read-only). */
  protected recordsInterruptions(): boolean {
    return true;
  }
  /** A run's call records in commit order (the id checked already). */
  protected abstract readCallRecords(runId: RunId): readonly CallRecord[];

  /** A run by id; a `running` one whose process is gone is marked (and answered) `interrupted`. */
  getRun(runId: RunId): RunRecord | undefined {
    this.assertOpen();
    const run = this.readRun(checkRunId(runId));
    return run === undefined ? undefined : this.settled(run, new Map(), (id) => this.readRun(id));
  }

  /**
   * Runs, newest first; the same argument checks on every backend (USAGE). `running` runs whose process is
   * gone are marked (and answered) `interrupted`: asked for `running` or `interrupted` runs, every run of
   * the two in scope is looked at first, so the filter sees them as they are.
   */
  listRuns(options?: RunsOptions): readonly RunRecord[] {
    this.assertOpen();
    return this.runsOf(checkRunsQuery(options), this.recordsOf(false));
  }

  /** The runs with a call record `waiting`, newest first, filtered and checked as {@link listRuns}. */
  listWaitingRuns(options?: RunsOptions): readonly RunRecord[] {
    this.assertOpen();
    return this.runsOf(checkRunsQuery(options, "listWaitingRuns"), this.recordsOf(true));
  }

  /** {@link listRuns} without plans and inputs ({@link StateStore.listRunSummaries}, decision 0104). */
  listRunSummaries(options?: RunsOptions): readonly RunSummary[] {
    this.assertOpen();
    return this.runsOf(checkRunsQuery(options, "listRunSummaries"), {
      query: (query) => this.querySummaries(query),
      read: (runId) => {
        const run = this.readRun(runId);
        return run === undefined ? undefined : runSummary(run);
      },
    });
  }

  /** How {@link runsOf} reads whole records (`waiting`: only runs with a waiting call record). */
  private recordsOf(waiting: boolean): ListedRuns<RunRecord> {
    return {
      query: (query) => this.queryRuns({ ...query, waiting }),
      read: (runId) => this.readRun(runId),
    };
  }

  /** {@link StateStore.resumedBy}: the newest run recorded as resuming `runId`, settled as `getRun` answers it. */
  resumedBy(runId: RunId): RunRecord | undefined {
    this.assertOpen();
    const run = this.readResume(checkRunId(runId));
    return run === undefined ? undefined : this.settled(run, new Map(), (id) => this.readRun(id));
  }

  /** The runs a checked query selects, read by `runs` (records or summaries), settled. */
  private runsOf<T extends RunRecord | RunSummary>(
    { threadId, limit, status, before: cursor }: RunsQuery,
    runs: ListedRuns<T>,
  ): readonly T[] {
    const found = new Map<ThreadId, string | undefined>();
    const before =
      cursor === undefined ? undefined : cursorPlace(cursor, threadId, (runId) => this.runPlace(runId));
    if (status !== "running" && status !== "interrupted") {
      const statuses = status === undefined ? undefined : [status];
      return runs
        .query({ threadId, limit, statuses, waiting: false, before })
        .map((run) => this.settled(run, found, runs.read));
    }
    const open = runs
      .query({ threadId, limit: undefined, statuses: OPEN_STATUSES, waiting: false, before })
      .map((run) => this.settled(run, found, runs.read))
      .filter((run) => run.status === status);
    return limit === undefined ? open : open.slice(0, limit);
  }

  /**
   * `run` as it stands: a `running` run of a thread whose runs cannot be in progress ({@link abandonment},
   * asked once per thread through `found`) is marked `interrupted` — with every `running` run of that
   * thread, in one transaction that checks again — and read back; a read-only store answers it marked.
   */
  private settled<T extends RunRecord | RunSummary>(
    run: T,
    found: Map<ThreadId, string | undefined>,
    read: (runId: RunId) => T | undefined,
  ): T {
    if (run.status !== "running") return run;
    const threadId = run.threadId;
    let reason = found.get(threadId);
    if (!found.has(threadId)) {
      reason = this.abandonment(threadId);
      found.set(threadId, reason);
      if (reason !== undefined && this.recordsInterruptions()) this.interruptRuns(threadId, reason, true);
    }
    if (reason === undefined) return run;
    if (!this.recordsInterruptions()) return interruptedRecord(run, reason, this.isoNow());
    return read(run.runId) ?? run;
  }

  /**
   * Marks the thread's `running` runs `interrupted` when none can be in progress (its lock is free), as
   * reading them does; a read-only store marks nothing.
   */
  protected settleRunning(threadId: ThreadId): void {
    const reason = this.abandonment(threadId);
    if (reason !== undefined && this.recordsInterruptions()) this.interruptRuns(threadId, reason, true);
  }

  /** The store clock's time, ISO. */
  protected isoNow(): string {
    return new Date(this.now()).toISOString();
  }

  listCallRecords(runId: RunId): readonly CallRecord[] {
    this.assertOpen();
    return this.readCallRecords(checkRunId(runId));
  }

  protected assertOpen(): void {
    if (this.closed) throw storeClosedError(this.backend);
  }
}

/**
 * A bound of the store's options (`recordResultBytes`, `recordParamsBytes`, `maxTombstones`, SQLite's
 * `cachedThreads`), checked when a store is created: `fallback` when left out, USAGE unless a whole number
 * >= 0 or `Infinity` (with `hint`, what the bound is, when given).
 */
export function checkBound(name: string, given: unknown, fallback: number, hint?: string): number {
  if (given === undefined) return fallback;
  if (
    typeof given === "number" &&
    given >= 0 &&
    (Number.isSafeInteger(given) || given === Number.POSITIVE_INFINITY)
  )
    return given;
  throw new ObeliskError("USAGE", `${name} must be a whole number >= 0 or Infinity, not ${String(given)}`, {
    data: { [name]: String(given) },
    ...(hint === undefined ? {} : { hint }),
  });
}
