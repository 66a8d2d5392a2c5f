import {
  DEFAULT_LIMITS,
  didYouMean,
  MAX_TIMER_MS,
  MAX_VALUE_DEPTH,
  ObeliskError,
  readHostValue,
} from "@obelisk/core";
import { checkHistoryPolicy, RETENTION_FIELDS } from "@obelisk/state";
import type { EngineOptions } from "./engine-types.js";
import { refuseUnknownKeys } from "./facade-arguments.js";

const usage = (message: string, hint?: string): ObeliskError =>
  new ObeliskError("USAGE", `createEngine: ${message}`, hint === undefined ? {} : { hint });

/** USAGE for an unknown key of `what` (a limit, a retention field): every known one, and the nearest as hint. */
const unknownKey = (what: string, name: string, known: readonly string[]): ObeliskError =>
  usage(
    `unknown ${what} ${JSON.stringify(name)} (${what === "limit" ? "limits" : "fields"}: ${known.join(", ")})`,
    didYouMean(name, known),
  );

const shown = (value: unknown): string =>
  typeof value === "string" ? JSON.stringify(value) : value === null ? "null" : String(value);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isPositiveCount = (value: unknown): boolean =>
  value === Number.POSITIVE_INFINITY || (Number.isSafeInteger(value) && (value as number) >= 1);

function checkLimits(limits: unknown): void {
  if (limits === undefined) return;
  if (!isRecord(limits)) throw usage("limits must be an object of limits by name");
  for (const [name, value] of readHostValue("createEngine's limits", () => Object.entries(limits))) {
    if (!Object.hasOwn(DEFAULT_LIMITS, name)) throw unknownKey("limit", name, Object.keys(DEFAULT_LIMITS));
    if (value !== undefined && !isPositiveCount(value))
      throw usage(`limit ${name} must be a positive integer (or Infinity), got ${shown(value)}`);
    // a path deeper than a value may nest could be written and never read back (OUTPUT_NOT_JSON), and
    // thousands of segments overflowed the stack of the writes that follow a path
    if (name === "maxPathDepth" && typeof value === "number" && value > MAX_VALUE_DEPTH)
      throw usage(
        `limit maxPathDepth must be at most ${MAX_VALUE_DEPTH} (a stored value nests at most ${MAX_VALUE_DEPTH} levels), got ${shown(value)}`,
      );
  }
}

function checkRetention(retention: unknown): void {
  if (retention === undefined) return;
  if (!isRecord(retention)) throw usage("retention must be an object");
  for (const [name, value] of readHostValue("createEngine's retention", () => Object.entries(retention))) {
    if (!Object.hasOwn(RETENTION_FIELDS, name))
      throw unknownKey("retention field", name, Object.keys(RETENTION_FIELDS));
    if (value !== undefined && (typeof value !== "number" || Number.isNaN(value) || value < 0))
      throw usage(
        `retention ${name} must be a non-negative number (Infinity disables it), got ${shown(value)}`,
      );
  }
}

/**
 * The `history` option (decision 0075): a policy `checkHistoryPolicy` accepts, and a store that can apply
 * it (`pruneHistory`: both built-in stores; a custom store without it would never prune).
 */
function checkHistory(history: unknown, store: unknown): void {
  if (history === undefined) return;
  checkHistoryPolicy(history, "createEngine: history");
  if (store !== undefined && typeof (store as { pruneHistory?: unknown }).pruneHistory !== "function")
    throw usage(
      "history needs a store with pruneHistory: this store cannot prune its run history after each run",
      "both built-in stores have it; or leave history out and prune with engine.runs.prune",
    );
}

function checkFunctions(options: EngineOptions): void {
  for (const name of ["confirm", "aroundTool", "now", "random", "generateId", "onEvent"] as const) {
    const value: unknown = options[name];
    if (value !== undefined && typeof value !== "function") throw usage(`${name} must be a function`);
  }
}

/** The options `createEngine` knows. */
const ENGINE_OPTIONS: ReadonlySet<string> = new Set([
  "tools",
  "implementations",
  "store",
  "concurrency",
  "limits",
  "confirm",
  "aroundTool",
  "failFast",
  "kinds",
  "retention",
  "history",
  "now",
  "random",
  "generateId",
  "lockWaitMs",
  "stateSchema",
  "onEvent",
  "timers",
]);

/**
 * The options as a plain object holding each known option the host gave (own or inherited): read once,
 * so a getter or Proxy trap that throws is USAGE naming the option (or the options, for a revoked Proxy
 * or a `ownKeys` trap), and nothing later reads the host's object again. Unknown keys are refused.
 */
function plainOptions(given: EngineOptions): Record<string, unknown> {
  const where = "createEngine's options";
  if (!readHostValue(where, () => isRecord(given))) throw usage("options must be an object ({ tools, … })");
  readHostValue(where, () => refuseUnknownKeys(given, ENGINE_OPTIONS, "createEngine"));
  const plain: Record<string, unknown> = {};
  for (const name of ENGINE_OPTIONS) {
    const value: unknown = readHostValue(
      `createEngine's option "${name}"`,
      () => given[name as keyof EngineOptions],
    );
    if (value !== undefined) plain[name] = value;
  }
  return plain;
}

/**
 * Refuses engine options that would silently mean something else (SPEC §11: a clear error, never a limit
 * quietly disabled): `concurrency` other than a positive integer or Infinity, an unknown limit or one that is
 * not a positive integer (NaN, "3", 0), a negative or too long `lockWaitMs`, a `stateSchema` that is not a
 * JSON Schema object, a bad retention field or history policy, hooks that are not functions, and an option it does not know
 * (a misspelt `concurency` was ignored). Returns the options as a plain object the engine reads from
 * (`plainOptions`). Throws ObeliskError USAGE.
 */
export function checkEngineOptions<Options extends EngineOptions>(given: Options): Options {
  const options = plainOptions(given) as Options;
  const { concurrency, lockWaitMs, stateSchema, failFast } = options as Record<string, unknown>;
  if (concurrency !== undefined && !isPositiveCount(concurrency))
    throw usage(`concurrency must be a positive integer (or Infinity: unbounded), got ${shown(concurrency)}`);
  if (
    lockWaitMs !== undefined &&
    (typeof lockWaitMs !== "number" || !(lockWaitMs >= 0 && lockWaitMs <= MAX_TIMER_MS))
  )
    throw usage(`lockWaitMs must be a number of ms from 0 to ${MAX_TIMER_MS}, got ${shown(lockWaitMs)}`);
  if (stateSchema !== undefined && !isRecord(stateSchema))
    throw usage(`stateSchema must be a JSON Schema object, got ${shown(stateSchema)}`);
  if (failFast !== undefined && typeof failFast !== "boolean") throw usage("failFast must be a boolean");
  checkLimits(options.limits);
  checkRetention(options.retention);
  checkHistory(options.history, options.store);
  checkFunctions(options);
  return options;
}
