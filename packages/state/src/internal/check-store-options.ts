import { didYouMean, MAX_TIMER_MS, ObeliskError } from "@obelisk/core";
import { RETENTION_FIELDS } from "../retention-fields.js";
import type { SqliteLockOptions, SqliteStoreOptions } from "../sqlite-store-options.js";
import type { StoreOptions } from "../store-options.js";
import { checkBound } from "./store-history.js";

/** The factory whose options are checked (named in the messages). */
type StoreFactory = "createMemoryStore" | "createSqliteStore";

/** Every option of every backend (a new one is a compile error here until it is listed). */
const COMMON_OPTIONS = {
  now: true,
  retention: true,
  recordResultBytes: true,
  recordParamsBytes: true,
  maxTombstones: true,
} as const satisfies Record<keyof StoreOptions, true>;
const SQLITE_OPTIONS = {
  ...COMMON_OPTIONS,
  durability: true,
  busyTimeoutMs: true,
  readonly: true,
  create: true,
  migrate: true,
  lock: true,
  cachedThreads: true,
} as const satisfies Record<keyof SqliteStoreOptions, true>;
const LOCK_OPTIONS = { pollMs: true, heartbeatMs: true, staleMs: true } as const satisfies Record<
  keyof SqliteLockOptions,
  true
>;

/** The lock defaults (`SqliteLock` uses the same). */
const DEFAULT_HEARTBEAT_MS = 5_000;
const DEFAULT_STALE_MS = 30_000;

const shown = (value: unknown): string =>
  typeof value === "string" ? JSON.stringify(value) : value === null ? "null" : String(value);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const usage = (message: string, hint?: string): ObeliskError =>
  new ObeliskError("USAGE", message, hint === undefined ? {} : { hint });

/** USAGE for the unknown key `name` of `what`, with the nearest known one (or all of them) as hint. */
function unknownKey(what: string, name: string, known: object, hint?: string): ObeliskError {
  const names = Object.keys(known);
  return usage(
    `unknown ${what} ${JSON.stringify(name)}`,
    hint ?? didYouMean(name, names) ?? `the known ones are ${names.join(", ")}`,
  );
}

/** The hint for a key of the other backend, or of `lock`, given at the top level; else undefined. */
function misplacedHint(factory: StoreFactory, name: string): string | undefined {
  if (Object.hasOwn(LOCK_OPTIONS, name))
    return factory === "createSqliteStore"
      ? `${name} is a lock option: give it inside lock (createSqliteStore(file, { lock: { ${name}: … } }))`
      : `${name} tunes the SQLite store's cross-process lock: the memory store has no such option`;
  if (factory === "createMemoryStore" && Object.hasOwn(SQLITE_OPTIONS, name))
    return `${name} is an option of createSqliteStore: the memory store has no such option`;
  return undefined;
}

function checkRetention(retention: unknown): void {
  if (retention === undefined) return;
  if (!isRecord(retention)) throw usage("retention must be an object of bounds");
  for (const [name, value] of Object.entries(retention)) {
    if (!Object.hasOwn(RETENTION_FIELDS, name)) throw unknownKey("retention field", name, RETENTION_FIELDS);
    if (value !== undefined && (typeof value !== "number" || Number.isNaN(value) || value < 0))
      throw new ObeliskError(
        "USAGE",
        `retention ${name} must be a number >= 0 (Infinity: no bound), not ${shown(value)}`,
        { data: { [name]: shown(value) } },
      );
  }
}

/** A lock interval: a finite number of ms > 0 (a timer's at most MAX_TIMER_MS), or undefined. */
function lockMs(
  lock: Record<string, unknown>,
  name: keyof SqliteLockOptions,
  timer: boolean,
): number | undefined {
  const value = lock[name];
  if (value === undefined) return undefined;
  const max = timer ? MAX_TIMER_MS : Number.MAX_SAFE_INTEGER;
  if (typeof value === "number" && Number.isFinite(value) && value > 0 && value <= max) return value;
  throw new ObeliskError(
    "USAGE",
    `lock.${name} must be a number of ms > 0 and <= ${max}, not ${shown(value)}`,
    {
      data: { [name]: shown(value) },
    },
  );
}

/**
 * The lock options: known keys, intervals > 0, and a heartbeat well inside `staleMs` — a holder whose own
 * heartbeat is older than `staleMs` between two beats would have its live runs taken over by any other
 * process (the side effect runs twice).
 */
