import type { CompiledCall, RetryPolicy } from "@obelisk/compiler";

/** Defaults of a retry policy (no retry). */
export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 1,
  backoffMs: 100,
  factor: 2,
  maxDelayMs: 30_000,
  jitter: false,
};

/** The effective policy of a call: defaults, then the tool's policy, then the call's `_retry`. */
export function resolveRetryPolicy(tool: Partial<RetryPolicy> | undefined, call: CompiledCall): RetryPolicy {
  const policy = { ...DEFAULT_RETRY, ...tool, ...call.retry };
  return { ...policy, attempts: Math.max(1, Math.floor(policy.attempts)) };
}

/**
 * The delay before retry number `retry` (1-based): `backoffMs × factor^(retry−1)`, capped at `maxDelayMs`;
 * with jitter, a uniform value in [0, delay] drawn from the injected random source ("full jitter").
 */
export function retryDelay(policy: RetryPolicy, retry: number, random: () => number): number {
  const base = Math.min(policy.maxDelayMs, policy.backoffMs * policy.factor ** (retry - 1));
  const delay = Math.max(0, base);
  return policy.jitter ? Math.floor(random() * delay) : delay;
}
