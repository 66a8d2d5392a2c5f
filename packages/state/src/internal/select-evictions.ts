import { ObeliskError } from "@obelisk/core";
import type { RetentionPolicy } from "../store-types.js";
import type { EvictionRequest } from "./plan-eviction.js";
import type { ThreadModel, VariableEntry } from "./thread-model.js";

interface Limits {
  readonly count: number | undefined;
  readonly bytes: number | undefined;
  readonly ageMs: number | undefined;
  readonly reasons: readonly [count: string, bytes: string, age: string];
}

const checkLimit = (name: string, value: number | undefined): void => {
  if (value !== undefined && (typeof value !== "number" || Number.isNaN(value) || value < 0)) {
    throw new ObeliskError(
      "USAGE",
      `retention ${name} must be a non-negative number (Infinity disables it), got ${value}`,
    );
  }
};

/** Least recently updated first; evicts by age, then count, then bytes. */
function selectScope(entries: readonly VariableEntry[], limits: Limits, nowMs: number): EvictionRequest[] {
  const chosen: EvictionRequest[] = [];
  let kept = [...entries];
  if (limits.ageMs !== undefined) {
    const maxAge = limits.ageMs;
    for (const entry of kept) {
      if (nowMs - entry.updatedMs > maxAge)
        chosen.push({
          reference: entry.meta.reference,
          reason: limits.reasons[2],
          atMs: entry.updatedMs + maxAge,
        });
    }
    kept = kept.filter((entry) => nowMs - entry.updatedMs <= maxAge);
  }
  if (limits.count !== undefined && kept.length > limits.count) {
    const excess = kept.length - limits.count;
    for (const entry of kept.slice(0, excess))
      chosen.push({ reference: entry.meta.reference, reason: limits.reasons[0] });
    kept = kept.slice(excess);
  }
  if (limits.bytes !== undefined) {
    let total = kept.reduce((sum, entry) => sum + entry.meta.bytes, 0);
    for (const entry of kept) {
      if (total <= limits.bytes) break;
      total -= entry.meta.bytes;
      chosen.push({ reference: entry.meta.reference, reason: limits.reasons[1] });
    }
  }
  return chosen;
}

/**
 * Drops requests for state variables nested inside a variable that stays: their value is part of the kept
 * one (and a write below a variable also refreshes it, so the outer variable is never older).
 */
export function protectNested(model: ThreadModel, requests: readonly EvictionRequest[]): EvictionRequest[] {
  const evicted = new Set(requests.map((request) => request.reference));
  return requests.filter((request) => {
    const entry = model.variables.get(request.reference);
    if (entry === undefined || entry.meta.scope !== "state") return true;
    return model.trie.ancestors(entry.path).every((above) => evicted.has(above));
  });
}

/** True when a scope's limits can evict anything (`undefined` and `Infinity` never do). */
const canEvict = (scope: Limits): boolean =>
  [scope.count, scope.bytes, scope.ageMs].some(
    (limit) => limit !== undefined && limit !== Number.POSITIVE_INFINITY,
  );

/**
 * The variables a retention policy evicts now, least recently updated first. Runs after every run: a
 * scope without limits (by default, state variables) is not collected at all, and call outputs come from
 * their own index, so a thread with thousands of state variables and the default policy costs O(outputs).
 */
export function selectForRetention(
  model: ThreadModel,
  policy: RetentionPolicy,
  nowMs: number,
): EvictionRequest[] {
  for (const [name, value] of Object.entries(policy)) checkLimit(name, value as number | undefined);
  const stateLimits: Limits = {
    count: policy.maxVariables,
    bytes: policy.maxBytes,
    ageMs: policy.maxAgeMs,
    reasons: ["maxVariables", "maxBytes", "maxAgeMs"],
  };
  const callLimits: Limits = {
    count: policy.maxCallOutputs,
    bytes: policy.maxCallOutputBytes,
    ageMs: policy.maxCallOutputAgeMs,
    reasons: ["maxCallOutputs", "maxCallOutputBytes", "maxCallOutputAgeMs"],
  };
  const wantsState = canEvict(stateLimits);
  const wantsCalls = canEvict(callLimits);
  if (!wantsState && !wantsCalls) return [];
  const state: VariableEntry[] = [];
  if (wantsState)
    for (const entry of model.variables.values()) if (entry.meta.scope === "state") state.push(entry);
  const calls = wantsCalls ? [...model.callOutputs.values()] : [];
  // after most runs: no call output held, no state limit (the defaults)
  if (state.length === 0 && calls.length === 0) return [];
  return protectNested(model, [
    ...selectScope(state, stateLimits, nowMs),
    ...selectScope(calls, callLimits, nowMs),
  ]);
}

/** Throws USAGE unless `n` is a whole number >= 0 or `Infinity` (what `keepLastN` takes). */
export function checkKeepCount(n: number): void {
  if (n === Number.POSITIVE_INFINITY) return;
  if (!Number.isInteger(n) || n < 0)
    throw new ObeliskError("USAGE", `keepLastN needs a non-negative integer or Infinity, got ${n}`, {
      hint: "keepLastN(0) evicts every variable; keepLastN(Infinity) keeps them all",
    });
}

/**
 * The variables `keepLastN(n)` evicts: all but the n most recently updated (state and call outputs
 * together). `Infinity` keeps every one, as it switches a retention limit off.
 */
export function selectForKeepLastN(model: ThreadModel, n: number): EvictionRequest[] {
  checkKeepCount(n);
  if (n === Number.POSITIVE_INFINITY) return [];
  const all = [...model.variables.values()];
  const requests = all.slice(0, Math.max(0, all.length - n));
  return protectNested(
    model,
    requests.map((entry) => ({ reference: entry.meta.reference, reason: "keepLastN" })),
  );
}