function checkLock(lock: unknown): void {
  if (lock === undefined) return;
  if (!isRecord(lock))
    throw usage(`lock must be an object ({ pollMs, heartbeatMs, staleMs }), not ${shown(lock)}`);
  for (const name of Object.keys(lock))
    if (!Object.hasOwn(LOCK_OPTIONS, name)) throw unknownKey("lock option", name, LOCK_OPTIONS);
  lockMs(lock, "pollMs", true);
  const heartbeatMs = lockMs(lock, "heartbeatMs", true) ?? DEFAULT_HEARTBEAT_MS;
  const staleMs = lockMs(lock, "staleMs", false) ?? DEFAULT_STALE_MS;
  if (heartbeatMs >= staleMs)
    throw new ObeliskError(
      "USAGE",
      `lock.heartbeatMs (${heartbeatMs}) must be less than lock.staleMs (${staleMs})`,
      {
        hint: `staleMs must exceed heartbeatMs with margin (the defaults: a heartbeat every ${DEFAULT_HEARTBEAT_MS} ms, stale after ${DEFAULT_STALE_MS} ms), or another process takes a live run's lock over as stale; every process that opens the file must use the same lock options`,
        data: { heartbeatMs, staleMs },
      },
    );
}

/** SQLite's own options of a fixed set of values. */
function checkSqliteChoices(options: Record<string, unknown>): void {
  const { durability, readonly, create, migrate } = options;
  if (durability !== undefined && durability !== "normal" && durability !== "full")
    throw usage(`durability must be "normal" or "full", not ${shown(durability)}`);
  if (readonly !== undefined && typeof readonly !== "boolean")
    throw usage(`readonly must be true or false, not ${shown(readonly)}`);
  if (create !== undefined && typeof create !== "boolean" && create !== "if-empty")
    throw usage(`create must be true, false or "if-empty", not ${shown(create)}`);
  if (migrate !== undefined && typeof migrate !== "boolean")
    throw usage(`migrate must be true or false, not ${shown(migrate)}`);
}

/**
 * The options of a store factory, checked before anything is opened or created (a refused option must
 * leave no file behind): an object of known keys (an unknown one is refused with the nearest known one as
 * hint; a lock option given at the top level, or a SQLite option given to the memory store, is named as
 * such), `now` a function, the retention fields numbers >= 0 (Infinity: no bound), the history bounds and
 * SQLite's `cachedThreads` whole numbers >= 0 or Infinity, `busyTimeoutMs` a whole number >= 0, and the
 * lock's intervals (see {@link checkLock}). Throws ObeliskError USAGE naming the option.
 */
export function checkStoreOptions(
  options: unknown,
  factory: StoreFactory,
): asserts options is SqliteStoreOptions {
  if (!isRecord(options)) throw usage(`${factory}: the options must be an object, not ${shown(options)}`);
  const known = factory === "createSqliteStore" ? SQLITE_OPTIONS : COMMON_OPTIONS;
  for (const name of Object.keys(options))
    if (!Object.hasOwn(known, name))
      throw unknownKey(`option for ${factory}:`, name, known, misplacedHint(factory, name));
  if (options.now !== undefined && typeof options.now !== "function")
    throw usage(
      `now must be a clock (a function answering milliseconds since the epoch, like Date.now), not ${shown(options.now)}`,
    );
  checkRetention(options.retention);
  for (const name of ["recordResultBytes", "recordParamsBytes", "maxTombstones", "cachedThreads"] as const)
    checkBound(name, options[name], 0);
  const busy: unknown = options.busyTimeoutMs;
  if (busy !== undefined && !(Number.isSafeInteger(busy) && (busy as number) >= 0))
    throw new ObeliskError("USAGE", `busyTimeoutMs must be a whole number >= 0, not ${String(busy)}`, {
      data: { busyTimeoutMs: String(busy) },
    });
  checkSqliteChoices(options);
  checkLock(options.lock);
}

/** The file of `createSqliteStore`: a path (`:memory:` for a database in memory). Throws USAGE otherwise. */
export function checkStoreFile(file: unknown): asserts file is string {
  if (typeof file !== "string" || file === "")
    throw usage(
      `createSqliteStore: the file must be a path, not ${file === "" ? "an empty string" : shown(file)}`,
      'give the store file\'s path, or ":memory:" for a database in memory (it ends with the store)',
    );
}
