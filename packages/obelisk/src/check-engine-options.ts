import { DEFAULT_LIMITS, didYouMean, MAX_TIMER_MS, ObeliskError } from "@obelisk/core";
import { RETENTION_FIELDS } from "@obelisk/state";
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
  for (const [name, value] of Object.entries(limits)) {
    if (!Object.hasOwn(DEFAULT_LIMITS, name)) throw unknownKey("limit", name, Object.keys(DEFAULT_LIMITS));
    if (value !== undefined && !isPositiveCount(value))
      throw usage(`limit ${name} must be a positive integer (or Infinity), got ${shown(value)}`);
  }
}

function checkRetention(retention: unknown): void {
  if (retention === undefined) return;
  if (!isRecord(retention)) throw usage("retention must be an object");
  for (const [name, value] of Object.entries(retention)) {
    if (!Object.hasOwn(RETENTION_FIELDS, name))
      throw unknownKey("retention field", name, Object.keys(RETENTION_FIELDS));
    if (value !== undefined && (typeof value !== "number" || Number.isNaN(value) || value < 0))
      throw usage(
        `retention ${name} must be a non-negative number (Infinity disables it), got ${shown(value)}`,
      );
  }
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
  "now",
  "random",
  "generateId",
  "lockWaitMs",
  "stateSchema",
  "onEvent",
  "timers",
]);

/**
 * Refuses engine options that would silently mean something else (SPEC §11: a clear error, never a limit
 * quietly disabled): `concurrency` other than a positive integer or Infinity, an unknown limit or one that is
 * not a positive integer (NaN, "3", 0), a negative or too long `lockWaitMs`, a `stateSchema` that is not a
 * JSON Schema object, a bad retention field, hooks that are not functions, and an option it does not know
 * (a misspelt `concurency` was ignored). Throws ObeliskError USAGE.
 */
export function checkEngineOptions(options: EngineOptions): void {
  if (!isRecord(options)) throw usage("options must be an object ({ tools, … })");
  refuseUnknownKeys(options, ENGINE_OPTIONS, "createEngine");
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
  checkFunctions(options);
}
