import type { LockHolder, RunRecord } from "obelisk";
import { displayText } from "./display-text.js";
import type { Output } from "./output.js";
import { shellWord } from "./shell-word.js";

/** A lock's heartbeat age or stale time: `450 ms`, `2 s`, `3 min 5 s` (whole units, never negative). */
export function formatLockAge(ms: number): string {
  const whole = Math.max(0, Math.floor(ms));
  if (whole < 1000) return `${whole} ms`;
  if (whole < 120_000) return `${Math.floor(whole / 1000)} s`;
  return `${Math.floor(whole / 60_000)} min ${Math.floor((whole % 60_000) / 1000)} s`;
}

/** The holder as `pid 4711 on build-7` (with `(worker thread 2)` when a worker thread holds it). */
function holderName(holder: LockHolder): string {
  const worker =
    holder.workerThreadId === undefined || holder.workerThreadId === 0
      ? ""
      : ` (worker thread ${holder.workerThreadId})`;
  return `pid ${holder.pid} on ${displayText(holder.host)}${worker}`;
}

/**
 * What its heartbeat says: `, heartbeat 2 s ago (taken over after 30 s without one)`, or, past `staleMs`,
 * that the next command that takes the lock takes it over; nothing for a lock without one (memory).
 */
function heartbeat(holder: LockHolder): string {
  const { heartbeatAgeMs: age, staleMs } = holder;
  if (age === undefined || staleMs === undefined) return "";
  if (age > staleMs)
    return `, but no heartbeat for ${formatLockAge(age)} (over ${formatLockAge(staleMs)}: hung or gone; the next command that takes the thread's lock takes it over and marks the run interrupted)`;
  return `, heartbeat ${formatLockAge(age)} ago (taken over after ${formatLockAge(staleMs)} without one)`;
}

/**
 * Tells who holds a `running` run's thread (`holder`, see `runHolder`): the process and its heartbeat, or
 * that nobody does — then the run is not in progress, and `resume` continues it. Prints nothing for a run
 * that is not `running`, or a store that cannot tell (`holder` undefined).
 */
export function renderRunHolder(
  output: Output,
  run: RunRecord,
  holder: LockHolder | null | undefined,
  where: string,
): void {
  if (holder === undefined) return;
  const c = output.colors;
  const resume = `${output.command} resume ${shellWord(run.runId)} --tools <module>${where}`;
  output.line();
  if (holder === null) {
    output.line(
      c.yellow(
        `not in progress: no process holds thread ${displayText(run.threadId)} (its process stopped, or the run ended just now); the next command that takes the thread's lock marks it interrupted`,
      ),
    );
    output.line(c.dim(`continue it (completed calls are satisfied): ${resume}`));
    return;
  }
  output.line(`still running: held by ${holderName(holder)}${heartbeat(holder)}`);
  output.line(
    c.dim(`stuck? stop that process; then ${resume} continues the run (completed calls are satisfied)`),
  );
}
