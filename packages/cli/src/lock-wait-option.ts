import { MAX_TIMER_MS } from "@obelisk/core";
import { type Command, InvalidArgumentError } from "commander";

/** The flag that lets a command wait for a thread's lock (the engine's `lockWaitMs`). */
export const LOCK_WAIT_FLAG = "--lock-wait";

/** The commands that take a thread's lock, and so `--lock-wait`. */
export const TAKE_LOCK_WAIT = "run, resume, state set, unset, reset, keep and delete";

/** Parses `--lock-wait <ms>`: a whole number of milliseconds from 0 to the longest timer (a flag error otherwise). */
export function parseLockWait(value: string): number {
  const ms = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(ms) || ms > MAX_TIMER_MS)
    throw new InvalidArgumentError(`expected a whole number of milliseconds from 0 to ${MAX_TIMER_MS}`);
  return ms;
}

/** Adds `--lock-wait <ms>` to a command that takes a thread's lock. */
export function withLockWait(command: Command): Command {
  return command.option(
    `${LOCK_WAIT_FLAG} <ms>`,
    "while another run holds the thread, wait up to ms milliseconds for it (default 0: THREAD_BUSY at once)",
    parseLockWait,
  );
}

/**
 * The message of commander's refusal of an option a command does not know, for `--lock-wait` on a command
 * that never waits for a thread's lock (`runs prune` leaves a held thread alone instead).
 */
export function unknownLockWaitMessage(message: string): string {
  if (!/^unknown option '--lock-wait(?:'|=)/.test(message)) return message;
  return `unknown option '${LOCK_WAIT_FLAG}': this command never waits for a thread's lock (${TAKE_LOCK_WAIT} do)`;
}
